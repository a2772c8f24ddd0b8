/**
 * The patient's preferred language ('en' or 'es', from the domain's LANGUAGES): set when the
 * patient orders, or switches language on their result page; the patient's emails use it.
 */
import { DEFAULT_LANGUAGE, LANGUAGES } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { literal, oneOf } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
ALTER TABLE patients
  ADD COLUMN preferred_language text NOT NULL DEFAULT ${literal(DEFAULT_LANGUAGE)}
    CONSTRAINT patients_preferred_language_check CHECK (${oneOf('preferred_language', LANGUAGES)});`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('ALTER TABLE patients DROP COLUMN preferred_language;');
};
