/**
 * Electronic lab reporting to public health (issue 28, item 4): the one destination the lab's admin
 * configures (MLLP, or a daily batch file in a folder), and the batch files written. Reports are
 * HL7 messages like the EHR's: they join hl7_messages with their destination (and may concern a
 * sample without an account), and a message written to a batch file names its batch. A batch keeps its file's content: the row is committed
 * with the messages it takes, and the file is written from it afterwards (again, after a crash),
 * so no message is in two files and none is lost between the commit and the write.
 */
import { ELR_MODES, ElrMode, HL7_MESSAGE_DESTINATIONS, HL7_MESSAGE_STATUSES, Hl7MessageDestination } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE elr_settings (
  id smallint PRIMARY KEY DEFAULT 1 CONSTRAINT elr_settings_single_row CHECK (id = 1),
  enabled boolean NOT NULL DEFAULT false,
  mode text NOT NULL DEFAULT ${literal(ElrMode.Mllp)} CONSTRAINT elr_settings_mode_check CHECK (${oneOf('mode', ELR_MODES)}),
  host text,
  port integer CONSTRAINT elr_settings_port_check CHECK (port BETWEEN 1 AND 65535),
  folder text,
  receiving_application text NOT NULL,
  receiving_facility text NOT NULL,
  updated_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS},
  CONSTRAINT elr_settings_destination_check CHECK (CASE mode WHEN ${literal(ElrMode.Mllp)} THEN host IS NOT NULL AND port IS NOT NULL ELSE folder IS NOT NULL END)
);
CREATE TABLE elr_batches (
  id bigserial PRIMARY KEY,
  file_name text NOT NULL CONSTRAINT elr_batches_file_name_key UNIQUE,
  folder text NOT NULL,
  message_count integer NOT NULL,
  content text NOT NULL,
  written_at timestamptz,
  created_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS}
);
CREATE INDEX elr_batches_unwritten_idx ON elr_batches (id) WHERE written_at IS NULL;
ALTER TABLE hl7_messages ADD COLUMN destination text NOT NULL DEFAULT ${literal(Hl7MessageDestination.Ehr)}
  CONSTRAINT hl7_messages_destination_check CHECK (${oneOf('destination', HL7_MESSAGE_DESTINATIONS)});
ALTER TABLE hl7_messages ADD COLUMN batch_id bigint REFERENCES elr_batches (id);
ALTER TABLE hl7_messages DROP CONSTRAINT hl7_messages_status_check;
ALTER TABLE hl7_messages ADD CONSTRAINT hl7_messages_status_check CHECK (${oneOf('status', HL7_MESSAGE_STATUSES)});
-- A report to public health may concern a sample with no account (the lab's own walk-in order).
ALTER TABLE hl7_messages ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE hl7_messages ADD CONSTRAINT hl7_messages_account_check CHECK (destination = ${literal(Hl7MessageDestination.PublicHealth)} OR account_id IS NOT NULL);
CREATE INDEX hl7_messages_public_health_idx ON hl7_messages (created_at) WHERE destination = ${literal(Hl7MessageDestination.PublicHealth)};
CREATE INDEX hl7_messages_batch_idx ON hl7_messages (batch_id) WHERE batch_id IS NOT NULL;`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP INDEX hl7_messages_public_health_idx;
DELETE FROM hl7_messages WHERE destination = ${literal(Hl7MessageDestination.PublicHealth)};
ALTER TABLE hl7_messages DROP CONSTRAINT hl7_messages_account_check;
ALTER TABLE hl7_messages ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE hl7_messages DROP COLUMN batch_id;
ALTER TABLE hl7_messages DROP COLUMN destination;
DROP TABLE elr_batches;
DROP TABLE elr_settings;`);
};
