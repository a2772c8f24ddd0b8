/**
 * One attempt of a result notice to an API client's webhook (server/src/webhooks/result-webhooks.ts):
 * a failed attempt throws and BullMQ retries it with the delivery's back-off; after the last one
 * the delivery is Failed, shown on the client's page with "Redeliver".
 */
import { WEBHOOK_ATTEMPTS, WebhookDeliveryStatus } from '@platform/domain';
import { attemptWebhookDelivery, finishDelivery } from '@platform/server';
import type { Processor } from './types';

export const deliverWebhook: Processor<'deliver-webhook'> = async ({ deliveryId }, deps) => ({ ...(await attemptWebhookDelivery(deps, deliveryId)) });

deliverWebhook.onFinalFailure = async ({ deliveryId }, deps, { error, transaction }) => {
  await finishDelivery(deps, deliveryId, WebhookDeliveryStatus.Failed, `${error.message} (gave up after ${WEBHOOK_ATTEMPTS} attempts)`, transaction);
};
