/**
 * HL7 v2 interfaces (issue 28): each account's connection to its EHR (where its results go as
 * ORU^R01 over MLLP, and the MSH-4 its orders arrive under), and the log of every message sent,
 * one row per message: its control id (MSH-10, unique: a resend is a new row), why it was sent,
 * what it concerns, and the last ACK (or why none came). The message itself is not kept: it is
 * built from the result when sent.
 */
import { HL7_MESSAGE_REASONS, HL7_MESSAGE_STATUSES, Hl7MessageStatus } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { TIMESTAMPS, literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE hl7_interfaces (
  account_id bigint PRIMARY KEY REFERENCES accounts (id),
  enabled boolean NOT NULL DEFAULT false,
  host text NOT NULL,
  port integer NOT NULL CONSTRAINT hl7_interfaces_port_check CHECK (port BETWEEN 1 AND 65535),
  receiving_application text NOT NULL,
  receiving_facility text NOT NULL,
  sending_facility_of_orders text,
  updated_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS}
);
CREATE UNIQUE INDEX hl7_interfaces_orders_facility_key ON hl7_interfaces (lower(sending_facility_of_orders)) WHERE sending_facility_of_orders IS NOT NULL;
CREATE TABLE hl7_messages (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  control_id text NOT NULL CONSTRAINT hl7_messages_control_id_key UNIQUE,
  message_type text NOT NULL,
  reason text NOT NULL CONSTRAINT hl7_messages_reason_check CHECK (${oneOf('reason', HL7_MESSAGE_REASONS)}),
  sample_id bigint REFERENCES samples (id),
  test_id bigint REFERENCES tests (id),
  test_result_id bigint REFERENCES test_results (id),
  status text NOT NULL DEFAULT ${literal(Hl7MessageStatus.Pending)} CONSTRAINT hl7_messages_status_check CHECK (${oneOf('status', HL7_MESSAGE_STATUSES)}),
  attempts integer NOT NULL DEFAULT 0,
  last_attempt_at timestamptz,
  ack_code text,
  ack_text text,
  acknowledged_at timestamptz,
  created_by_user_id bigint REFERENCES users (id),
  ${TIMESTAMPS}
);
CREATE INDEX hl7_messages_account_idx ON hl7_messages (account_id, id DESC);`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE hl7_messages; DROP TABLE hl7_interfaces;');
};
