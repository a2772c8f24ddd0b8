/**
 * API clients of an account (issue 27): an EHR or practice system signs in with OAuth 2.0 client
 * credentials and reads the account's results through FHIR. The client secret is kept only as its
 * SHA-256 (it is 256 random bits, so a slow hash adds nothing); the webhook secret is kept as it is
 * because every delivery is signed with it. Bearer tokens are opaque and stored hashed, so revoking
 * a client ends its tokens at once. Each result notice to a client's webhook is a delivery row
 * (its Standard Webhooks message id kept for redelivery) with a row per attempt. The audit trail
 * learns a new actor kind, the API client.
 */
import { AUDIT_ACTOR_KINDS, WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES, WebhookDeliveryStatus } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE api_clients (
  id bigserial PRIMARY KEY,
  client_id text NOT NULL CONSTRAINT api_clients_client_id_key UNIQUE,
  account_id bigint NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  secret_hash text NOT NULL,
  webhook_url text,
  webhook_secret text,
  created_by_user_id bigint REFERENCES users (id),
  last_used_at timestamptz,
  revoked_at timestamptz,
  revoked_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS},
  CONSTRAINT api_clients_webhook_check CHECK ((webhook_url IS NULL) = (webhook_secret IS NULL))
);
CREATE INDEX api_clients_account_idx ON api_clients (account_id, created_at);
CREATE TABLE api_access_tokens (
  token_hash text PRIMARY KEY,
  api_client_id bigint NOT NULL REFERENCES api_clients (id),
  scope text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_access_tokens_client_idx ON api_access_tokens (api_client_id, expires_at);
CREATE TABLE webhook_deliveries (
  id bigserial PRIMARY KEY,
  api_client_id bigint NOT NULL REFERENCES api_clients (id),
  message_id text NOT NULL CONSTRAINT webhook_deliveries_message_id_key UNIQUE,
  event_type text NOT NULL CONSTRAINT webhook_deliveries_event_type_check CHECK (${oneOf('event_type', WEBHOOK_EVENT_TYPES)}),
  body jsonb NOT NULL,
  sample_id bigint NOT NULL REFERENCES samples (id),
  status text NOT NULL DEFAULT ${literal(WebhookDeliveryStatus.Pending)} CONSTRAINT webhook_deliveries_status_check CHECK (${oneOf('status', WEBHOOK_DELIVERY_STATUSES)}),
  attempts integer NOT NULL DEFAULT 0,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_response_ms integer,
  last_error text,
  delivered_at timestamptz,
  ${TIMESTAMPS}
);
CREATE INDEX webhook_deliveries_client_idx ON webhook_deliveries (api_client_id, id DESC);
CREATE TABLE webhook_delivery_attempts (
  id bigserial PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES webhook_deliveries (id),
  attempted_at timestamptz NOT NULL DEFAULT now(),
  status_code integer,
  response_ms integer NOT NULL,
  error text
);
CREATE INDEX webhook_delivery_attempts_delivery_idx ON webhook_delivery_attempts (delivery_id, id);
ALTER TABLE audit_events DROP CONSTRAINT audit_events_actor_kind_check;
ALTER TABLE audit_events ADD CONSTRAINT audit_events_actor_kind_check CHECK (${oneOf('actor_kind', AUDIT_ACTOR_KINDS)});`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE webhook_delivery_attempts; DROP TABLE webhook_deliveries; DROP TABLE api_access_tokens; DROP TABLE api_clients;');
};
