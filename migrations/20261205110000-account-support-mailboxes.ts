/**
 * Support mailboxes per test line (SPEC §9; issue 31, part 2): for an account, where its questions
 * about one test line go (the emails about a test of that line name it and reply to it). A line
 * with no row uses the lab's own address (LAB_EMAIL).
 */
import { TEST_LINES } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { oneOf, TIMESTAMPS } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
CREATE TABLE account_support_mailboxes (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  test_line text NOT NULL CONSTRAINT account_support_mailboxes_test_line_check CHECK (${oneOf('test_line', TEST_LINES)}),
  email text NOT NULL CONSTRAINT account_support_mailboxes_email_check CHECK (email ~ '^[^@[:space:]]+@[^@[:space:]]+$'),
  ${TIMESTAMPS},
  CONSTRAINT account_support_mailboxes_account_id_test_line_key UNIQUE (account_id, test_line)
);`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP TABLE account_support_mailboxes;');
};
