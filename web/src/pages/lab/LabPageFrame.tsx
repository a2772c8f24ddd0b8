import { ToolPageFrame, type ToolPageFrameProps } from '../../components/ToolPageFrame';
import { LAB_HOME_PATH } from '../../portals';

/** The frame of every Lab Toolbox tool: a way back to the toolbox, the title, the tool. */
export const LabPageFrame = (props: ToolPageFrameProps) => <ToolPageFrame home={LAB_HOME_PATH} homeLabel="Lab Toolbox" {...props} />;
