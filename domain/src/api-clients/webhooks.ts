/**
 * Result notices to an API client's webhook URL (Standard Webhooks): what is told, how long it is
 * retried, and what the delivery log says.
 */
import { valuesOf } from '../shared/values';

export const WebhookEventType = { ResultReleased: 'result.released', ResultCorrected: 'result.corrected', SampleRejected: 'sample.rejected' } as const;
export type WebhookEventType = (typeof WebhookEventType)[keyof typeof WebhookEventType];
export const WEBHOOK_EVENT_TYPES = valuesOf(WebhookEventType);

/** The body POSTed: Standard Webhooks' `{ type, timestamp, data }`, naming the result and the sample, never their content. */
export interface WebhookBody {
  type: WebhookEventType;
  timestamp: string;
  data: { diagnosticReport: string; sample: string };
}

export const WebhookDeliveryStatus = { Pending: 'Pending', Delivered: 'Delivered', Failed: 'Failed' } as const;
export type WebhookDeliveryStatus = (typeof WebhookDeliveryStatus)[keyof typeof WebhookDeliveryStatus];
export const WEBHOOK_DELIVERY_STATUSES = valuesOf(WebhookDeliveryStatus);

/** A receiver has this long to answer 2xx; a slower one is a failed attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/**
 * Attempts of one delivery, with exponential back-off from the base delay (WEBHOOK_RETRY_BASE_MS,
 * 45 s): the twelfth and last try comes about 25.6 hours after the first (45 s × (2¹¹ − 1)), so a
 * receiver down for a day still gets every notice.
 */
export const WEBHOOK_ATTEMPTS = 12;
export const DEFAULT_WEBHOOK_RETRY_BASE_MS = 45_000;
/** Deliveries a client's log shows, newest first. */
export const WEBHOOK_LOG_SIZE = 50;
