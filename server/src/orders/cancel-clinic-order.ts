/**
 * The clinic cancels one of its own orders from the patient page (docs/clinical-orders.md): until
 * the lab receives the sample. The order is marked cancelled (who, when, why: the columns a
 * patient's own order cancels with), the sample is Discarded with the reason on its timeline (the
 * lifecycle's step for a sample the lab never received; intake refuses it if it still arrives).
 * Another account's sample is a 404; a patient's own order is cancelled from the Patient orders
 * list (it has a payment to refund); a received sample is refused with what to do instead.
 */
import {
  type CancelledClinicOrder, clinicOrderCancellable, ORDER_ALREADY_CANCELLED_MESSAGE, ORDER_RECEIVED_MESSAGE, orderCancelledReason, Portal, SampleStatus, TestOrigin,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { type AccountCaller, auditActor, recordAudit } from '../audit';
import { conflict, notFound } from '../errors';
import { moveSample } from '../samples/move-sample';

type Ctx = Pick<ServerContext, 'db'>;

export const PATIENT_ORDER_CANCEL_ELSEWHERE_MESSAGE = 'This order was not placed by the clinic: a patient’s own order is cancelled from the Patient orders list';

export async function cancelClinicOrder(ctx: Ctx, caller: AccountCaller, sampleId: number, reason: string): Promise<CancelledClinicOrder> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const sample = await m.Sample.findOne({ where: { id: sampleId, accountId: caller.accountId }, lock: transaction.LOCK.UPDATE, transaction });
    const order = sample?.orderId ? await m.Order.findOne({ where: { id: sample.orderId, accountId: caller.accountId }, lock: transaction.LOCK.UPDATE, transaction }) : null;
    if (!sample || !order) throw notFound('Sample not found');
    if (order.origin !== TestOrigin.ProviderOrdered || order.portal !== Portal.Clinical) throw conflict(PATIENT_ORDER_CANCEL_ELSEWHERE_MESSAGE);
    if (order.cancelledAt) throw conflict(ORDER_ALREADY_CANCELLED_MESSAGE);
    if (!clinicOrderCancellable(order, sample)) throw conflict(ORDER_RECEIVED_MESSAGE);
    const from = sample.status;
    await order.update({ cancelledAt: new Date(), cancelledByUserId: caller.userId, cancellationReason: reason }, { transaction });
    await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Discarded, by: caller, reason: orderCancelledReason(reason) });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'order.cancelled', entityKind: 'sample', entityId: sample.id,
      details: { accountId: caller.accountId, orderId: order.id, patientId: order.patientId, before: { status: from, cancelledAt: null }, after: { status: sample.status, cancelledAt: order.cancelledAt } },
    }, transaction);
    return { sampleId: sample.id, orderNumber: order.orderNumber, status: sample.status, cancelledAt: order.cancelledAt!.toISOString(), cancellationReason: reason };
  });
}
