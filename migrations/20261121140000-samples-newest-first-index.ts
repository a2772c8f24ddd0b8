/**
 * The clinic's result lists read an account's samples newest first (created_at DESC, id DESC) and
 * filter by status: this index serves their first pages without sorting the account's samples.
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query('CREATE INDEX samples_account_newest_idx ON samples (account_id, created_at DESC, id DESC);');
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP INDEX samples_account_newest_idx;');
};
