/**
 * The clinic's commands on patients' own orders: a physician of the account signs one off (the
 * four attestations of SPEC §5; the signer becomes the order's physician; the kit shipment to the
 * patient becomes Ready to Ship), or a physician or the account's super admin cancels it before
 * the kit ships (shipment Cancelled, kit Discarded, a paid order refunded through the
 * refund-payment job, an unpaid order's open payment intent cancelled at Stripe through the
 * cancel-payment-intent job, an email to the patient). Another account's order is a 404.
 */
import type { Transaction } from 'sequelize';
import type { Order } from '@platform/db';
import {
  PatientOrderStage, SampleStatus, ShipmentStatus, TestOrigin, type Attestations, type PatientListOrder,
} from '@platform/domain';
import { auditActor, conflict, forbidden, moveSample, notFound, patientOrderCancelledEmail, queueEmail, recordAudit } from '@platform/server';
import type { AppContext } from '../context';
import type { AccountCaller } from '../http/caller';
import { listOrderOf, stageOf, withDetails } from '../patient-portal/patient-order-view';
import { cancelOpenIntent, refundCancelledOrder } from '../patient-portal/cancelled-payments';

type Ctx = Pick<AppContext, 'db' | 'relay' | 'config'>;

/** The account's patient order, locked; 404 for another account's order or a clinic order. */
async function lockedPatientOrder(ctx: Ctx, caller: AccountCaller, orderId: number, transaction: Transaction): Promise<Order> {
  const order = await ctx.db.models.Order.findOne({
    where: { id: orderId, accountId: caller.accountId, origin: TestOrigin.PatientOrdered },
    lock: transaction.LOCK.UPDATE,
    transaction,
  });
  if (!order) throw notFound('Order not found');
  return withDetails(ctx, order, transaction);
}

/** The kit shipment to the patient and its sample, when the order has moved on. */
async function kitOf(ctx: Ctx, order: Order, transaction: Transaction) {
  const m = ctx.db.models;
  const sample = await m.Sample.findOne({ where: { orderId: order.id }, lock: transaction.LOCK.UPDATE, transaction });
  const item = sample ? await m.ShipmentItem.findOne({ where: { sampleId: sample.id }, order: [['id', 'DESC']], transaction }) : null;
  const shipment = item ? await m.Shipment.findOne({ where: { id: item.shipmentId, patientId: order.patientId }, lock: transaction.LOCK.UPDATE, transaction }) : null;
  return { sample, shipment };
}

export async function signOffPatientOrder(ctx: Ctx, caller: AccountCaller, orderId: number, attestations: Attestations): Promise<PatientListOrder> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const order = await lockedPatientOrder(ctx, caller, orderId, transaction);
    const stage = stageOf(order);
    if (stage !== PatientOrderStage.AwaitingSignOff) throw conflict(`Only an order awaiting sign-off can be signed off; this one is ${stage}`);
    const contact = await m.Contact.findOne({ where: { userId: caller.userId }, attributes: ['id'], transaction });
    const physician = contact ? await m.Physician.findOne({ where: { accountId: caller.accountId, contactId: contact.id }, transaction }) : null;
    if (!physician) throw forbidden('Only a physician of this account can sign off an order');
    const now = new Date();
    await order.update(
      {
        physicianId: physician.id,
        attestations: { ...attestations, confirmedAt: now.toISOString(), confirmedByUserId: caller.userId },
        signedOffAt: now,
        signedOffByUserId: caller.userId,
      },
      { transaction },
    );
    const { shipment } = await kitOf(ctx, order, transaction);
    if (shipment && shipment.status === ShipmentStatus.NotReadyToShip) await shipment.update({ status: ShipmentStatus.ReadyToShip }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'patient_order.signed_off', entityKind: 'patient', entityId: order.patientId,
      details: { orderId: order.id, accountId: caller.accountId, physicianId: physician.id, shipmentId: shipment?.id ?? null },
    }, transaction);
    return listOrderOf(order);
  });
}

export async function cancelPatientOrder(ctx: Ctx, caller: AccountCaller, orderId: number, reason: string): Promise<PatientListOrder> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const order = await lockedPatientOrder(ctx, caller, orderId, transaction);
    if (order.cancelledAt) throw conflict('This order is already cancelled');
    const { sample, shipment } = await kitOf(ctx, order, transaction);
    if (shipment?.status === ShipmentStatus.Shipped || (sample && sample.status !== SampleStatus.OrderPlaced && sample.status !== SampleStatus.PendingShipment)) {
      throw conflict('The kit has already been shipped; the order can no longer be cancelled');
    }
    await order.update({ cancelledAt: new Date(), cancelledByUserId: caller.userId, cancellationReason: reason }, { transaction });
    if (shipment && shipment.status !== ShipmentStatus.Cancelled) await shipment.update({ status: ShipmentStatus.Cancelled }, { transaction });
    if (sample) await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Discarded, by: caller, reason: `Order cancelled: ${reason}` });
    // Paid: refunded. Not paid yet: its open intent is cancelled at Stripe, so it can no longer be paid.
    const paid = await refundCancelledOrder(ctx, transaction, order, caller.userId);
    const intentCancelled = !paid && (await cancelOpenIntent(ctx, transaction, order, caller.userId));
    const patient = await m.Patient.findByPk(order.patientId, { transaction });
    let emailId: number | null = null;
    if (patient?.email) {
      const email = await queueEmail(ctx, transaction, {
        to: patient.email,
        ...patientOrderCancelledEmail({
          language: patient.preferredLanguage, brand: ctx.config.brand, firstName: patient.firstName, orderNumber: order.orderNumber,
          accountName: order.account?.name ?? '', reason,
          refundCents: paid ? order.priceCents : null,
        }),
        ...(sample ? { entity: { kind: 'sample' as const, id: sample.id } } : {}),
        createdByUserId: caller.userId,
      });
      emailId = email.id;
    }
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'patient_order.cancelled', entityKind: 'patient', entityId: order.patientId,
      details: { orderId: order.id, accountId: caller.accountId, sampleId: sample?.id ?? null, shipmentId: shipment?.id ?? null, refund: paid, intentCancelled, emailId },
    }, transaction);
    return listOrderOf(order);
  });
}
