/**
 * The FHIR API's Patient search (issue 27) pages through an account's named patients by id (keyset
 * paging, stable under inserts): this index serves each page without sorting the account's patients.
 * Sample-derived resources page through samples_account_newest_idx, which exists.
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query('CREATE INDEX patients_account_fhir_idx ON patients (account_id, id) WHERE study_id IS NULL;');
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP INDEX patients_account_fhir_idx;');
};
