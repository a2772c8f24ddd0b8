/**
 * A patient order as its pages and the clinic see it, and how the public calls find one: by its
 * number plus the token the ordering browser keeps (only its hash is stored). A wrong token is the
 * same 404 as an unknown number, so no answer tells which orders exist.
 */
import type { Transaction } from 'sequelize';
import type { Order } from '@platform/db';
import {
  patientOrderStage, PaymentStatus, SETTLED_PAYMENT_STATUSES, testsForProduct, TestOrigin, type EligibilityAnswers, type PatientOrderKey, type PatientOrderSummary,
  type PatientListOrder, type PatientProduct, type TestName,
} from '@platform/domain';
import { notFound } from '../errors';
import type { ServerContext } from '../context';
import { hashToken } from '../auth/tokens';

type Ctx = Pick<ServerContext, 'db'>;

export const ORDER_NOT_FOUND = 'Order not found';

/** The tests a patient order orders (from its product and answers: its samples exist only once it moved on). */
export function testsOfOrder(order: Order): TestName[] {
  return testsForProduct(order.product as PatientProduct, (order.eligibilityAnswers ?? {}) as EligibilityAnswers);
}

export function stageOf(order: Order) {
  return patientOrderStage({ paymentStatus: order.paymentStatus, signedOffAt: order.signedOffAt, cancelledAt: order.cancelledAt });
}

/**
 * SQL: order o is a patient's own order at stage Awaiting Sign-off (patientOrderStage: paid or not
 * charged, not signed off, not cancelled), for counting where rows are not read one by one; its
 * values are AWAITING_SIGN_OFF_CONSTANTS.
 */
export const AWAITING_SIGN_OFF_SQL = 'o.origin = :patientOrdered AND o.cancelled_at IS NULL AND o.signed_off_at IS NULL AND o.payment_status IN (:settled)';
export const AWAITING_SIGN_OFF_CONSTANTS = { patientOrdered: TestOrigin.PatientOrdered, settled: SETTLED_PAYMENT_STATUSES };

/** The order with its account and insurance plan loaded (as `orderByKey` and the clinic's lookups load it). */
export function summaryOf(order: Order): PatientOrderSummary {
  return {
    orderNumber: order.orderNumber,
    product: order.product as PatientProduct,
    tests: testsOfOrder(order),
    accountName: order.account?.name ?? '',
    paymentMethod: order.paymentMethod,
    paymentStatus: order.paymentStatus ?? PaymentStatus.AwaitingPayment,
    stage: stageOf(order),
    priceCents: order.priceCents,
    donationCents: order.donationCents,
    mirakind: order.mirakind,
    insurancePlanName: order.insurancePlan?.name ?? null,
  };
}

/** What the clinic's lists and commands answer of a patient order. */
export function listOrderOf(order: Order): PatientListOrder {
  return { orderId: order.id, orderNumber: order.orderNumber, stage: stageOf(order), paymentStatus: order.paymentStatus ?? PaymentStatus.AwaitingPayment, paymentMethod: order.paymentMethod };
}

/** The patient order of a number and token, locked for update inside a transaction when asked; 404 otherwise. */
export async function orderByKey(ctx: Ctx, key: PatientOrderKey, transaction?: Transaction): Promise<Order> {
  const m = ctx.db.models;
  const order = await m.Order.findOne({
    where: { orderNumber: key.orderNumber, orderTokenHash: hashToken(key.orderToken), origin: TestOrigin.PatientOrdered },
    ...(transaction ? { transaction, lock: transaction.LOCK.UPDATE } : {}),
  });
  if (!order) throw notFound(ORDER_NOT_FOUND);
  await withDetails(ctx, order, transaction);
  return order;
}

/** Loads the order's account and insurance plan onto it (a locked row cannot be fetched with its joins). */
export async function withDetails(ctx: Ctx, order: Order, transaction?: Transaction): Promise<Order> {
  const m = ctx.db.models;
  const [account, plan] = await Promise.all([
    order.accountId ? m.Account.findByPk(order.accountId, { transaction }) : null,
    order.insurancePlanId ? m.InsurancePlan.findByPk(order.insurancePlanId, { transaction }) : null,
  ]);
  order.account = account;
  order.insurancePlan = plan;
  return order;
}
