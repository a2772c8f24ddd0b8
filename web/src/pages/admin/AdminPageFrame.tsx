import { ToolPageFrame, type ToolPageFrameProps } from '../../components/ToolPageFrame';
import { ADMIN_HOME_PATH } from '../../portals';

/** The frame of every admin page: a way back to the administration home, the title, the page. */
export const AdminPageFrame = (props: ToolPageFrameProps) => <ToolPageFrame home={ADMIN_HOME_PATH} homeLabel="Administration" {...props} />;
