export { createJobQueue, DEFAULT_JOB_OPTIONS } from './queue';
export { createOutboxRelay, enqueueJob, type OutboxRelay, type QueuedJobData, type EnqueueOptions } from './outbox';
