export { createJobQueue, DEFAULT_JOB_OPTIONS, jobOptionsOf } from './queue';
export { createOutboxRelay, enqueueJob, enqueueJobs, requeueJobRow, type OutboxRelay, type OutboxRow, type QueuedJobData, type EnqueueOptions } from './outbox';
export { jobSummary, listJobs, retryFailedJobs, retryJob } from './monitor';
