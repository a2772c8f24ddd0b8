/**
 * Intake that checks the specimen (issue 30, item 2; docs/intake.md): the specimen's condition
 * recorded at intake (one of the domain's conditions), the technician's note on it, and who
 * confirmed that the tube's name and date of birth match the requisition, and when. The
 * collection time already has its column (samples.collected_at).
 */
import { SPECIMEN_CONDITIONS } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE samples
  ADD COLUMN condition text CONSTRAINT samples_condition_check CHECK (${oneOf('condition', SPECIMEN_CONDITIONS)}),
  ADD COLUMN condition_note text,
  ADD COLUMN identity_confirmed_by_user_id bigint REFERENCES users (id),
  ADD COLUMN identity_confirmed_at timestamptz,
  ADD CONSTRAINT samples_identity_confirmed_check CHECK ((identity_confirmed_by_user_id IS NULL) = (identity_confirmed_at IS NULL));
`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE samples
  DROP CONSTRAINT samples_identity_confirmed_check,
  DROP COLUMN identity_confirmed_at,
  DROP COLUMN identity_confirmed_by_user_id,
  DROP COLUMN condition_note,
  DROP COLUMN condition;
`);
};
