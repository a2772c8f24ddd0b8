/**
 * Refunds a cancelled patient order's card payment through Stripe. The order was moved to Refund
 * Pending (with this job) by the cancellation; the refund is asked for with the idempotency key
 * `refund-<orderId>`, so a retried or redelivered job never refunds twice (Stripe answers the same
 * refund). A refund Stripe reports as succeeded moves the order to Refunded at once; otherwise the
 * payment-provider webhook's charge.refunded does. Nothing to do when the order is no longer
 * Refund Pending (already Refunded by the webhook, say).
 */
import { PaymentStatus } from '@platform/domain';
import { auditActor, movePayment, recordAudit, stripeClient, systemCaller } from '@platform/server';
import type { Processor } from './types';

export const refundIdempotencyKey = (orderId: number) => `refund-${orderId}`;

export const refundPayment: Processor<'refund-payment'> = async ({ orderId }, deps) => {
  const { db, config } = deps;
  const order = await db.models.Order.findByPk(orderId);
  if (!order) return { skipped: 'no such order' };
  if (order.paymentStatus !== PaymentStatus.RefundPending) return { skipped: `payment is ${order.paymentStatus}` };
  if (!order.stripePaymentIntentId) throw new Error(`order ${orderId} has no payment intent to refund`);

  const refund = await stripeClient(config).refunds.create(
    { payment_intent: order.stripePaymentIntentId, metadata: { orderId: String(order.id), orderNumber: order.orderNumber } },
    { idempotencyKey: refundIdempotencyKey(order.id) },
  );

  return db.sequelize.transaction(async (transaction) => {
    const locked = await db.models.Order.findByPk(orderId, { transaction, lock: transaction.LOCK.UPDATE });
    const refunded = refund.status === 'succeeded' && locked ? await movePayment(locked, PaymentStatus.Refunded, transaction) : false;
    await recordAudit(db, {
      ...auditActor(systemCaller()), action: 'patient_order.refund_requested', entityKind: 'patient', entityId: order.patientId,
      details: { orderId: order.id, refundId: refund.id, refundStatus: refund.status, amountCents: refund.amount, refunded },
    }, transaction);
    return { refundId: refund.id, refundStatus: refund.status, refunded };
  });
};
