/**
 * One typed map from job name to payload: a producer cannot enqueue what the worker does not
 * expect. Every job goes through the outbox (api/src/jobs) and is run by worker/src/processors.
 */
import Joi from 'joi';
import { DOCUMENT_TYPES, type DocumentType } from './enums';

export const QUEUE_NAME = 'platform';

/** What a lab import file holds, and whether the run only checks it or also writes it. */
/** Result files: one result value per sample's test (a risk level, a KRAS genotype). */
export const RESULT_IMPORT_KINDS = ['cancer-toxicity', 'kras'] as const;
export type ResultImportKind = (typeof RESULT_IMPORT_KINDS)[number];
/** Every kind: the result files and DNA extraction runs (measurements per sample, dna-extraction.ts). */
export const LAB_IMPORT_KINDS = [...RESULT_IMPORT_KINDS, 'dna-extraction'] as const;
export type LabImportKind = (typeof LAB_IMPORT_KINDS)[number];
export const LAB_IMPORT_MODES = ['dry-run', 'commit'] as const;
export type LabImportMode = (typeof LAB_IMPORT_MODES)[number];

export interface JobPayloads {
  'send-email': { emailId: number };
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
}
export type JobName = keyof JobPayloads;
export const JOB_NAMES = ['send-email', 'render-pdf', 'notify-result', 'lab-import', 'email-campaign', 'refund-payment', 'cancel-payment-intent'] as const satisfies readonly JobName[];

const id = () => Joi.number().integer().positive();

export const JOB_PAYLOAD_SCHEMAS: { [K in JobName]: Joi.ObjectSchema<JobPayloads[K]> } = {
  'send-email': Joi.object({ emailId: id().required() }),
  'render-pdf': Joi.object({
    sampleId: id().required(),
    documentType: Joi.string().valid(...DOCUMENT_TYPES).required(),
    testResultId: id().when('documentType', { is: 'lab_report', then: Joi.required(), otherwise: Joi.forbidden() }),
  }),
  'notify-result': Joi.object({ testResultId: id().required() }),
  'lab-import': Joi.object({
    fileId: id().required(),
    kind: Joi.string().valid(...LAB_IMPORT_KINDS).required(),
    mode: Joi.string().valid(...LAB_IMPORT_MODES).required(),
    userId: id().required(),
  }),
  'email-campaign': Joi.object({ campaignId: id().required() }),
  'refund-payment': Joi.object({ orderId: id().required() }),
  'cancel-payment-intent': Joi.object({ orderId: id().required() }),
};

/** Retry policy of every job: exponential backoff; a job is Failed only after the last attempt. */
export const JOB_ATTEMPTS = 5;
export const JOB_BACKOFF_MS = 1000;
