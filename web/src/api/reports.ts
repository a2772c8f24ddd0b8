/**
 * Result endpoints: the patient's tokened result link (greeting, date-of-birth check, view log,
 * contact details, report PDF) and the provider's report download and result-email re-send.
 */
import useSWR from 'swr';
import type {
  PatientResultGreeting, UpdateDemographicInfoBody, VerifyPatientBody, DemographicField, Language, SetLanguageBody, SetTextMessagesBody, SmsContact,
} from '@platform/domain';
import { ApiError, apiDownload, apiFetch, saveFile } from './fetcher';
import { withErrorHeading } from './query';
import { PATIENT_RESULT, patientResultPath } from './patient-result-path';

export type { PatientResultGreeting, PatientResultView } from '@platform/domain';

export { patientResultPath } from './patient-result-path';

/**
 * The link's greeting (first name, last initial, locked?) and, for a browser that verified the
 * date of birth, the result. A 404 (a link that is not, or no longer, valid) is an answer the page
 * shows itself; other failures open the error modal.
 */
export function usePatientResult(barcode: string, token: string | null) {
  const key = token ? patientResultPath(barcode, token) : null;
  return useSWR<PatientResultGreeting, ApiError>(key, (path: string) => apiFetch<PatientResultGreeting>(path), withErrorHeading({
    revalidateOnFocus: false,
    errorHeading: 'Error retrieving your result',
    quietStatuses: [404],
  }));
}

export function verifyPatient(body: VerifyPatientBody): Promise<PatientResultGreeting> {
  return apiFetch<PatientResultGreeting>(`${PATIENT_RESULT}/verify-patient`, { method: 'POST', body });
}

/** Logged on every view of the result (the audit trail of who saw it, when). */
export function logViewResult(body: { barcode: string; token: string }): Promise<void> {
  return apiFetch<void>(`${PATIENT_RESULT}/log-view-result`, { method: 'POST', body });
}

export function updateDemographicInfo(body: UpdateDemographicInfoBody): Promise<{ contact: Record<DemographicField, string | null> }> {
  return apiFetch(`${PATIENT_RESULT}/update-demographic-info`, { method: 'POST', body });
}

/** The verified patient's mobile number and whether they want texts (docs/sms.md). */
export function setTextMessages(body: SetTextMessagesBody): Promise<SmsContact> {
  return apiFetch(`${PATIENT_RESULT}/set-text-messages`, { method: 'POST', body });
}

/** Fetches a PDF and hands it to the browser as a download (no page change on failure). */
async function downloadPdf(path: string, fallbackName: string): Promise<void> {
  const { blob, fileName } = await apiDownload(path, { fallbackName });
  saveFile(blob, fileName);
}

/** The verified patient's lab report. */
export function downloadPatientReport(barcode: string, token: string): Promise<void> {
  return downloadPdf(`${PATIENT_RESULT}/${encodeURIComponent(barcode)}/report.pdf?token=${encodeURIComponent(token)}`, `lab-report-${barcode}.pdf`);
}

/** A provider downloads a sample's current lab report (404 not_ready until it is rendered). */
export function downloadProviderReport(sampleId: number): Promise<void> {
  return downloadPdf(`/metabase/samples/${sampleId}/reports/download`, `lab-report-${sampleId}.pdf`);
}

/** A provider (re-)sends the patient's result email: a new link, the earlier one stops working. */
export function sendResultEmail(accountId: number, sampleId: number): Promise<{ message: string; sentTo: string }> {
  return apiFetch(`/provider-clinic/${accountId}/patient/send-result-email`, { method: 'POST', body: { sampleId } });
}

/** The verified patient chose the language of their pages and emails. */
export function setPatientLanguage(body: SetLanguageBody): Promise<{ language: Language }> {
  return apiFetch(`${PATIENT_RESULT}/set-language`, { method: 'POST', body });
}
