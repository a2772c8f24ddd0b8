/** What the job monitor of the admin portal answers, as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { JOB_STATUSES } from './jobs';

/** GET admin/jobs/summary */
export const JobSummary = s.object({
  /** BullMQ's own counts on the queue. */
  queue: s.object({ waiting: s.integer, active: s.integer, delayed: s.integer, failed: s.integer, completed: s.integer }),
  /** The job rows by status. */
  rows: s.record(JOB_STATUSES, s.integer),
});
export type JobSummary = s.Infer<typeof JobSummary>;

/** GET admin/jobs (rows). */
export const JobRow = s.object({
  id: s.integer,
  name: s.string,
  status: s.oneOf(JOB_STATUSES),
  progress: s.number,
  attempts: s.integer,
  error: s.nullable(s.string),
  createdAt: s.string,
  finishedAt: s.nullable(s.string),
});
export type JobRow = s.Infer<typeof JobRow>;

/** POST admin/jobs/{id}/retry and admin/jobs/retry-failed. */
export const JobsRetried = s.object({ retried: s.integer });
export type JobsRetried = s.Infer<typeof JobsRetried>;
