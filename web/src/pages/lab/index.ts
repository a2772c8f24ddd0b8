/** The Lab Toolbox chunk (/lab_toolbox/…). */
export { LabToolboxHomePage } from './LabToolboxHomePage';
export { IntakePage } from './IntakePage';
export { ImportToolPage } from './ImportToolPage';
export { PcrRegisterPage } from './PcrRegisterPage';
export { PcrResultingPage } from './PcrResultingPage';
export { ReviewPage } from './ReviewPage';
export { StoragePlatesPage } from './StoragePlatesPage';
export { TurnaroundPage } from './TurnaroundPage';
export { WorklistPage } from './WorklistPage';
