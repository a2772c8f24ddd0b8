/** Background work and records: jobs, the outbox, the email log, the append-only audit log, webhook idempotency. */
import { ENTITY_KINDS, JOB_STATUSES, JobStatus } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';
import { AUDIT_ACTOR_KINDS, EMAIL_STATUSES, EmailStatus, OUTBOX_STATUSES, OutboxStatus } from '../db/src/values';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  status text NOT NULL DEFAULT ${literal(JobStatus.Pending)} CONSTRAINT jobs_status_check CHECK (${oneOf('status', JOB_STATUSES)}),
  progress integer NOT NULL DEFAULT 0 CONSTRAINT jobs_progress_check CHECK (progress BETWEEN 0 AND 100),
  error text,
  payload jsonb NOT NULL DEFAULT '{}'::jsonb,
  result jsonb,
  created_by_user_id bigint REFERENCES users (id),
  attempts integer NOT NULL DEFAULT 0 CONSTRAINT jobs_attempts_check CHECK (attempts >= 0),
  ${TIMESTAMPS},
  finished_at timestamptz
);
CREATE INDEX jobs_name_created_at_idx ON jobs (name, created_at DESC);
CREATE INDEX jobs_created_by_user_id_idx ON jobs (created_by_user_id, created_at DESC);

CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  job_name text NOT NULL,
  payload jsonb NOT NULL,
  idempotency_key text NOT NULL CONSTRAINT outbox_idempotency_key_key UNIQUE,
  status text NOT NULL DEFAULT ${literal(OutboxStatus.Pending)} CONSTRAINT outbox_status_check CHECK (${oneOf('status', OUTBOX_STATUSES)}),
  enqueued_at timestamptz,
  ${TIMESTAMPS}
);
CREATE INDEX outbox_pending_idx ON outbox (created_at) WHERE status = ${literal(OutboxStatus.Pending)};

CREATE TABLE emails (
  id bigserial PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  template text,
  entity_kind text CONSTRAINT emails_entity_kind_check CHECK (${oneOf('entity_kind', ENTITY_KINDS)}),
  entity_id text,
  status text NOT NULL DEFAULT ${literal(EmailStatus.Pending)} CONSTRAINT emails_status_check CHECK (${oneOf('status', EMAIL_STATUSES)}),
  message_id text CONSTRAINT emails_message_id_key UNIQUE,
  sent_at timestamptz,
  error text,
  ${TIMESTAMPS}
);
CREATE INDEX emails_created_at_idx ON emails (created_at DESC);
CREATE INDEX emails_entity_idx ON emails (entity_kind, entity_id);

-- Append-only: no foreign key on actor_user_id, the log outlives the rows it names.
CREATE TABLE audit_events (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor_user_id bigint,
  actor_kind text NOT NULL CONSTRAINT audit_events_actor_kind_check CHECK (${oneOf('actor_kind', AUDIT_ACTOR_KINDS)}),
  action text NOT NULL,
  entity_kind text,
  entity_id text,
  ip text,
  request_id text,
  details jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_events_entity_idx ON audit_events (entity_kind, entity_id);
CREATE INDEX audit_events_at_idx ON audit_events (at);
CREATE INDEX audit_events_actor_idx ON audit_events (actor_user_id, at);

CREATE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
CREATE TRIGGER audit_events_no_update_delete BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_append_only();

CREATE TABLE webhook_events (
  id bigserial PRIMARY KEY,
  source text NOT NULL,
  event_id text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT webhook_events_source_event_id_key UNIQUE (source, event_id)
);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE webhook_events;
DROP TABLE audit_events;
DROP FUNCTION audit_events_append_only();
DROP TABLE emails;
DROP TABLE outbox;
DROP TABLE jobs;
`);
};
