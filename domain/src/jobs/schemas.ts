/** The schema of every job's payload (checked before a job is enqueued and when it runs), and the job monitor's query. */
import Joi from 'joi';
import { LAB_IMPORT_KINDS, LAB_IMPORT_MODES } from '../imports/imports';
import { DOCUMENT_TYPES } from '../shared/files';
import { auditFiltersSchema } from '../audit-trail/schemas';
import { paging } from '../shared/schema-fields';
import { EMAIL_BATCH_MAX, JOB_STATUSES, type JobName, type JobPayloads, type JobStatus } from './jobs';

const STRICT_KEYS = { allowUnknown: false } as const;

const id = () => Joi.number().integer().positive();

export const JOB_PAYLOAD_SCHEMAS: { [K in JobName]: Joi.ObjectSchema<JobPayloads[K]> } = {
  'send-email': Joi.object({ emailId: id().required() }),
  'send-email-batch': Joi.object({ emailIds: Joi.array().items(id()).min(1).max(EMAIL_BATCH_MAX).unique().required() }),
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
  'deliver-webhook': Joi.object({ deliveryId: id().required() }),
  'send-hl7': Joi.object({ messageId: id().required() }),
  'audit-trail-pdf': Joi.object({ filters: auditFiltersSchema.required(), accountId: id().allow(null).required(), userId: id().required() }),
  'send-sms': Joi.object({ textMessageId: id().required() }),
};

export interface JobsQuery { status: JobStatus | null; name: string | null; page: number; pageSize: number }
/** GET admin/jobs?status=&name= */
export const jobsQuery = Joi.object<JobsQuery>({
  status: Joi.string().valid(...JOB_STATUSES).allow('', null).empty(['', null]).default(null).label('Status'),
  name: Joi.string().trim().max(60).allow('', null).empty(['', null]).default(null).label('Job'),
  ...paging,
}).options(STRICT_KEYS).label('Query');
