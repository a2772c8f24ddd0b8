/**
 * Financial assistance is applied only to the person it was granted to (issue 24, hole 2): each
 * grant keeps the hash of an assistance code emailed to the patient, and payment asks for it.
 * Records made before have no code and can no longer be used at payment: the admin grants again,
 * which emails a code. The hash is unique: one code, one record.
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE financial_assistance_records ADD COLUMN code_hash text;
CREATE UNIQUE INDEX financial_assistance_records_code_hash_key ON financial_assistance_records (code_hash) WHERE code_hash IS NOT NULL;`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DROP INDEX financial_assistance_records_code_hash_key;
ALTER TABLE financial_assistance_records DROP COLUMN code_hash;`);
};
