/**
 * Follow-ups (docs/registry-and-follow-ups.md): the patient's side through the emailed link (the
 * registry survey, a question about a sample), the clinic's side (ask, list a patient's), and the
 * clinic's calls on a sample (cancer diagnosis, add a PROSTOX CFRT test). One hook per resource.
 */
import type {
  CancerDiagnosisBody, CancerDiagnosisView, FollowUpView, RegistrySurveyBody, RegistrySurveyView, SampleFollowUpPatientView, SampleFollowUpResponseBody,
} from '@platform/domain';
import { REGISTRY_STUDY } from '@platform/domain';
import { apiFetch, queryString } from './fetcher';
import { useApiQuery } from './query';
import { clinicApiPath } from './clinic';

export type { CancerDiagnosisView, FollowUpView, RegistrySurveyView, SampleFollowUpPatientView };

// ---- The patient, through the link (failures are the page's to show: no error modal) ----

const LINK_REFUSALS = [404, 409, 410] as const;

export const registrySurveyPath = (sampleId: string, token: string) =>
  `/registry/study/${REGISTRY_STUDY}/${encodeURIComponent(sampleId)}/follow-up-survey?${queryString({ token })}`;

export const useRegistrySurvey = (sampleId: string, token: string | null) =>
  useApiQuery<RegistrySurveyView>(token ? registrySurveyPath(sampleId, token) : null, { errorHeading: 'Error retrieving the survey', quietStatuses: LINK_REFUSALS });

export const answerRegistrySurvey = (sampleId: string, body: RegistrySurveyBody) =>
  apiFetch<{ answeredAt: string }>(`/registry/study/${REGISTRY_STUDY}/${encodeURIComponent(sampleId)}/follow-up-survey`, { method: 'POST', body });

export const useSampleQuestion = (followUpId: string, token: string | null) =>
  useApiQuery<SampleFollowUpPatientView>(token ? `/sample-follow-up/${encodeURIComponent(followUpId)}?${queryString({ token })}` : null, {
    errorHeading: 'Error retrieving the question', quietStatuses: LINK_REFUSALS,
  });

export const answerSampleQuestion = (followUpId: string, body: SampleFollowUpResponseBody) =>
  apiFetch<{ answeredAt: string }>(`/sample-follow-up/${encodeURIComponent(followUpId)}/response`, { method: 'POST', body });

// ---- The clinic ----

export const usePatientFollowUps = (accountId: number, patientId: number) =>
  useApiQuery<FollowUpView[]>(clinicApiPath(accountId, `patient/${patientId}/follow-ups`), { errorHeading: 'Error retrieving follow-ups' });

export const askAboutSample = (accountId: number, body: { sampleId: number; question: string }) =>
  apiFetch<FollowUpView>(clinicApiPath(accountId, 'sample-follow-up'), { method: 'POST', body });

export const usePatientCancerDiagnoses = (accountId: number, patientId: number | null) =>
  useApiQuery<CancerDiagnosisView[]>(patientId ? clinicApiPath(accountId, `patient/${patientId}/cancer-diagnoses`) : null, { errorHeading: 'Error retrieving patient details' });

export const registerCancer = (accountId: number, body: CancerDiagnosisBody) =>
  apiFetch<CancerDiagnosisView>(clinicApiPath(accountId, 'sample/patient-register-cancer'), { method: 'POST', body });

export const addCfrtTest = (accountId: number, sampleId: number) =>
  apiFetch<{ testId: number; tests: string[] }>(clinicApiPath(accountId, `sample/${sampleId}/add-cfrt-test`), { method: 'POST', body: {} });
