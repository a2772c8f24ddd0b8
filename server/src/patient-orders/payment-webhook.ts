/**
 * What the payment provider (Stripe) tells us about a patient order's card payment. Each event id
 * is applied once (payment_events, primary key event id, written in the same transaction as its
 * effect: a replay answers { received: true, duplicate: true } and changes nothing); payment
 * statuses move only along PAYMENT_STATUS_NEXT, so events arriving late or out of order never move
 * an order backwards. An event for an intent we do not know is recorded and answered 200.
 * A payment that succeeds for an order the clinic already cancelled (paid just before the intent's
 * cancel reached Stripe) is recorded as Paid and refunded at once; the order stays cancelled.
 * payment_intent.canceled (the cancel job's, or Stripe's own) is recorded against its order.
 */
import { QueryTypes } from 'sequelize';
import { PaymentStatus, type PaymentEventAnswer } from '@platform/domain';
import { auditActor, recordAudit, systemCaller } from '../audit';
import { movePayment } from '../payments/payment-status';
import { refundCancelledOrder } from '../payments/cancelled-payments';
import { type StripeEvent } from '../payments/stripe-client';
import type { ServerContext } from '../context';
import { moveOrderOn } from './moving-on';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

/** Where each event type takes an order's payment. */
const EVENT_MOVES: Record<string, PaymentStatus> = {
  'payment_intent.succeeded': PaymentStatus.Paid,
  'payment_intent.payment_failed': PaymentStatus.PaymentFailed,
  'charge.refunded': PaymentStatus.Refunded,
};
/** Events recorded against their order that move no payment status (the intent can no longer be paid). */
const RECORDED_ONLY: readonly string[] = ['payment_intent.canceled'];

/** The payment intent an event is about (a charge names its intent). */
function intentIdOf(event: StripeEvent): string | null {
  const object = event.data.object as { object?: string; id?: string; payment_intent?: string | { id: string } | null };
  if (object.object === 'payment_intent') return object.id ?? null;
  const pi = object.payment_intent;
  return typeof pi === 'string' ? pi : pi?.id ?? null;
}

export async function handlePaymentEvent(ctx: Ctx, event: StripeEvent, meta: { requestId: string | null }): Promise<PaymentEventAnswer> {
  const by = systemCaller(meta.requestId);
  const intentId = intentIdOf(event);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const first = await ctx.db.sequelize.query<{ event_id: string }>(
      `INSERT INTO payment_events (event_id, type, payment_intent_id) VALUES (:id, :type, :intentId)
         ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
      { replacements: { id: event.id, type: event.type, intentId }, type: QueryTypes.SELECT, transaction },
    );
    if (!first.length) return { received: true, duplicate: true };
    const order = intentId
      ? await ctx.db.models.Order.findOne({ where: { stripePaymentIntentId: intentId }, lock: transaction.LOCK.UPDATE, transaction })
      : null;
    const to: PaymentStatus | undefined = EVENT_MOVES[event.type];
    if (!order || (!to && !RECORDED_ONLY.includes(event.type))) {
      await recordAudit(ctx.db, { ...auditActor(by), action: 'payment.event_ignored', details: { eventId: event.id, type: event.type, paymentIntentId: intentId, knownOrder: Boolean(order) } }, transaction);
      return { received: true, applied: false };
    }
    await ctx.db.models.PaymentEvent.update({ orderId: order.id }, { where: { eventId: event.id }, transaction });
    const from = order.paymentStatus;
    const applied = to ? await movePayment(order, to, transaction, new Date(event.created * 1000)) : false;
    let refundQueued = false;
    if (applied && to === PaymentStatus.Paid) {
      // Paid after the clinic cancelled it: recorded, and the money goes back at once (no kit, the order stays cancelled).
      if (order.cancelledAt) refundQueued = await refundCancelledOrder(ctx, transaction, order, null);
      else await moveOrderOn(ctx, transaction, order, by);
    }
    await recordAudit(ctx.db, {
      ...auditActor(by), action: 'patient_order.payment_event', entityKind: 'patient', entityId: order.patientId,
      details: { orderId: order.id, eventId: event.id, type: event.type, from, to: order.paymentStatus, applied, refundQueued },
    }, transaction);
    return { received: true, applied };
  });
}
