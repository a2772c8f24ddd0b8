/**
 * The admin portal: unique account names and contact emails (a duplicate is a 409 naming it, also
 * under concurrency), access decisions with their reason, accounts that take patient orders,
 * financial assistance with an approved price and an end date, and bulk email campaigns whose
 * recipients each get exactly one logged email.
 */
import { EMAIL_CAMPAIGNS } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP INDEX accounts_name_idx;
CREATE UNIQUE INDEX accounts_name_lower_key ON accounts (lower(btrim(name)));
ALTER TABLE accounts ADD COLUMN takes_patient_orders boolean NOT NULL DEFAULT false;

DROP INDEX contacts_email_idx;
CREATE UNIQUE INDEX contacts_email_lower_key ON contacts (lower(email));
ALTER TABLE contacts ADD COLUMN decision_reason text;
ALTER TABLE contacts ADD COLUMN request_note text;

ALTER TABLE financial_assistance_records
  ADD COLUMN approved_price_cents integer CONSTRAINT financial_assistance_records_price_check CHECK (approved_price_cents >= 0),
  ADD COLUMN valid_until date,
  ADD COLUMN created_by_user_id bigint REFERENCES users (id);

CREATE TABLE email_campaigns (
  id bigserial PRIMARY KEY,
  campaign text NOT NULL CONSTRAINT email_campaigns_campaign_check CHECK (${oneOf('campaign', EMAIL_CAMPAIGNS)}),
  audience jsonb NOT NULL DEFAULT '{}'::jsonb,
  recipient_count integer NOT NULL DEFAULT 0 CONSTRAINT email_campaigns_recipient_count_check CHECK (recipient_count >= 0),
  job_id bigint REFERENCES jobs (id),
  created_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS}
);
CREATE INDEX email_campaigns_created_at_idx ON email_campaigns (created_at DESC);

-- One row per person a campaign writes to; email_id is set, in the same transaction as the email
-- row, when that person's email is queued: a retried or resumed job skips whoever has one.
CREATE TABLE email_campaign_recipients (
  id bigserial PRIMARY KEY,
  campaign_id bigint NOT NULL REFERENCES email_campaigns (id) ON DELETE CASCADE,
  contact_id bigint NOT NULL REFERENCES contacts (id),
  to_address text NOT NULL,
  email_id bigint CONSTRAINT email_campaign_recipients_email_id_key UNIQUE REFERENCES emails (id),
  ${TIMESTAMPS},
  CONSTRAINT email_campaign_recipients_campaign_contact_key UNIQUE (campaign_id, contact_id)
);
CREATE INDEX email_campaign_recipients_unqueued_idx ON email_campaign_recipients (campaign_id, id) WHERE email_id IS NULL;

-- The catcher keeps one copy per Message-ID, as a mailbox that drops a redelivered message does.
CREATE UNIQUE INDEX caught_mail_message_id_key ON caught_mail (message_id) WHERE message_id IS NOT NULL;
DROP INDEX caught_mail_message_id_idx;
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE INDEX caught_mail_message_id_idx ON caught_mail (message_id);
DROP INDEX caught_mail_message_id_key;
DROP TABLE email_campaign_recipients;
DROP TABLE email_campaigns;
ALTER TABLE financial_assistance_records DROP COLUMN created_by_user_id, DROP COLUMN valid_until, DROP COLUMN approved_price_cents;
ALTER TABLE contacts DROP COLUMN request_note;
ALTER TABLE contacts DROP COLUMN decision_reason;
DROP INDEX contacts_email_lower_key;
CREATE INDEX contacts_email_idx ON contacts (lower(email));
ALTER TABLE accounts DROP COLUMN takes_patient_orders;
DROP INDEX accounts_name_lower_key;
CREATE INDEX accounts_name_idx ON accounts (lower(name));
`);
};
