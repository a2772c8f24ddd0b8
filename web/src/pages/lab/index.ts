/** The Lab Toolbox chunk (/lab_toolbox/…). */
export { LabToolboxHomePage } from './LabToolboxHomePage';
