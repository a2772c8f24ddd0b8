/**
 * The outbox sweeper's second look: jobs still Pending whose latest outbox row was sent but that
 * Redis no longer holds (Redis lost or flushed) are sent again. Two indexes keep that look cheap
 * however long the outbox grows: the Pending jobs alone, and an outbox row by the job row it carries.
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query(`CREATE INDEX jobs_pending_idx ON jobs (id) WHERE status = 'Pending';`);
  await sequelize.query(`CREATE INDEX outbox_job_row_idx ON outbox (((payload->>'jobRowId')::bigint), id);`);
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('DROP INDEX outbox_job_row_idx;');
  await sequelize.query('DROP INDEX jobs_pending_idx;');
};
