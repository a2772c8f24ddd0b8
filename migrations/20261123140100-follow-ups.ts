/**
 * Follow-ups of a sample's patient and the clinic's cancer registration:
 * - sample_follow_ups becomes what it was meant for: a PROSTOX registry survey (3, 6 and 12
 *   months after a PROSTOX result is released) or a question the lab or clinic asks about a
 *   sample; its status (Scheduled → Sent → Reminded → Answered, or Not Sendable), the email that
 *   carried its link and the reminder's, the answer; one registry follow-up per sample and interval;
 * - sample_follow_up_links: the single-use links emailed for a follow-up (token hash, expiry);
 *   several links (the first email's and the reminder's) lead to one follow-up, answered once;
 * - cancer_diagnoses: the diagnosis a clinic registers for a sample (one per sample).
 */
import {
  CANCER_SITES, CANCER_STAGES, FOLLOW_UP_KINDS, FOLLOW_UP_STATUSES, FollowUpKind, FollowUpStatus, GLEASON_PATTERN_MAX, GLEASON_PATTERN_MIN,
  RADIATION_TREATMENTS, REGISTRY_FOLLOW_UP_MONTHS,
} from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

const REGISTRY = literal(FollowUpKind.RegistrySurvey);
const QUESTION = literal(FollowUpKind.Question);
const SENT_OR_LATER = [FollowUpStatus.Sent, FollowUpStatus.Reminded, FollowUpStatus.Answered].map(literal).join(', ');

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE sample_follow_ups DROP CONSTRAINT sample_follow_ups_token_hash_key;
ALTER TABLE sample_follow_ups DROP COLUMN token_hash;
ALTER TABLE sample_follow_ups RENAME COLUMN completed_at TO answered_at;
ALTER TABLE sample_follow_ups ALTER COLUMN due_at SET NOT NULL;
ALTER TABLE sample_follow_ups
  ADD COLUMN kind text NOT NULL CONSTRAINT sample_follow_ups_kind_check CHECK (${oneOf('kind', FOLLOW_UP_KINDS)}),
  ADD COLUMN months integer CONSTRAINT sample_follow_ups_months_check CHECK (months IN (${REGISTRY_FOLLOW_UP_MONTHS.join(', ')})),
  ADD COLUMN question text,
  ADD COLUMN asked_by_user_id bigint REFERENCES users (id),
  ADD COLUMN status text NOT NULL DEFAULT ${literal(FollowUpStatus.Scheduled)}
    CONSTRAINT sample_follow_ups_status_check CHECK (${oneOf('status', FOLLOW_UP_STATUSES)}),
  ADD COLUMN email_id bigint REFERENCES emails (id),
  ADD COLUMN sent_at timestamptz,
  ADD COLUMN reminder_email_id bigint REFERENCES emails (id),
  ADD COLUMN reminded_at timestamptz,
  ADD COLUMN not_sendable_reason text,
  -- A registry survey names its interval; a question names its words and who asked.
  ADD CONSTRAINT sample_follow_ups_kind_fields_check CHECK (
    (kind = ${REGISTRY} AND months IS NOT NULL AND question IS NULL)
    OR (kind = ${QUESTION} AND months IS NULL AND question IS NOT NULL AND btrim(question) <> '' AND asked_by_user_id IS NOT NULL)
  ),
  -- Sent (or later) only with the email that carried the link; Reminded only with the reminder's.
  ADD CONSTRAINT sample_follow_ups_sent_check CHECK (status NOT IN (${SENT_OR_LATER}) OR (email_id IS NOT NULL AND sent_at IS NOT NULL)),
  ADD CONSTRAINT sample_follow_ups_reminded_check CHECK ((reminder_email_id IS NULL) = (reminded_at IS NULL)
    AND (status <> ${literal(FollowUpStatus.Reminded)} OR reminder_email_id IS NOT NULL)),
  ADD CONSTRAINT sample_follow_ups_answered_check CHECK ((status = ${literal(FollowUpStatus.Answered)}) = (answered_at IS NOT NULL AND answers IS NOT NULL)),
  ADD CONSTRAINT sample_follow_ups_not_sendable_check CHECK ((status = ${literal(FollowUpStatus.NotSendable)}) = (not_sendable_reason IS NOT NULL));
-- One registry follow-up per sample and interval: a second release (a correction) schedules nothing new.
CREATE UNIQUE INDEX sample_follow_ups_registry_key ON sample_follow_ups (sample_id, months) WHERE kind = ${REGISTRY};
-- What the scan looks for: due first emails, and sent ones waiting for their reminder.
CREATE INDEX sample_follow_ups_scheduled_idx ON sample_follow_ups (due_at) WHERE status = ${literal(FollowUpStatus.Scheduled)};
CREATE INDEX sample_follow_ups_sent_idx ON sample_follow_ups (sent_at) WHERE status = ${literal(FollowUpStatus.Sent)};

CREATE TABLE sample_follow_up_links (
  id bigserial PRIMARY KEY,
  follow_up_id bigint NOT NULL REFERENCES sample_follow_ups (id),
  token_hash text NOT NULL CONSTRAINT sample_follow_up_links_token_hash_key UNIQUE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sample_follow_up_links_follow_up_id_idx ON sample_follow_up_links (follow_up_id);

CREATE TABLE cancer_diagnoses (
  id bigserial PRIMARY KEY,
  sample_id bigint NOT NULL CONSTRAINT cancer_diagnoses_sample_id_key UNIQUE REFERENCES samples (id),
  patient_id bigint NOT NULL REFERENCES patients (id),
  site text NOT NULL CONSTRAINT cancer_diagnoses_site_check CHECK (${oneOf('site', CANCER_SITES)}),
  diagnosis text,
  diagnosed_on date NOT NULL,
  stage text CONSTRAINT cancer_diagnoses_stage_check CHECK (${oneOf('stage', CANCER_STAGES)}),
  gleason_primary integer CONSTRAINT cancer_diagnoses_gleason_primary_check CHECK (gleason_primary BETWEEN ${GLEASON_PATTERN_MIN} AND ${GLEASON_PATTERN_MAX}),
  gleason_secondary integer CONSTRAINT cancer_diagnoses_gleason_secondary_check CHECK (gleason_secondary BETWEEN ${GLEASON_PATTERN_MIN} AND ${GLEASON_PATTERN_MAX}),
  psa numeric(7, 2) CONSTRAINT cancer_diagnoses_psa_check CHECK (psa >= 0),
  planned_treatment text CONSTRAINT cancer_diagnoses_planned_treatment_check CHECK (${oneOf('planned_treatment', RADIATION_TREATMENTS)}),
  recorded_by_user_id bigint NOT NULL REFERENCES users (id),
  ${TIMESTAMPS},
  CONSTRAINT cancer_diagnoses_gleason_check CHECK ((gleason_primary IS NULL) = (gleason_secondary IS NULL))
);
CREATE INDEX cancer_diagnoses_patient_id_idx ON cancer_diagnoses (patient_id);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE cancer_diagnoses;
DROP TABLE sample_follow_up_links;
DROP INDEX sample_follow_ups_sent_idx;
DROP INDEX sample_follow_ups_scheduled_idx;
DROP INDEX sample_follow_ups_registry_key;
ALTER TABLE sample_follow_ups
  DROP CONSTRAINT sample_follow_ups_not_sendable_check,
  DROP CONSTRAINT sample_follow_ups_answered_check,
  DROP CONSTRAINT sample_follow_ups_reminded_check,
  DROP CONSTRAINT sample_follow_ups_sent_check,
  DROP CONSTRAINT sample_follow_ups_kind_fields_check,
  DROP COLUMN not_sendable_reason,
  DROP COLUMN reminded_at,
  DROP COLUMN reminder_email_id,
  DROP COLUMN sent_at,
  DROP COLUMN email_id,
  DROP COLUMN status,
  DROP COLUMN asked_by_user_id,
  DROP COLUMN question,
  DROP COLUMN months,
  DROP COLUMN kind;
ALTER TABLE sample_follow_ups ALTER COLUMN due_at DROP NOT NULL;
ALTER TABLE sample_follow_ups RENAME COLUMN answered_at TO completed_at;
-- The follow-ups (if any) leave with their links: the old column held one token per row.
DELETE FROM sample_follow_ups;
ALTER TABLE sample_follow_ups ADD COLUMN token_hash text NOT NULL CONSTRAINT sample_follow_ups_token_hash_key UNIQUE;
`);
};
