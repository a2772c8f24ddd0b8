/**
 * The patient search (issue 13): one trigram index over a patient's searchable words (first name,
 * last name and email as one text, patientSearchText) in place of one index per field, so a
 * search of several words is one index scan (the three per-field indexes are no longer read by
 * anything and only cost every patient write). Where PostgreSQL has no pg_trgm (see 20261123160000)
 * the search keeps working, unindexed.
 */
import type { Migration } from '../db/src/migrator';
import { patientSearchText } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DO $$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        CREATE INDEX patients_search_words_trgm_idx ON patients USING gin (${patientSearchText()} gin_trgm_ops);
        DROP INDEX patients_first_name_trgm_idx;
        DROP INDEX patients_last_name_trgm_idx;
        DROP INDEX patients_email_trgm_idx;
      END IF;
    END $$;`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
    DO $$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        CREATE INDEX patients_first_name_trgm_idx ON patients USING gin (first_name gin_trgm_ops);
        CREATE INDEX patients_last_name_trgm_idx ON patients USING gin (last_name gin_trgm_ops);
        CREATE INDEX patients_email_trgm_idx ON patients USING gin (email gin_trgm_ops);
        DROP INDEX patients_search_words_trgm_idx;
      END IF;
    END $$;`);
};
