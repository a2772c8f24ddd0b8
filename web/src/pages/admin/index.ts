/** The administration chunk (/admin/…). */
export { AdminHomePage } from './AdminHomePage';
export { ApproveProvidersPage } from './ApproveProvidersPage';
export { RegisterProviderPage } from './RegisterProviderPage';
export { NewAccountPage } from './NewAccountPage';
export { LabToolboxUsersPage } from './LabToolboxUsersPage';
