/**
 * What becomes of the card payment of a patient order that was cancelled or expired unpaid, in one
 * place for the clinic's cancel command, the payment webhook and the unpaid-order expiry. Each
 * writes its job in the caller's transaction (the outbox: a Stripe outage delays the work, never
 * loses it):
 * - a Paid order moves to Refund Pending and gets the refund-payment job (the cancel command, or a
 *   payment that succeeded after the cancellation: a race with the intent's cancel at Stripe);
 * - an unpaid order with an open payment intent gets the cancel-payment-intent job, so the patient
 *   can no longer pay it (worker/src/processors/cancel-payment-intent.ts).
 */
import type { Transaction } from 'sequelize';
import type { Db, Order } from '@platform/db';
import { isUnpaid, PaymentStatus } from '@platform/domain';
import { enqueueJob, type OutboxRelay } from '../jobs';
import { movePayment } from './payment-status';

type Ctx = { db: Db; relay: OutboxRelay };

/** The outbox idempotency keys of an order's refund and intent-cancel jobs (one each per order). */
export const refundJobKey = (orderId: number) => `refund-payment:${orderId}`;
export const cancelIntentJobKey = (orderId: number) => `cancel-payment-intent:${orderId}`;

/** Paid → Refund Pending, and the refund-payment job; false (nothing written) when the order is not Paid. */
export async function refundCancelledOrder(ctx: Ctx, transaction: Transaction, order: Order, createdByUserId: number | null): Promise<boolean> {
  if (order.paymentStatus !== PaymentStatus.Paid) return false;
  if (!(await movePayment(order, PaymentStatus.RefundPending, transaction))) return false;
  await enqueueJob(ctx, transaction, 'refund-payment', { orderId: order.id }, { idempotencyKey: refundJobKey(order.id), createdByUserId });
  return true;
}

/** The cancel-payment-intent job for an unpaid order with a payment intent; false when it has none or is not unpaid. */
export async function cancelOpenIntent(ctx: Ctx, transaction: Transaction, order: Order, createdByUserId: number | null): Promise<boolean> {
  if (!order.stripePaymentIntentId || !isUnpaid(order.paymentStatus)) return false;
  await enqueueJob(ctx, transaction, 'cancel-payment-intent', { orderId: order.id }, { idempotencyKey: cancelIntentJobKey(order.id), createdByUserId });
  return true;
}
