import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_ATTEMPTS, JOB_BACKOFF_MS, QUEUE_NAME } from '@platform/domain';

/** Retries with exponential backoff; finished jobs are kept a while for inspection, then dropped. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: JOB_ATTEMPTS,
  backoff: { type: 'exponential', delay: JOB_BACKOFF_MS },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 5000 },
};

export function createJobQueue(connection: Redis, prefix: string): Queue {
  return new Queue(QUEUE_NAME, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
}
