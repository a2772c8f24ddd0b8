/** The Clinical Portal chunk (/provider-clinic/{accountId}/…). */
export { ClinicHomePage } from './ClinicHomePage';
export { OrderPage } from './OrderPage';
export { PendingPage } from './PendingPage';
export { CompletedPage } from './CompletedPage';
export { ShipmentsPage } from './ShipmentsPage';
export { PatientPage } from './PatientPage';
export { AccountUsersPage } from './AccountUsersPage';
export { ApiClientsPage } from './ApiClientsPage';
export { ClinicAuditTrailPage } from './AuditTrailPage';
export { ResourcesPage } from './ResourcesPage';
export { ResearchProjectsPage } from './ResearchProjectsPage';
export { MirakindOrderPage } from './MirakindOrderPage';
export { PatientInvitationsPage } from './PatientInvitationsPage';
export { ClinicTurnaroundPage } from './TurnaroundPage';
