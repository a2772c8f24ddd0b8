/**
 * What the FHIR API's searches (issue 27) need beyond the indexes the clinic lists have:
 *  - Patient searches page through an account's named patients by id (keyset paging, stable under
 *    inserts): patients_account_fhir_idx serves each page without sorting the account's patients;
 *  - an EHR polls for the results released since its last poll (`_lastUpdated=gt…`, `issued=gt…`):
 *    test_results_released_at_idx finds the few released since then, where walking the account's
 *    samples would read all of them to find none.
 * Sample-derived pages walk samples_account_newest_idx, which exists.
 */
import { TestResultStatus } from '@platform/domain';
import type { Migration } from '../db/src/migrator';
import { literal } from '../db/src/sql';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query('CREATE INDEX patients_account_fhir_idx ON patients (account_id, id) WHERE study_id IS NULL;');
  await sequelize.query(`CREATE INDEX test_results_released_at_idx ON test_results (reviewed_at) WHERE status = ${literal(TestResultStatus.Released)};`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP INDEX test_results_released_at_idx;');
  await sequelize.query('DROP INDEX patients_account_fhir_idx;');
};
