/** The Patient Portal chunk (/patient-portal/…): the stepped order and its complete page. */
export { PatientOrderPage } from './PatientOrderPage';
export { OrderCompletePage } from './OrderCompletePage';
