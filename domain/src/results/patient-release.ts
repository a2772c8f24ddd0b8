/**
 * When a released result reaches the patient (issue 29, part 5), set by the lab's admin per test:
 * at once (today's behaviour, the default), or to the clinic first: the patient is told only when
 * a provider of the ordering account marks the result reviewed, or after the hold's days,
 * whichever comes first. The clinic is told at release either way. (The request body's joi schema
 * is in patient-release-schemas.ts: this file stays joi-free for the SPA.)
 */
import * as s from '../shared/shapes';
import { valuesOf } from '../shared/values';
import { TEST_CATALOGUE } from '../catalogue/catalogue';
import { TEST_NAMES, type TestName } from '../catalogue/tests';

export const PatientReleasePolicy = {
  OnRelease: 'To the patient when released',
  ClinicFirst: 'To the clinic first',
} as const;
export type PatientReleasePolicy = (typeof PatientReleasePolicy)[keyof typeof PatientReleasePolicy];
export const PATIENT_RELEASE_POLICIES = valuesOf(PatientReleasePolicy);

/** What released a result to the patient: the release itself (policy On release), the clinic's review, or the hold's end. */
export const PatientReleaseTrigger = {
  Release: 'release',
  Review: 'review',
  Timeout: 'timeout',
} as const;
export type PatientReleaseTrigger = (typeof PatientReleaseTrigger)[keyof typeof PatientReleaseTrigger];
export const PATIENT_RELEASE_TRIGGERS = valuesOf(PatientReleaseTrigger);

export const DEFAULT_PATIENT_RELEASE_POLICY: PatientReleasePolicy = PatientReleasePolicy.OnRelease;
/** Days a clinic-first result waits for the clinic's review before it goes to the patient anyway. */
export const DEFAULT_PATIENT_HOLD_DAYS = 3;
export const MIN_PATIENT_HOLD_DAYS = 1;
export const MAX_PATIENT_HOLD_DAYS = 30;
/** How often every worker looks for holds that have ended. */
export const PATIENT_HOLD_SCAN_INTERVAL_MS = 60_000;
/** Holds one look releases at most (the next look takes the rest). */
export const PATIENT_HOLD_SCAN_BATCH = 200;

/**
 * The tests a policy can be set for: those whose results can go to a patient (research tests go to
 * the research provider only; a processing step such as DNA Extraction reports nothing).
 */
export const PATIENT_RELEASE_TESTS: readonly TestName[] = TEST_NAMES.filter((name) => !TEST_CATALOGUE[name].research && TEST_CATALOGUE[name].scale !== null);

/** One test's policy as the admin's page shows it (`custom: false`: the default, never set). */
export const PatientReleasePolicyView = s.object({
  testName: s.string,
  policy: s.oneOf(PATIENT_RELEASE_POLICIES),
  holdDays: s.integer,
  custom: s.boolean,
  updatedAt: s.nullable(s.string),
  updatedBy: s.nullable(s.string),
});
export type PatientReleasePolicyView = s.Infer<typeof PatientReleasePolicyView>;

/** POST provider-clinic/{accountId}/samples/{sampleId}/mark-reviewed: what the review did. */
export const ClinicReviewAnswer = s.object({
  sampleId: s.integer,
  reviewedAt: s.string,
  /** The tests whose results went to the patient with this review (empty when nothing was held any more). */
  releasedToPatient: s.array(s.string),
  message: s.string,
});
export type ClinicReviewAnswer = s.Infer<typeof ClinicReviewAnswer>;

/** The clinic's list row: the sample's results held for the clinic's review, and when they go to the patient anyway. */
export const AwaitingClinicReview = s.object({
  tests: s.array(s.string),
  releaseDueAt: s.string,
});
export type AwaitingClinicReview = s.Infer<typeof AwaitingClinicReview>;

/** The patient's result page: a result held for the clinic's review, and the date it is available by. */
export const PatientResultInReview = s.object({
  testName: s.string,
  availableBy: s.string,
});
export type PatientResultInReview = s.Infer<typeof PatientResultInReview>;

/** The toast after "Mark reviewed". */
export function clinicReviewMessage(released: readonly string[]): string {
  return released.length
    ? `Marked reviewed. The patient is sent their ${released.join(' and ')} result now.`
    : 'Marked reviewed. The result had already been sent to the patient.';
}
