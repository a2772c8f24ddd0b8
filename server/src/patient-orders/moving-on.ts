/**
 * "Moving on": once a patient order's payment is settled (Paid by the payment-provider webhook, or
 * Not Charged for insurance and aid at no cost) the order becomes real for the lab and the clinic,
 * in the caller's transaction: the sample (a new 41… kit barcode, Order Placed, its first timeline
 * event), its tests, a kit shipment to the patient (Not Ready to Ship until a physician signs the
 * order off) and the confirmation-and-receipt email through the outbox. Runs once per order: the
 * caller holds the order's row lock, and an order that already has its sample is left alone.
 */
import type { Transaction } from 'sequelize';
import type { Order } from '@platform/db';
import {
  catalogueEntry, ItemKind, PaymentMethod, SampleStatus, SampleType, SETTLED_PAYMENT_STATUSES, ShipmentStatus, type PaymentStatus,
} from '@platform/domain';
import { auditActor, recordAudit, systemCaller, type Caller } from '../audit';
import { createSample } from '../samples/move-sample';
import { patientOrderReceiptEmail } from '../email/templates';
import { queueEmail } from '../email/queue-email';
import type { ServerContext } from '../context';
import { newKitBarcode } from '../orders/orders';
import { externalOrderIdOf } from '../shipments/shipments';
import { testsOfOrder, withDetails } from './patient-order-view';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

/** The kit a patient is sent: a cheek swab they take at home. */
export const PATIENT_KIT_SAMPLE_TYPE = SampleType.BuccalSwab;

/** Where the patient reads their order (the order complete page). */
export const orderCompleteUrl = (publicUrl: string, orderNumber: string) => `${publicUrl}/patient-portal/order/complete?order=${encodeURIComponent(orderNumber)}`;

export async function moveOrderOn(ctx: Ctx, transaction: Transaction, order: Order, by: Caller): Promise<{ sampleId: number; shipmentId: number } | null> {
  const m = ctx.db.models;
  if (!SETTLED_PAYMENT_STATUSES.includes(order.paymentStatus as PaymentStatus) || order.cancelledAt) return null;
  if (await m.Sample.count({ where: { orderId: order.id }, transaction })) return null;
  const patient = await m.Patient.findByPk(order.patientId, { transaction });
  if (!patient) throw new Error(`order ${order.id} has no patient`);
  await withDetails(ctx, order, transaction);

  // The first step of the timeline says which patient order the kit is for.
  const sample = await createSample(
    ctx.db, transaction,
    { barcode: await newKitBarcode(ctx, transaction), sampleType: PATIENT_KIT_SAMPLE_TYPE, accountId: order.accountId, patientId: patient.id, orderId: order.id },
    { by: systemCaller(), reason: `Patient order ${order.orderNumber} (${order.paymentStatus})` },
  );
  const tests = testsOfOrder(order);
  for (const name of tests) {
    await m.Test.create({ orderId: order.id, sampleId: sample.id, name, parentType: catalogueEntry(name).parentType }, { transaction });
  }
  const shipment = await m.Shipment.create(
    { accountId: order.accountId!, patientId: patient.id, status: ShipmentStatus.NotReadyToShip, createdByUserId: null },
    { transaction },
  );
  await shipment.update({ externalOrderId: externalOrderIdOf(shipment.id) }, { transaction });
  await m.ShipmentItem.create({ shipmentId: shipment.id, kind: ItemKind.Test, sampleId: sample.id }, { transaction });

  let receiptEmailId: number | null = null;
  if (patient.email) {
    const email = await queueEmail(ctx, transaction, {
      to: patient.email,
      ...patientOrderReceiptEmail({
        language: patient.preferredLanguage,
        brand: ctx.config.brand,
        firstName: patient.firstName,
        orderNumber: order.orderNumber,
        testNames: tests,
        accountName: order.account?.name ?? '',
        paymentMethod: order.paymentMethod ?? PaymentMethod.SelfPay,
        insurancePlanName: order.insurancePlan?.name ?? null,
        priceCents: order.priceCents ?? 0,
        donationCents: order.donationCents,
        completeUrl: orderCompleteUrl(ctx.config.publicUrl, order.orderNumber),
      }),
      entity: { kind: 'sample', id: sample.id },
    });
    receiptEmailId = email.id;
  }
  await recordAudit(ctx.db, {
    ...auditActor(by), action: 'patient_order.moved_on', entityKind: 'sample', entityId: sample.id,
    details: { orderId: order.id, patientId: patient.id, shipmentId: shipment.id, paymentStatus: order.paymentStatus, tests, receiptEmailId },
  }, transaction);
  return { sampleId: sample.id, shipmentId: shipment.id };
}
