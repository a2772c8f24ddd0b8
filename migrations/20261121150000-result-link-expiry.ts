/** A patient's result link works for a limited time (RESULT_LINK_VALID_DAYS); a provider re-sends a fresh one after that. */
import { RESULT_LINK_VALID_DAYS } from '@platform/domain';
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE patient_result_links ADD COLUMN expires_at timestamptz;
UPDATE patient_result_links SET expires_at = created_at + interval '${RESULT_LINK_VALID_DAYS} days';
ALTER TABLE patient_result_links ALTER COLUMN expires_at SET NOT NULL;
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('ALTER TABLE patient_result_links DROP COLUMN expires_at;');
};
