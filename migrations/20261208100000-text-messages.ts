/**
 * Text-message notices (issue 31, item 5; docs/sms.md): a patient's mobile number (E.164) and
 * their consent to texts, with when and where it was given; one row per text message (like the
 * email log: status, attempts, Twilio's message SID, why it was not sent); and the numbers that
 * replied STOP (Twilio's opt-out keywords), until they reply START.
 */
import { ENTITY_KINDS, LANGUAGES, SMS_CONSENT_SOURCES, TEXT_MESSAGE_KINDS, TEXT_MESSAGE_STATUSES, TextMessageStatus } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { literal, oneOf, TIMESTAMPS } from '../db/src/sql';

const E164 = `'^\\+[1-9][0-9]{7,14}$'`;

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE patients
  ADD COLUMN mobile_phone text CONSTRAINT patients_mobile_phone_check CHECK (mobile_phone ~ ${E164}),
  ADD COLUMN sms_consent boolean NOT NULL DEFAULT false,
  ADD COLUMN sms_consent_at timestamptz,
  ADD COLUMN sms_consent_source text CONSTRAINT patients_sms_consent_source_check CHECK (${oneOf('sms_consent_source', SMS_CONSENT_SOURCES)}),
  ADD CONSTRAINT patients_sms_consent_check CHECK (NOT sms_consent OR (mobile_phone IS NOT NULL AND sms_consent_at IS NOT NULL AND sms_consent_source IS NOT NULL));

CREATE TABLE text_messages (
  id bigserial PRIMARY KEY,
  patient_id bigint NOT NULL REFERENCES patients (id),
  to_phone text NOT NULL CONSTRAINT text_messages_to_phone_check CHECK (to_phone ~ ${E164}),
  kind text NOT NULL CONSTRAINT text_messages_kind_check CHECK (${oneOf('kind', TEXT_MESSAGE_KINDS)}),
  language text NOT NULL CONSTRAINT text_messages_language_check CHECK (${oneOf('language', LANGUAGES)}),
  body text NOT NULL,
  entity_kind text CONSTRAINT text_messages_entity_kind_check CHECK (${oneOf('entity_kind', ENTITY_KINDS)}),
  entity_id text,
  status text NOT NULL DEFAULT ${literal(TextMessageStatus.Pending)} CONSTRAINT text_messages_status_check CHECK (${oneOf('status', TEXT_MESSAGE_STATUSES)}),
  attempts integer NOT NULL DEFAULT 0,
  provider_sid text CONSTRAINT text_messages_provider_sid_key UNIQUE,
  error text,
  sent_at timestamptz,
  ${TIMESTAMPS}
);
CREATE INDEX text_messages_patient_idx ON text_messages (patient_id, id DESC);
CREATE INDEX text_messages_created_at_idx ON text_messages (created_at DESC);

CREATE TABLE sms_opt_outs (
  phone text PRIMARY KEY CONSTRAINT sms_opt_outs_phone_check CHECK (phone ~ ${E164}),
  keyword text NOT NULL,
  opted_out_at timestamptz NOT NULL DEFAULT now()
);`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE sms_opt_outs;
DROP TABLE text_messages;
ALTER TABLE patients DROP CONSTRAINT patients_sms_consent_check, DROP COLUMN sms_consent_source, DROP COLUMN sms_consent_at,
  DROP COLUMN sms_consent, DROP COLUMN mobile_phone;`);
};
