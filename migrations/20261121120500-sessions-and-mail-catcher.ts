/**
 * Infrastructure tables: express-session's store (connect-pg-simple's table.sql, minus its no-op
 * `WITH (OIDS=FALSE)`) and the dev/test SMTP catcher's store.
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE "session" (
  "sid" varchar NOT NULL COLLATE "default",
  "sess" json NOT NULL,
  "expire" timestamp(6) NOT NULL
);
ALTER TABLE "session" ADD CONSTRAINT "session_pkey" PRIMARY KEY ("sid") NOT DEFERRABLE INITIALLY IMMEDIATE;
CREATE INDEX "IDX_session_expire" ON "session" ("expire");

CREATE TABLE caught_mail (
  id bigserial PRIMARY KEY,
  message_id text,
  from_address text,
  to_addresses text[] NOT NULL DEFAULT '{}',
  subject text,
  text_body text,
  html_body text,
  raw text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX caught_mail_received_at_idx ON caught_mail (received_at DESC);
CREATE INDEX caught_mail_message_id_idx ON caught_mail (message_id);
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP TABLE caught_mail;
DROP TABLE "session";
`);
};
