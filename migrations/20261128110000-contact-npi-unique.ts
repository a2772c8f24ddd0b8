/**
 * One NPI, one person (issue 25, item 5): a second provider contact with an NPI another already has
 * is refused (the API answers 409 naming it). Contacts that already share an NPI stop the migration
 * with their ids, for the lab to correct, rather than being changed here.
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`
DO $$
DECLARE shared text;
BEGIN
  SELECT string_agg(format('NPI %s: contacts %s', npi, ids), '; ') INTO shared
    FROM (SELECT npi, string_agg(id::text, ', ' ORDER BY id) AS ids FROM contacts WHERE npi IS NOT NULL GROUP BY npi HAVING count(*) > 1) d;
  IF shared IS NOT NULL THEN
    RAISE EXCEPTION 'Provider contacts share an NPI; correct them before this migration: %', shared;
  END IF;
END $$;
CREATE UNIQUE INDEX contacts_npi_key ON contacts (npi) WHERE npi IS NOT NULL;`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP INDEX contacts_npi_key;');
};
