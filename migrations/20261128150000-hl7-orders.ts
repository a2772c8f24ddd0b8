/**
 * Orders received from an EHR as HL7 ORM^O01 (issue 28, item 3) join the HL7 message log: a
 * direction (out: results sent; in: orders received), the order an inbound message created, and a
 * control id unique per account and direction (an EHR's ids are its own: a resent one is answered
 * as the first and creates nothing).
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE hl7_messages ADD COLUMN direction text NOT NULL DEFAULT 'out' CONSTRAINT hl7_messages_direction_check CHECK (direction IN ('out', 'in'));
ALTER TABLE hl7_messages ADD COLUMN order_id bigint REFERENCES orders (id);
ALTER TABLE hl7_messages DROP CONSTRAINT hl7_messages_control_id_key;
ALTER TABLE hl7_messages ADD CONSTRAINT hl7_messages_control_id_key UNIQUE (account_id, direction, control_id);`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE hl7_messages DROP CONSTRAINT hl7_messages_control_id_key;
ALTER TABLE hl7_messages ADD CONSTRAINT hl7_messages_control_id_key UNIQUE (control_id);
ALTER TABLE hl7_messages DROP COLUMN order_id;
ALTER TABLE hl7_messages DROP COLUMN direction;`);
};
