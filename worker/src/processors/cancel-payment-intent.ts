/**
 * Cancels at Stripe the open payment intent of a patient order the clinic cancelled before it was
 * paid, so the patient can no longer pay it (a cancelled intent cannot be confirmed; Stripe then
 * sends payment_intent.canceled, which the payment webhook records). Queued by the cancel command
 * in its own transaction (the outbox): a Stripe outage only delays it, the job retries with backoff.
 *
 * The cancel is asked for with the idempotency key `cancel-intent-<orderId>`, so a retried or
 * redelivered job gets Stripe's first answer again. Nothing to do when the order is no longer
 * unpaid (the payment won the race: the webhook refunds it) or the intent's cancellation is
 * already recorded. Stripe refusing because the intent already succeeded or was cancelled
 * (payment_intent_unexpected_state) is an answer, not a failure.
 */
import { isUnpaid } from '@platform/domain';
import { auditActor, recordAudit, stripeClient, systemCaller, type StripePaymentIntent } from '@platform/server';
import type { Processor } from './types';

export const cancelIntentIdempotencyKey = (orderId: number) => `cancel-intent-${orderId}`;

/** Where an intent ends when it can no longer be cancelled: nothing left for this job to do. */
const FINAL_INTENT_STATUSES: readonly string[] = ['canceled', 'succeeded'];

export const cancelPaymentIntent: Processor<'cancel-payment-intent'> = async ({ orderId }, deps) => {
  const { db, config } = deps;
  const order = await db.models.Order.findByPk(orderId);
  if (!order) return { skipped: 'no such order' };
  if (!order.cancelledAt) return { skipped: 'the order is not cancelled' };
  const intentId = order.stripePaymentIntentId;
  if (!intentId) return { skipped: 'the order has no payment intent' };
  if (!isUnpaid(order.paymentStatus)) return { skipped: `payment is ${order.paymentStatus}` };
  const recorded = await db.models.PaymentEvent.findOne({ where: { paymentIntentId: intentId, type: 'payment_intent.canceled' }, attributes: ['eventId'] });
  if (recorded) return { skipped: 'the payment intent is already cancelled' };

  const stripe = stripeClient(config);
  let intent: StripePaymentIntent;
  let refused = false;
  try {
    intent = await stripe.paymentIntents.cancel(intentId, { cancellation_reason: 'abandoned' }, { idempotencyKey: cancelIntentIdempotencyKey(order.id) });
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'payment_intent_unexpected_state') throw err; // Stripe down or slow: retried
    // Already cancelled, or paid just before the cancel reached Stripe (the payment webhook refunds it).
    intent = await stripe.paymentIntents.retrieve(intentId);
    if (!FINAL_INTENT_STATUSES.includes(intent.status)) throw new Error(`the payment intent of order ${orderId} is ${intent.status} and cannot be cancelled yet`);
    refused = true;
  }
  await recordAudit(db, {
    ...auditActor(systemCaller()), action: 'patient_order.payment_intent_cancelled', entityKind: 'patient', entityId: order.patientId,
    details: { orderId: order.id, paymentIntentId: intentId, intentStatus: intent.status, refused },
  });
  return { paymentIntentId: intentId, intentStatus: intent.status, refused };
};
