/**
 * The job row's writes at the start and the end of a run, one statement for every job that starts
 * (or completes) at the same moment instead of one each: with many jobs in flight the worker's
 * PostgreSQL round trips, not the jobs, were its limit. Each caller still waits for its own row to
 * be written (BullMQ counts a job done only after the row says Completed).
 */
import { QueryTypes } from 'sequelize';
import type { Db } from '@platform/db';
import { JobStatus } from '@platform/domain';

/** Rows one statement writes at most. */
const ROWS_PER_STATEMENT = 500;

export interface JobRowWriter {
  /** The run's attempt number, written before the processor starts. */
  started(jobRowId: number, attempt: number): Promise<void>;
  /** Completed with the processor's result (progress 100, no error, finished now). */
  completed(jobRowId: number, result: object): Promise<void>;
}

/**
 * Collects what callers hand in during one turn of the event loop (and while the previous
 * statement runs) and writes it with one statement; each caller's promise settles with it.
 */
function batched<T>(write: (items: T[]) => Promise<unknown>): (item: T) => Promise<void> {
  let waiting: Array<{ item: T; resolve: () => void; reject: (err: unknown) => void }> = [];
  let inFlight = false;
  const flushSoon = () => {
    if (inFlight || !waiting.length) return;
    inFlight = true;
    setImmediate(() => {
      const batch = waiting.slice(0, ROWS_PER_STATEMENT);
      waiting = waiting.slice(batch.length);
      write(batch.map((w) => w.item)).then(
        () => batch.forEach((w) => w.resolve()),
        (err) => batch.forEach((w) => w.reject(err)),
      ).finally(() => {
        inFlight = false;
        flushSoon();
      });
    });
  };
  return (item) => new Promise<void>((resolve, reject) => {
    waiting.push({ item, resolve, reject });
    flushSoon();
  });
}

export function createJobRowWriter(db: Db): JobRowWriter {
  const started = batched<{ id: number; attempt: number }>((rows) => db.sequelize.query(
    `UPDATE jobs AS j SET attempts = v.attempt, updated_at = now()
       FROM unnest($1::bigint[], $2::int[]) AS v(id, attempt) WHERE j.id = v.id`,
    { bind: [rows.map((r) => r.id), rows.map((r) => r.attempt)], type: QueryTypes.UPDATE },
  ));
  const completed = batched<{ id: number; result: object }>((rows) => db.sequelize.query(
    `UPDATE jobs AS j SET status = $3, progress = 100, result = v.result, error = NULL, finished_at = now(), updated_at = now()
       FROM unnest($1::bigint[], $2::jsonb[]) AS v(id, result) WHERE j.id = v.id`,
    { bind: [rows.map((r) => r.id), rows.map((r) => JSON.stringify(r.result)), JobStatus.Completed], type: QueryTypes.UPDATE },
  ));
  return {
    started: (id, attempt) => started({ id, attempt }),
    completed: (id, result) => completed({ id, result }),
  };
}
