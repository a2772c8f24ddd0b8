import type { WebhookDeliveryStatus, WebhookEventType } from './webhooks';

/** What the API clients page shows of a client (never a secret after it was first shown). */
export interface ApiClientView {
  clientId: string;
  name: string;
  webhookUrl: string | null;
  createdAt: string;
  /** Who created it: "First Last", or null when that user is gone. */
  createdBy: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The one answer that carries the secrets: shown once, stored only hashed (client) or for signing (webhook). */
export interface CreatedApiClient {
  clientId: string;
  clientSecret: string;
  /** `whsec_<base64>` (Standard Webhooks), present when a webhook URL was given. */
  webhookSecret: string | null;
  client: ApiClientView;
}

/** One notice to a client's webhook and how its delivery went (the client's delivery log). */
export interface WebhookDeliveryView {
  id: number;
  /** The `webhook-id` header: the same on every attempt and redelivery, so a receiver can recognise a replay. */
  messageId: string;
  type: WebhookEventType;
  sample: string;
  status: WebhookDeliveryStatus;
  createdAt: string;
  attempts: number;
  lastAttemptAt: string | null;
  /** The receiver's HTTP status of the last attempt (null: no answer). */
  lastStatusCode: number | null;
  lastResponseMs: number | null;
  lastError: string | null;
  deliveredAt: string | null;
}
