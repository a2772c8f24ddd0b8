/**
 * Patient orders left unpaid close by themselves UNPAID_ORDER_EXPIRY_DAYS after they were placed
 * (domain/src/patient-ordering.ts says why the time): the order is cancelled with the stated
 * reason, its open card payment is cancelled at Stripe (so it can no longer be paid; a payment
 * racing the close is refunded by the payment webhook), and the patient is told in their
 * language, with where to order again. Run by every worker on a timer; one transaction per order,
 * and an order another worker holds is skipped (it is that worker's).
 */
import { Op } from 'sequelize';
import type { Db } from '@platform/db';
import {
  TestOrigin, UNPAID_ORDER_EXPIRED_REASON, UNPAID_ORDER_EXPIRY_DAYS, UNPAID_ORDER_SCAN_BATCH, UNPAID_PAYMENT_STATUSES,
} from '@platform/domain';
import type { Config } from '../config';
import type { OutboxRelay } from '../jobs';
import { auditActor, recordAudit, systemCaller } from '../audit';
import { queueEmail } from '../email/queue-email';
import { unpaidOrderExpiredEmail } from '../email/templates';
import { cancelOpenIntent } from './cancelled-payments';

export type UnpaidOrdersCtx = { db: Db; relay: OutboxRelay; config: Pick<Config, 'publicUrl' | 'brand'> };

const DAY_MS = 24 * 3600_000;

/** The orders a look at `now` closes: patient orders, unpaid, not cancelled, placed before the cut-off. */
const expiredWhere = (now: Date) => ({
  origin: TestOrigin.PatientOrdered,
  cancelledAt: { [Op.is]: null },
  paymentStatus: { [Op.in]: [...UNPAID_PAYMENT_STATUSES] },
  createdAt: { [Op.lte]: new Date(now.getTime() - UNPAID_ORDER_EXPIRY_DAYS * DAY_MS) },
});

/** One look at `now`: closes each unpaid patient order past its time; answers how many it closed. */
export async function expireUnpaidOrders(ctx: UnpaidOrdersCtx, options: { now: Date; limit?: number }): Promise<{ expired: number }> {
  const m = ctx.db.models;
  const due = await m.Order.findAll({
    where: expiredWhere(options.now), attributes: ['id'], order: [['createdAt', 'ASC'], ['id', 'ASC']], limit: options.limit ?? UNPAID_ORDER_SCAN_BATCH,
  });
  let expired = 0;
  for (const { id } of due) {
    const closed = await ctx.db.sequelize.transaction(async (transaction) => {
      const order = await m.Order.findOne({ where: { id, ...expiredWhere(options.now) }, transaction, lock: transaction.LOCK.UPDATE, skipLocked: true });
      if (!order) return false;
      await order.update({ cancelledAt: new Date(), cancelledByUserId: null, cancellationReason: UNPAID_ORDER_EXPIRED_REASON }, { transaction });
      const intentCancelled = await cancelOpenIntent(ctx, transaction, order, null);
      const patient = await m.Patient.findByPk(order.patientId, { transaction });
      const account = order.accountId ? await m.Account.findByPk(order.accountId, { attributes: ['name'], transaction }) : null;
      const email = patient?.email && order.product
        ? await queueEmail(ctx, transaction, {
          to: patient.email,
          ...unpaidOrderExpiredEmail({
            language: patient.preferredLanguage, brand: ctx.config.brand, firstName: patient.firstName, orderNumber: order.orderNumber,
            accountName: account?.name ?? ctx.config.brand, days: UNPAID_ORDER_EXPIRY_DAYS,
            orderAgainUrl: `${ctx.config.publicUrl}/patient-portal/order/${order.product}/new`,
          }),
          createdByUserId: null,
        })
        : null;
      await recordAudit(ctx.db, {
        ...auditActor(systemCaller()), action: 'patient_order.expired', entityKind: 'patient', entityId: order.patientId,
        details: {
          orderId: order.id, accountId: order.accountId, intentCancelled, emailId: email?.id ?? null,
          before: { cancelledAt: null }, after: { cancelledAt: order.cancelledAt, reason: UNPAID_ORDER_EXPIRED_REASON },
        },
      }, transaction);
      return true;
    });
    if (closed) expired += 1;
  }
  return { expired };
}
