/**
 * One typed map from job name to payload: a producer cannot enqueue what the worker does not
 * expect. Every job goes through the outbox (api/src/jobs) and is run by worker/src/processors.
 */
import Joi from 'joi';

export const QUEUE_NAME = 'platform';

export interface JobPayloads {
  'send-email': { emailId: number };
}
export type JobName = keyof JobPayloads;
export const JOB_NAMES = ['send-email'] as const satisfies readonly JobName[];

export const JOB_PAYLOAD_SCHEMAS: { [K in JobName]: Joi.ObjectSchema<JobPayloads[K]> } = {
  'send-email': Joi.object({ emailId: Joi.number().integer().positive().required() }),
};

/** Retry policy of every job: exponential backoff; a job is Failed only after the last attempt. */
export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_MS = 1000;
