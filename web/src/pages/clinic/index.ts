/** The Clinical Portal chunk (/provider-clinic/{accountId}/…). */
export { ClinicHomePage } from './ClinicHomePage';
