/** A patient's text messages on the clinic's patient page (docs/sms.md): read, and the number and consent the clinic records. */
import type { ClinicPatientTexts, PatientTextsBody } from '@platform/domain';
import { apiFetch } from './fetcher';
import { useApiQuery } from './query';

export type { ClinicPatientTexts };

const path = (accountId: number, patientId: number) => `/provider-clinic/${accountId}/patient/${patientId}/text-messages`;

export const usePatientTexts = (accountId: number, patientId: number) =>
  useApiQuery<ClinicPatientTexts>(path(accountId, patientId), { errorHeading: 'Error retrieving the patient\'s text messages' });

export function setPatientTexts(accountId: number, patientId: number, body: PatientTextsBody): Promise<ClinicPatientTexts> {
  return apiFetch(path(accountId, patientId), { method: 'PUT', body });
}
