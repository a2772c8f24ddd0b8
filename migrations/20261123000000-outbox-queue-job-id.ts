/**
 * Each outbox row carries the BullMQ job id it is sent with: random, so a recreated or restored
 * database never hands Redis an id it already holds for a finished job (which BullMQ would ignore).
 */
import type { Migration } from '../db/src/migrator';

export const up: Migration = async ({ context: sequelize }) => {
  await sequelize.query('ALTER TABLE outbox ADD COLUMN queue_job_id uuid NOT NULL DEFAULT gen_random_uuid();');
};

export const down: Migration = async ({ context: sequelize }) => {
  await sequelize.query('ALTER TABLE outbox DROP COLUMN queue_job_id;');
};
