/** What the API clients page is answered: answer shapes (shared/shapes.ts), each a type too. Never a secret after it was first shown. */
import * as s from '../shared/shapes';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENT_TYPES } from './webhooks';

/** GET …/api-clients (each), and what a revocation answers. */
export const ApiClientView = s.object({
  clientId: s.string,
  name: s.string,
  webhookUrl: s.nullable(s.string),
  createdAt: s.string,
  /** Who created it: "First Last", or null when that user is gone. */
  createdBy: s.nullable(s.string),
  lastUsedAt: s.nullable(s.string),
  revokedAt: s.nullable(s.string),
});
export type ApiClientView = s.Infer<typeof ApiClientView>;

/** POST …/api-clients: the one answer that carries the secrets (the client secret then kept only hashed, the webhook secret for signing). */
export const CreatedApiClient = s.object({
  clientId: s.string,
  clientSecret: s.string,
  /** `whsec_<base64>` (Standard Webhooks), present when a webhook URL was given. */
  webhookSecret: s.nullable(s.string),
  client: ApiClientView,
});
export type CreatedApiClient = s.Infer<typeof CreatedApiClient>;

/** GET …/api-clients/{clientId}/deliveries (each): one notice to a client's webhook and how its delivery went. */
export const WebhookDeliveryView = s.object({
  id: s.integer,
  /** The `webhook-id` header: the same on every attempt and redelivery, so a receiver can recognise a replay. */
  messageId: s.string,
  type: s.oneOf(WEBHOOK_EVENT_TYPES),
  sample: s.string,
  status: s.oneOf(WEBHOOK_DELIVERY_STATUSES),
  createdAt: s.string,
  attempts: s.integer,
  lastAttemptAt: s.nullable(s.string),
  /** The receiver's HTTP status of the last attempt (null: no answer). */
  lastStatusCode: s.nullable(s.integer),
  lastResponseMs: s.nullable(s.integer),
  lastError: s.nullable(s.string),
  deliveredAt: s.nullable(s.string),
});
export type WebhookDeliveryView = s.Infer<typeof WebhookDeliveryView>;
