/**
 * What the lists need at a million samples (issue 13):
 *  - samples.resulted_at: when a sample first reached a final status (Resulted or Rejected), kept
 *    by a trigger on its status events (whatever writes them: moveSample, the import's bulk insert),
 *    so the Completed list sorts by it through an index instead of grouping every status event of
 *    the database on each request;
 *  - the patient-ordered list reads an account's orders by origin;
 *  - patient search matches words anywhere in first name, last name or email (ILIKE '%word%'):
 *    trigram indexes serve that across a million patients, where PostgreSQL has pg_trgm (a
 *    contrib module: a server without it keeps the search working, unindexed).
 */
import type { Migration } from '../db/src/migrator';
import { SampleStatus } from '@platform/domain';
import { literal } from '../db/src/sql';

const FINAL = [SampleStatus.Resulted, SampleStatus.Rejected].map(literal).join(', ');

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query('ALTER TABLE samples ADD COLUMN resulted_at timestamptz;');
  await sequelize.query(`
    UPDATE samples s SET resulted_at = e.first
      FROM (SELECT sample_id, min(created_at) AS first FROM sample_status_events WHERE to_status IN (${FINAL}) GROUP BY sample_id) e
     WHERE e.sample_id = s.id;`);
  await sequelize.query(`
    CREATE FUNCTION samples_keep_resulted_at() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE samples SET resulted_at = NEW.created_at
       WHERE id = NEW.sample_id AND (resulted_at IS NULL OR resulted_at > NEW.created_at);
      RETURN NULL;
    END $$;`);
  await sequelize.query(`
    CREATE TRIGGER sample_status_events_resulted_at AFTER INSERT ON sample_status_events
      FOR EACH ROW WHEN (NEW.to_status IN (${FINAL})) EXECUTE FUNCTION samples_keep_resulted_at();`);
  await sequelize.query('CREATE INDEX samples_account_resulted_idx ON samples (account_id, resulted_at DESC NULLS LAST, id DESC);');
  await sequelize.query('CREATE INDEX orders_account_origin_idx ON orders (account_id, origin, id);');
  await sequelize.query(`
    DO $$
    BEGIN
      CREATE EXTENSION IF NOT EXISTS pg_trgm;
    EXCEPTION WHEN OTHERS THEN
      RAISE NOTICE 'pg_trgm is not available: patient search stays unindexed';
    END $$;`);
  await sequelize.query(`
    DO $$
    BEGIN
      IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm') THEN
        CREATE INDEX patients_first_name_trgm_idx ON patients USING gin (first_name gin_trgm_ops);
        CREATE INDEX patients_last_name_trgm_idx ON patients USING gin (last_name gin_trgm_ops);
        CREATE INDEX patients_email_trgm_idx ON patients USING gin (email gin_trgm_ops);
      END IF;
    END $$;`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP INDEX IF EXISTS patients_email_trgm_idx;');
  await sequelize.query('DROP INDEX IF EXISTS patients_last_name_trgm_idx;');
  await sequelize.query('DROP INDEX IF EXISTS patients_first_name_trgm_idx;');
  await sequelize.query('DROP EXTENSION IF EXISTS pg_trgm;');
  await sequelize.query('DROP INDEX orders_account_origin_idx;');
  await sequelize.query('DROP INDEX samples_account_resulted_idx;');
  await sequelize.query('DROP TRIGGER sample_status_events_resulted_at ON sample_status_events;');
  await sequelize.query('DROP FUNCTION samples_keep_resulted_at();');
  await sequelize.query('ALTER TABLE samples DROP COLUMN resulted_at;');
};
