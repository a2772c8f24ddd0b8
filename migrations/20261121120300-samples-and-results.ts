/** Samples and their life: samples, status events, tests, result versions, studies, follow-ups, patient result links. */
import {
  PARENT_TEST_TYPES,
  REJECTION_REASONS,
  SAMPLE_STATUSES,
  SAMPLE_TYPES,
  SampleStatus,
  TEST_NAMES,
} from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';
import { ACTOR_KINDS, INITIAL_TEST_STATUS, TEST_RESULT_STATUSES, TestResultStatus } from '../db/src/values';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE samples (
  id bigserial PRIMARY KEY,
  barcode text NOT NULL CONSTRAINT samples_barcode_key UNIQUE,
  sample_type text CONSTRAINT samples_sample_type_check CHECK (${oneOf('sample_type', SAMPLE_TYPES)}),
  status text NOT NULL DEFAULT ${literal(SampleStatus.OrderPlaced)}
    CONSTRAINT samples_status_check CHECK (${oneOf('status', SAMPLE_STATUSES)}),
  status_before_storage text CONSTRAINT samples_status_before_storage_check
    CHECK (${oneOf('status_before_storage', SAMPLE_STATUSES.filter((s) => s !== SampleStatus.InStorage))}),
  account_id bigint REFERENCES accounts (id),
  patient_id bigint NOT NULL REFERENCES patients (id),
  order_id bigint NOT NULL REFERENCES orders (id),
  collected_at timestamptz,
  received_at timestamptz,
  received_by_user_id bigint REFERENCES users (id),
  rejection_reason text CONSTRAINT samples_rejection_reason_check CHECK (${oneOf('rejection_reason', REJECTION_REASONS)}),
  ${TIMESTAMPS},
  -- A stored sample remembers where it goes back to.
  CONSTRAINT samples_storage_check
    CHECK (status <> ${literal(SampleStatus.InStorage)} OR status_before_storage IS NOT NULL)
);
CREATE INDEX samples_account_status_created_at_idx ON samples (account_id, status, created_at DESC);
CREATE INDEX samples_patient_id_idx ON samples (patient_id);
CREATE INDEX samples_order_id_idx ON samples (order_id);
CREATE INDEX samples_status_idx ON samples (status);

CREATE TABLE sample_status_events (
  id bigserial PRIMARY KEY,
  sample_id bigint NOT NULL REFERENCES samples (id),
  from_status text CONSTRAINT sample_status_events_from_status_check CHECK (${oneOf('from_status', SAMPLE_STATUSES)}),
  to_status text NOT NULL CONSTRAINT sample_status_events_to_status_check CHECK (${oneOf('to_status', SAMPLE_STATUSES)}),
  reason text,
  actor_user_id bigint REFERENCES users (id),
  actor_kind text NOT NULL CONSTRAINT sample_status_events_actor_kind_check CHECK (${oneOf('actor_kind', ACTOR_KINDS)}),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sample_status_events_sample_idx ON sample_status_events (sample_id, created_at);

CREATE TABLE tests (
  id bigserial PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id),
  sample_id bigint NOT NULL REFERENCES samples (id),
  name text NOT NULL CONSTRAINT tests_name_check CHECK (${oneOf('name', TEST_NAMES)}),
  parent_type text CONSTRAINT tests_parent_type_check CHECK (${oneOf('parent_type', PARENT_TEST_TYPES)}),
  status text NOT NULL DEFAULT ${literal(INITIAL_TEST_STATUS)},
  ${TIMESTAMPS}
);
CREATE INDEX tests_sample_id_idx ON tests (sample_id);
CREATE INDEX tests_order_id_idx ON tests (order_id);

-- A result is never edited: a correction is a new version. Review fields are set once, by someone else.
CREATE TABLE test_results (
  id bigserial PRIMARY KEY,
  test_id bigint NOT NULL REFERENCES tests (id),
  version integer NOT NULL CONSTRAINT test_results_version_check CHECK (version >= 1),
  value text NOT NULL,
  scale text,
  status text NOT NULL DEFAULT ${literal(TestResultStatus.InReview)}
    CONSTRAINT test_results_status_check CHECK (${oneOf('status', TEST_RESULT_STATUSES)}),
  entered_by_user_id bigint NOT NULL REFERENCES users (id),
  import_job_id bigint REFERENCES jobs (id),
  reviewed_by_user_id bigint REFERENCES users (id),
  reviewed_at timestamptz,
  review_note text,
  correction_reason text,
  ${TIMESTAMPS},
  CONSTRAINT test_results_test_id_version_key UNIQUE (test_id, version),
  CONSTRAINT test_results_reviewer_check CHECK (reviewed_by_user_id <> entered_by_user_id)
);
-- At most one released version per test (supersede the old one before releasing its correction).
CREATE UNIQUE INDEX test_results_one_released_key ON test_results (test_id)
  WHERE status = ${literal(TestResultStatus.Released)};
CREATE INDEX test_results_status_idx ON test_results (status, created_at);
CREATE INDEX test_results_import_job_id_idx ON test_results (import_job_id);

CREATE TABLE study_responses (
  id bigserial PRIMARY KEY,
  sample_id bigint NOT NULL REFERENCES samples (id),
  patient_id bigint NOT NULL REFERENCES patients (id),
  study text NOT NULL,
  answers jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS},
  CONSTRAINT study_responses_sample_id_study_key UNIQUE (sample_id, study)
);
CREATE INDEX study_responses_patient_id_idx ON study_responses (patient_id);

CREATE TABLE sample_follow_ups (
  id bigserial PRIMARY KEY,
  sample_id bigint NOT NULL REFERENCES samples (id),
  token_hash text NOT NULL CONSTRAINT sample_follow_ups_token_hash_key UNIQUE,
  due_at timestamptz,
  completed_at timestamptz,
  answers jsonb,
  ${TIMESTAMPS}
);
CREATE INDEX sample_follow_ups_sample_id_idx ON sample_follow_ups (sample_id);

CREATE TABLE patient_result_links (
  id bigserial PRIMARY KEY,
  sample_id bigint NOT NULL REFERENCES samples (id),
  token_hash text NOT NULL CONSTRAINT patient_result_links_token_hash_key UNIQUE,
  dob_failures integer NOT NULL DEFAULT 0 CONSTRAINT patient_result_links_dob_failures_check CHECK (dob_failures >= 0),
  locked_at timestamptz,
  revoked_at timestamptz,
  created_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS}
);
CREATE INDEX patient_result_links_sample_id_idx ON patient_result_links (sample_id);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE patient_result_links;
DROP TABLE sample_follow_ups;
DROP TABLE study_responses;
DROP TABLE test_results;
DROP TABLE tests;
DROP TABLE sample_status_events;
DROP TABLE samples;
`);
};
