/** The patient result chunk (/reports/patient_result/{barcode}). */
export { PatientResultPage } from './PatientResultPage';
