/**
 * Where the patient result page reads its link's greeting (below /api). A file of its own with no
 * imports: the build's route table (src/route-preloads.ts) names the same request for index.html.
 */
export const PATIENT_RESULT = '/reports/patient-result';

export const patientResultPath = (barcode: string, token: string) =>
  `${PATIENT_RESULT}/${encodeURIComponent(barcode)}?token=${encodeURIComponent(token)}`;
