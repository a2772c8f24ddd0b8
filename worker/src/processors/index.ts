import type { JobName } from '@platform/domain';
import type { Processor } from './types';
import { sendEmail, sendEmailBatch } from './send-email';
import { renderPdf } from './render-pdf';
import { notifyResult } from './notify-result';
import { labImport } from './lab-import';
import { emailCampaign } from './email-campaign';
import { refundPayment } from './refund-payment';
import { cancelPaymentIntent } from './cancel-payment-intent';
import { deliverWebhook } from './deliver-webhook';
import { sendHl7 } from './send-hl7';
import { auditTrailPdf } from './audit-trail-pdf';
import { sendSms } from './send-sms';

export type ProcessorRegistry = { [N in JobName]: Processor<N> };

/** The processor registry: one entry per job name of domain/jobs.ts (a processor may carry an onFinalFailure hook). */
export const PROCESSORS: ProcessorRegistry = {
  'send-email': sendEmail,
  'send-email-batch': sendEmailBatch,
  'render-pdf': renderPdf,
  'notify-result': notifyResult,
  'lab-import': labImport,
  'email-campaign': emailCampaign,
  'refund-payment': refundPayment,
  'cancel-payment-intent': cancelPaymentIntent,
  'deliver-webhook': deliverWebhook,
  'send-hl7': sendHl7,
  'audit-trail-pdf': auditTrailPdf,
  'send-sms': sendSms,
};
