/**
 * Payments of patient orders: payment methods and statuses, how a status may move, and the
 * payment provider's webhook. Plain values, no joi.
 */

export const PaymentMethod = { Insurance: 'Insurance', SelfPay: 'Self-Pay', FinancialAssistance: 'Financial Assistance' } as const;
export type PaymentMethod = (typeof PaymentMethod)[keyof typeof PaymentMethod];
export const PAYMENT_METHODS: PaymentMethod[] = Object.values(PaymentMethod);

/**
 * Where an order's payment stands. Awaiting Payment (created, or a card payment not yet
 * confirmed), Paid (the payment-provider webhook said so), Payment Failed (the card was declined;
 * the patient may try again), Not Charged (insurance, or aid at no cost: moves on at once),
 * Refund Pending / Refunded (a paid order cancelled). Paid never goes back to Awaiting or Failed.
 */
export const PaymentStatus = {
  AwaitingPayment: 'Awaiting Payment',
  Paid: 'Paid',
  PaymentFailed: 'Payment Failed',
  NotCharged: 'Not Charged',
  RefundPending: 'Refund Pending',
  Refunded: 'Refunded',
} as const;
export type PaymentStatus = (typeof PaymentStatus)[keyof typeof PaymentStatus];
export const PAYMENT_STATUSES: PaymentStatus[] = Object.values(PaymentStatus);

/** Payment statuses after which the order has moved on (sample, kit shipment, receipt). */
export const SETTLED_PAYMENT_STATUSES: readonly PaymentStatus[] = [PaymentStatus.Paid, PaymentStatus.NotCharged];

/**
 * Payment statuses of an order not paid (yet): the patient may still pay it (its payment intent,
 * if any, can still be paid). Such an order has no sample and no kit; the clinic sees it in its
 * list of unpaid patient orders and may cancel it.
 */
export const UNPAID_PAYMENT_STATUSES: readonly PaymentStatus[] = [PaymentStatus.AwaitingPayment, PaymentStatus.PaymentFailed];

/** Whether an order's payment is not made yet (no status yet counts as Awaiting Payment). */
export function isUnpaid(status: PaymentStatus | null): boolean {
  return status === null || UNPAID_PAYMENT_STATUSES.includes(status);
}

/** Which payment statuses may follow which: a late or replayed event never moves an order backwards. */
export const PAYMENT_STATUS_NEXT: Record<PaymentStatus, readonly PaymentStatus[]> = {
  [PaymentStatus.AwaitingPayment]: [PaymentStatus.Paid, PaymentStatus.PaymentFailed, PaymentStatus.NotCharged],
  [PaymentStatus.PaymentFailed]: [PaymentStatus.Paid, PaymentStatus.AwaitingPayment, PaymentStatus.NotCharged],
  [PaymentStatus.Paid]: [PaymentStatus.RefundPending],
  [PaymentStatus.NotCharged]: [],
  [PaymentStatus.RefundPending]: [PaymentStatus.Refunded],
  [PaymentStatus.Refunded]: [],
};

export function canMovePayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return PAYMENT_STATUS_NEXT[from].includes(to);
}

/** The payment provider's webhook path under /api/webhooks (SPEC §7 "payment-provider events payment-intent"). */
export const PAYMENT_WEBHOOK_PATH = '/payment-provider/payment-intent';
/** Stripe's own signature tolerance (seconds), as stripe.webhooks.constructEvent uses it. */
export const PAYMENT_SIGNATURE_TOLERANCE_SECONDS = 300;
