/**
 * When a released result reaches the patient (issue 29, part 5): the lab admin's policy per test
 * (/admin/provider/patient-release), and the clinic's "Mark reviewed" of a result held for it.
 */
import type { ClinicReviewAnswer, PatientReleasePolicyBody, PatientReleasePolicyView } from '@platform/domain';
import { apiFetch } from './fetcher';
import { useApiQuery, useRefreshApi } from './query';

export type { ClinicReviewAnswer, PatientReleasePolicyView };

const POLICIES_PATH = '/admin/patient-release/policies';

/** Every test whose results go to patients, with its policy (the default where none was set). */
export const usePatientReleasePolicies = () => useApiQuery<PatientReleasePolicyView[]>(POLICIES_PATH, { errorHeading: 'Error retrieving the patient release policies' });

export const useRefreshPatientReleasePolicies = () => useRefreshApi(POLICIES_PATH);

export const savePatientReleasePolicy = (body: PatientReleasePolicyBody) => apiFetch<PatientReleasePolicyView>(POLICIES_PATH, { method: 'PUT', body });

/** The clinic reviewed a sample's held results: they go to the patient now (idempotent). */
export const markSampleReviewed = (accountId: number, sampleId: number) =>
  apiFetch<ClinicReviewAnswer>(`/provider-clinic/${accountId}/samples/${sampleId}/mark-reviewed`, { method: 'POST' });
