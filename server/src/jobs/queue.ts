import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_ATTEMPTS, JOB_BACKOFF_MS, QUEUE_NAME, WEBHOOK_ATTEMPTS } from '@platform/domain';
import type { Config } from '../config';

/** Retries with exponential backoff; finished jobs are kept a while for inspection, then dropped. */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: JOB_ATTEMPTS,
  backoff: { type: 'exponential', delay: JOB_BACKOFF_MS },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 5000 },
};

/**
 * A job name's own retry options where they differ from the queue's defaults: a result webhook is
 * tried WEBHOOK_ATTEMPTS times with back-off from WEBHOOK_RETRY_BASE_MS, an HL7 message HL7_ATTEMPTS
 * times from HL7_RETRY_BASE_MS (about a day in all, each, at the defaults).
 */
export function jobOptionsOf(config: Pick<Config, 'webhookRetryBaseMs' | 'hl7RetryBaseMs' | 'hl7Attempts'>): (jobName: string) => JobsOptions | undefined {
  const own: Record<string, JobsOptions> = {
    'deliver-webhook': { attempts: WEBHOOK_ATTEMPTS, backoff: { type: 'exponential', delay: config.webhookRetryBaseMs } },
    'send-hl7': { attempts: config.hl7Attempts, backoff: { type: 'exponential', delay: config.hl7RetryBaseMs } },
  };
  return (jobName) => own[jobName];
}

export function createJobQueue(connection: Redis, prefix: string): Queue {
  return new Queue(QUEUE_NAME, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
}
