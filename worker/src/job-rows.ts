/**
 * The job row's writes at the start and the end of a run, one statement for every job that starts
 * (or completes) at the same moment instead of one each: with many jobs in flight the worker's
 * PostgreSQL round trips, not the jobs, were its limit. Each caller still waits for its own row to
 * be written (BullMQ counts a job done only after the row says Completed).
 */
import { QueryTypes } from 'sequelize';
import type { Db } from '@platform/db';
import { JobStatus } from '@platform/domain';
import { batched } from '@platform/server';

export interface JobRowWriter {
  /** The run's attempt number (written while the processor starts; awaited before the outcome is written). */
  started(jobRowId: number, attempt: number): Promise<void>;
  /** Completed with the processor's result (progress 100, no error, finished now). */
  completed(jobRowId: number, result: object): Promise<void>;
}

export function createJobRowWriter(db: Db): JobRowWriter {
  const started = batched<{ id: number; attempt: number }>((rows) => db.sequelize.query(
    `UPDATE jobs AS j SET attempts = v.attempt, updated_at = now()
       FROM unnest($1::bigint[], $2::int[]) AS v(id, attempt) WHERE j.id = v.id`,
    { bind: [rows.map((r) => r.id), rows.map((r) => r.attempt)], type: QueryTypes.UPDATE },
  ).then(() => undefined));
  const completed = batched<{ id: number; result: object }>((rows) => db.sequelize.query(
    `UPDATE jobs AS j SET status = $3, progress = 100, result = v.result, error = NULL, finished_at = now(), updated_at = now()
       FROM unnest($1::bigint[], $2::jsonb[]) AS v(id, result) WHERE j.id = v.id`,
    { bind: [rows.map((r) => r.id), rows.map((r) => JSON.stringify(r.result)), JobStatus.Completed], type: QueryTypes.UPDATE },
  ).then(() => undefined));
  return {
    started: (id, attempt) => started({ id, attempt }),
    completed: (id, result) => completed({ id, result }),
  };
}
