/**
 * When a released result reaches the patient (issue 29, part 5).
 * - patient_release_policies: the lab admin's policy per test (no row: the default, "To the patient
 *   when released"); who set it last (every change is also audited with its old and new values).
 * - patient_result_releases: per released result version, the policy notify-result applied, the
 *   hold (when it began, when it ends), the clinic's review (when, by whom) and when the result went
 *   to the patient and what sent it (the release, the review, or the hold's end). Results notified
 *   before this table existed are written as released to the patient when they were released.
 */
import { PATIENT_RELEASE_POLICIES, PATIENT_RELEASE_TESTS, PATIENT_RELEASE_TRIGGERS, PatientReleasePolicy, PatientReleaseTrigger, TestResultStatus } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE patient_release_policies (
  test_name text PRIMARY KEY CONSTRAINT patient_release_policies_test_name_check CHECK (${oneOf('test_name', PATIENT_RELEASE_TESTS)}),
  policy text NOT NULL CONSTRAINT patient_release_policies_policy_check CHECK (${oneOf('policy', PATIENT_RELEASE_POLICIES)}),
  hold_days integer NOT NULL CONSTRAINT patient_release_policies_hold_days_check CHECK (hold_days BETWEEN 1 AND 30),
  updated_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS}
);
CREATE TABLE patient_result_releases (
  test_result_id bigint PRIMARY KEY REFERENCES test_results (id),
  sample_id bigint NOT NULL REFERENCES samples (id),
  policy text NOT NULL CONSTRAINT patient_result_releases_policy_check CHECK (${oneOf('policy', PATIENT_RELEASE_POLICIES)}),
  held_at timestamptz,
  release_due_at timestamptz,
  reviewed_at timestamptz,
  reviewed_by_user_id bigint REFERENCES users (id),
  released_to_patient_at timestamptz,
  released_by text CONSTRAINT patient_result_releases_released_by_check CHECK (${oneOf('released_by', PATIENT_RELEASE_TRIGGERS)}),
  ${TIMESTAMPS},
  CONSTRAINT patient_result_releases_hold_check CHECK ((held_at IS NULL) = (release_due_at IS NULL)),
  CONSTRAINT patient_result_releases_held_policy_check CHECK (held_at IS NULL OR policy = ${literal(PatientReleasePolicy.ClinicFirst)}),
  CONSTRAINT patient_result_releases_released_check CHECK ((released_to_patient_at IS NULL) = (released_by IS NULL)),
  CONSTRAINT patient_result_releases_reviewed_check CHECK (reviewed_at IS NULL OR reviewed_by_user_id IS NOT NULL)
);
CREATE INDEX patient_result_releases_sample_idx ON patient_result_releases (sample_id);
CREATE INDEX patient_result_releases_due_idx ON patient_result_releases (release_due_at) WHERE released_to_patient_at IS NULL AND held_at IS NOT NULL;
INSERT INTO patient_result_releases (test_result_id, sample_id, policy, released_to_patient_at, released_by)
SELECT r.id, t.sample_id, ${literal(PatientReleasePolicy.OnRelease)}, coalesce(r.reviewed_at, r.created_at), ${literal(PatientReleaseTrigger.Release)}
  FROM test_results r JOIN tests t ON t.id = r.test_id
 WHERE r.status IN (${literal(TestResultStatus.Released)}, ${literal(TestResultStatus.Superseded)});`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE patient_result_releases;
DROP TABLE patient_release_policies;`);
};
