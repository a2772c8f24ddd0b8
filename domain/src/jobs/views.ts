/** What the job monitor of the admin portal answers, as JSON. Types only. */
import type { JobStatus } from './jobs';

/** GET admin/jobs/summary */
export interface JobSummary {
  /** BullMQ's own counts on the queue. */
  queue: { waiting: number; active: number; delayed: number; failed: number; completed: number };
  /** The job rows by status. */
  rows: Record<JobStatus, number>;
}

/** GET admin/jobs (rows). */
export interface JobRow {
  id: number;
  name: string;
  status: JobStatus;
  progress: number;
  attempts: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** POST admin/jobs/{id}/retry and admin/jobs/retry-failed. */
export interface JobsRetried {
  retried: number;
}
