/**
 * The one way a patient order's payment status changes: only along PAYMENT_STATUS_NEXT (domain),
 * so a late or replayed event never moves an order backwards.
 */
import type { Transaction } from 'sequelize';
import type { Order } from '@platform/db';
import { canMovePayment, PaymentStatus } from '@platform/domain';

/** Moves the order's payment status when the table allows it (setting paid/refunded times); false when it does not. */
export async function movePayment(order: Order, to: PaymentStatus, transaction: Transaction, at = new Date()): Promise<boolean> {
  const from = order.paymentStatus ?? PaymentStatus.AwaitingPayment;
  if (!canMovePayment(from, to)) return false;
  await order.update(
    {
      paymentStatus: to,
      ...(to === PaymentStatus.Paid ? { paidAt: at } : {}),
      ...(to === PaymentStatus.Refunded ? { refundedAt: at } : {}),
    },
    { transaction },
  );
  return true;
}
