/**
 * The application layer both processes share (no HTTP here): configuration, the composition
 * root, errors, jobs, email, audit, stored files, sample status changes, released results and the
 * reader of lab import files (CSV / XLSX).
 * Password hashing is its own entry (`@platform/server/auth/passwords`): the worker never loads argon2.
 */
export { DEV_LAB, DEV_LAB_TIME_ZONE, DEV_SMS, DEV_STRIPE, loadConfig, type Config, type LabIdentity, type SmsConfig, type StripeConfig } from './config';
export { createServerContext, closeServerContext, createLogger, createRedis, type ServerContext } from './context';
export * from './errors';
export { batched, batchedPerDb, onePerKey } from './batched';
export {
  createJobQueue, createOutboxRelay, DEFAULT_JOB_OPTIONS, enqueueJob, enqueueJobs, jobSummary, listJobs, requeueJobRow, retryFailedJobs, retryJob,
  type EnqueueOptions, type OutboxRelay, type OutboxRow, type QueuedJobData,
} from './jobs';
export { newEmailMessageId, queueEmail, type OutgoingEmail } from './email/queue-email';
export * from './sms';
export { redactTokens } from './email/link-tokens';
export { createMailer, type Mailer } from './email/mailer';
export * from './email/templates';
export {
  audienceMembers, campaignProgress, campaignQueuedCount, campaignRecipients, countAudience, listCampaigns, previewCampaign, queueCampaignBatch,
  startCampaign, type AudienceMember, type CampaignBatch, type PageRequest,
} from './email/campaigns';
export { recordAudit, auditInsertSql, auditActor, callerAs, systemCaller, type AuditEntry, type Caller, type AccountCaller, type UserCaller } from './audit';
export { storeFile, readFileContent, type NewFile } from './files';
export { readSheet, type ColumnIndex, type ReadSheetOptions, type Sheet, type SheetColumns, type SheetRow } from './imports/sheet';
export { moveSample, type StatusChange } from './samples/move-sample';
export { noteOnTimeline } from './samples/timeline-note';
export * from './results/released-results';
export * from './results/result-links';
export * from './results/result-contacts';
export * from './results/lab-report-file';
export * from './results/lab-report-data';
export { signShippingPayload, verifyShippingSignature, type SignatureCheck } from './webhooks/shipping-signature';
export * from './follow-ups/follow-ups';
export { stripeClient, signPaymentEvent, verifyPaymentEvent, type StripeEvent, type StripePaymentIntent } from './payments/stripe-client';
export { movePayment } from './payments/payment-status';
export * from './payments/cancelled-payments';
export * from './payments/unpaid-orders';
export * from './auth/tokens';
export * from './access/password-links';
export * from './paging';
export * from './answer-values';
export * from './throttle';
export * from './access/sign-in-throttles';
export * from './access/auth-cache';
export * from './api-clients/token-throttle';
export * from './access/account-invitations';
export * from './access/contact-rows';
export * from './access/memberships';
export * from './access/new-users';
export * from './access/providers';
export * from './access/scope';
export * from './accounts/account-addresses';
export * from './accounts/account-edits';
export * from './accounts/accounts';
export * from './accounts/support-mailboxes';
export * from './payments/insurance-plans';
export * from './access/lab-users';
export * from './email/email-log';
export * from './payments/financial-aid';
export * from './patients/patient-search';
export * from './orders/sample-details';
export * from './results/result-lists';
export * from './orders/orders';
export * from './orders/requisition';
export * from './orders/cancel-clinic-order';
export * from './diagnoses/icd10cm';
export * from './patients/patient-corrections';
export * from './shipments/shipments';
export * from './patients/clinic-patients';
export * from './patient-orders/invitations';
export * from './patient-orders/clinic-patient-orders';
export * from './follow-ups/follow-up-answers';
export * from './research/study-responses';
export * from './research/projects';
export * from './orders/research-orders';
export * from './samples/lims-samples';
export * from './samples/lims';
export * from './samples/storage-plates';
export * from './samples/storage-placements';
export * from './samples/storage-placement';
export * from './imports/storage-import';
export * from './imports/storage-sheet';
export * from './results/review-lists';
export * from './results/review-commands';
export * from './samples/review-rows';
export * from './imports/imports';
export * from './pcr/pcr';
export * from './samples/lab-samples';
export * from './samples/intake';
export * from './extractions/extractions';
export * from './patient-orders/moving-on';
export * from './patient-orders/patient-order-view';
export * from './patient-orders/patient-orders';
export * from './results/patient-result';
export * from './results/provider-result';
export * from './results/patient-release';
export * from './patient-orders/payment-webhook';
export * from './shipments/shipping-webhook';
export * from './shipments/shipping-labels';
export { DEV_SHIPPING_API_KEY, SHIPSTATION_API_URL, type ShippingConfig } from './config';
export * from './imports/result-sheet';
export * from './imports/check-rows';
export * from './imports/commit-rows';
export * from './imports/extraction-rows';
export * from './samples/move-samples';
export * from './imports/run-import';
export * from './api-clients/api-clients';
export * from './api-clients/client-credentials';
export * from './webhooks/result-webhooks';
export * from './fhir';
export * from './hl7';
export { receiveHl7Order } from './orders/hl7-orders';
export * from './audit-trail';
export * from './turnaround';
export * from './worklists';
export * from './labels';
export { runAsProcess, type RunningPart } from './process';
