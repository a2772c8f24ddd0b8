/**
 * Complete clinical orders (docs/clinical-orders.md): the ICD-10-CM code search of the order form,
 * correcting a patient's details, and cancelling an order before the lab receives its sample.
 */
import useSWR from 'swr';
import {
  DIAGNOSIS_SEARCH_MIN_LENGTH, type CancelledClinicOrder, type CorrectableFieldSpec, type DiagnosisSearchAnswer, type PatientCorrectionBody, type PatientCorrectionView,
} from '@platform/domain';
import { apiFetch, queryString, type ApiError } from './fetcher';
import { useApiQuery, withErrorHeading } from './query';
import { clinicApiPath } from './clinic';

export type { CorrectableFieldSpec, DiagnosisCodeView, PatientCorrectionView } from '@platform/domain';

export const DIAGNOSIS_PICKER_PAGE_SIZE = 10;

/** Codes matching q (a code or words; at least DIAGNOSIS_SEARCH_MIN_LENGTH characters); the previous answer stays while the next loads. */
export function useDiagnosisSearch(accountId: number, q: string) {
  const trimmed = q.trim();
  const path = trimmed.length >= DIAGNOSIS_SEARCH_MIN_LENGTH
    ? clinicApiPath(accountId, `diagnosis-codes?${queryString({ q: trimmed, pageSize: DIAGNOSIS_PICKER_PAGE_SIZE })}`)
    : null;
  return useSWR<DiagnosisSearchAnswer, ApiError>(path, (p: string) => apiFetch<DiagnosisSearchAnswer>(p),
    withErrorHeading({ keepPreviousData: true, errorHeading: 'Error retrieving diagnosis codes' }));
}

/** The correction form's fields (the API reads them from the new-patient schema). */
export const useCorrectableFields = (accountId: number) =>
  useApiQuery<CorrectableFieldSpec[]>(clinicApiPath(accountId, 'patient-fields'), { errorHeading: 'Error retrieving patient details' });

/** What the correction form sends: every field of the patient as it should read (empty optional fields as ''), and why. */
export type PatientCorrectionInput = { [K in keyof PatientCorrectionBody]: string };

export const correctPatient = (accountId: number, patientId: number, body: PatientCorrectionInput) =>
  apiFetch<PatientCorrectionView>(clinicApiPath(accountId, `patient/${patientId}/correct`), { method: 'POST', body });

export const cancelClinicOrder = (accountId: number, sampleId: number, reason: string) =>
  apiFetch<CancelledClinicOrder>(clinicApiPath(accountId, `samples/${sampleId}/cancel-order`), { method: 'POST', body: { reason } });
