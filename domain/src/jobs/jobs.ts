/**
 * One typed map from job name to payload: a producer cannot enqueue what the worker does not
 * expect. Every job goes through the outbox (server/src/jobs) and is run by worker/src/processors.
 * The payloads' schemas are in schemas.ts.
 */
import type { LabImportKind, LabImportMode } from '../imports/imports';
import type { DocumentType } from '../shared/files';
import { valuesOf } from '../shared/values';
import type { AuditTrailFilters } from '../audit-trail/audit-trail';

export const QUEUE_NAME = 'platform';

export interface JobPayloads {
  'send-email': { emailId: number };
  /**
   * Sends a bulk campaign's batch of logged emails (the ones its transaction wrote), each once: one
   * job for the batch instead of one per email. At most EMAIL_BATCH_MAX.
   */
  'send-email-batch': { emailIds: number[] };
  /** Renders a sample's document; for a lab report, the released result version it reports. */
  'render-pdf': { sampleId: number; documentType: DocumentType; testResultId?: number };
  /** Tells the provider and the patient that a released result is ready. */
  'notify-result': { testResultId: number };
  /** Validates (dry run) or writes (commit) an uploaded result file. */
  'lab-import': { fileId: number; kind: LabImportKind; mode: LabImportMode; userId: number };
  /** Writes and queues one email per recipient of a bulk campaign (resumable: whoever has one is skipped). */
  'email-campaign': { campaignId: number };
  /** Refunds a cancelled patient order's card payment through Stripe (idempotency key refund-<orderId>). */
  'refund-payment': { orderId: number };
  /** Cancels an unpaid cancelled patient order's open payment intent at Stripe (idempotency key cancel-intent-<orderId>). */
  'cancel-payment-intent': { orderId: number };
  /** POSTs one signed notice to an API client's webhook URL (retried for a day: WEBHOOK_ATTEMPTS). */
  'deliver-webhook': { deliveryId: number };
  /** Sends one HL7 v2 message to an account's EHR over MLLP and waits for its ACK (retried for a day: HL7_ATTEMPTS). */
  'send-hl7': { messageId: number };
  /** Renders a PDF of the audit trail, filtered, for the user who asked (within one account's events, or the lab's). */
  'audit-trail-pdf': { filters: AuditTrailFilters; accountId: number | null; userId: number };
  /** Sends one logged text message to a patient through Twilio (skipped, with why, when the number opted out or consent was withdrawn). */
  'send-sms': { textMessageId: number };
}
export type JobName = keyof JobPayloads;

/** The most emails one send-email-batch job sends. */
export const EMAIL_BATCH_MAX = 500;

/** Retry policy of every job: exponential backoff; a job is Failed only after the last attempt. */
export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_MS = 1000;

export const JobStatus = { Pending: 'Pending', Completed: 'Completed', Failed: 'Failed' } as const;
export type JobStatus = (typeof JobStatus)[keyof typeof JobStatus];
export const JOB_STATUSES = valuesOf(JobStatus);

export const OutboxStatus = { Pending: 'pending', Enqueued: 'enqueued' } as const;
export type OutboxStatus = (typeof OutboxStatus)[keyof typeof OutboxStatus];
export const OUTBOX_STATUSES = valuesOf(OutboxStatus);
