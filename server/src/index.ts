/**
 * The application layer both processes share (no HTTP here): configuration, the composition
 * root, errors, jobs, email, audit, stored files, sample status changes, released results and the
 * reader of lab import files (CSV / XLSX).
 * Password hashing is its own entry (`@platform/server/auth/passwords`): the worker never loads argon2.
 */
export { DEV_LAB, DEV_STRIPE, loadConfig, type Config, type LabIdentity, type StripeConfig } from './config';
export { createServerContext, closeServerContext, createLogger, createRedis, type ServerContext } from './context';
export * from './errors';
export {
  createJobQueue, createOutboxRelay, DEFAULT_JOB_OPTIONS, enqueueJob, enqueueJobs, jobSummary, listJobs, requeueJobRow, retryFailedJobs, retryJob,
  type EnqueueOptions, type OutboxRelay, type OutboxRow, type QueuedJobData,
} from './jobs';
export { queueEmail, type OutgoingEmail } from './email/queue-email';
export { createMailer, type Mailer } from './email/mailer';
export * from './email/templates';
export {
  audienceMembers, campaignProgress, campaignQueuedCount, campaignRecipients, countAudience, listCampaigns, previewCampaign, queueCampaignBatch,
  startCampaign, type AudienceMember, type CampaignBatch, type PageRequest,
} from './email/campaigns';
export { recordAudit, auditInsertSql, auditActor, callerAs, systemCaller, type AuditEntry, type Caller } from './audit';
export { storeFile, readFileContent, type NewFile } from './files';
export { readSheet, type ColumnIndex, type ReadSheetOptions, type Sheet, type SheetColumns, type SheetRow } from './sheets/read-sheet';
export { moveSample, type StatusChange } from './samples/move-sample';
export { noteOnTimeline } from './samples/timeline-note';
export * from './results/released-results';
export * from './results/result-links';
export * from './results/result-contacts';
export * from './results/lab-report-file';
export * from './results/lab-report-data';
export { signShippingPayload, verifyShippingSignature, type SignatureCheck } from './webhooks/shipping-signature';
export * from './follow-ups/follow-ups';
export { stripeClient, signPaymentEvent, verifyPaymentEvent, type StripeClient, type StripeEvent, type StripePaymentIntent } from './payments/stripe-client';
export { movePayment } from './payments/payment-status';
export * from './payments/cancelled-payments';
export * from './payments/unpaid-orders';
