/**
 * What the shipping service tells us about a kit shipment: it asks for the shipment's rates
 * (get-shipping-rates: those it quoted for the shipment, the one the lab uses marked), reports its
 * fate (order.shipped / order.cancelled / order.on_hold) and the carrier's scans of its parcel
 * (order.tracking: accepted, in transit, delivered at the lab or to the patient).
 * Each event is applied once: its id is recorded in webhook_events in the same transaction as
 * its effect, and a replay (same id) answers { received: true, duplicate: true } and changes nothing.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import {
  ItemKind, SampleStatus, ShipmentStatus, ShippingEventType, SHIPPING_WEBHOOK_SOURCE, TrackingStatus, type ShippingOrderEvent,
  type ShippingRatesEvent, type RatesAnswer, type OrderEventAnswer,
} from '@platform/domain';
import type { Shipment } from '@platform/db';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, systemCaller } from '../audit';
import { conflict, notFound } from '../errors';
import { moveSample } from '../samples/move-sample';
import { queueKitDeliveredText, queueKitShippedText } from '../sms/kit-notices';
import { ratesView, storedRates } from './shipping-labels';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

/** Records the event id; false when it was recorded before (a replay). Waits for a concurrent twin to finish. */
async function firstDelivery(ctx: Ctx, transaction: Transaction, eventId: string): Promise<boolean> {
  const rows = await ctx.db.sequelize.query<{ id: number }>(
    `INSERT INTO webhook_events (source, event_id) VALUES (:source, :eventId)
       ON CONFLICT (source, event_id) DO NOTHING RETURNING id`,
    { replacements: { source: SHIPPING_WEBHOOK_SOURCE, eventId }, type: QueryTypes.SELECT, transaction },
  );
  return rows.length === 1;
}

async function lockedShipment(ctx: Ctx, transaction: Transaction, externalOrderId: string) {
  const shipment = await ctx.db.models.Shipment.findOne({ where: { externalOrderId }, lock: transaction.LOCK.UPDATE, transaction });
  if (!shipment) throw notFound(`No shipment ${externalOrderId}`);
  return shipment;
}

const RATEABLE: readonly string[] = [ShipmentStatus.NotReadyToShip, ShipmentStatus.ReadyToShip, ShipmentStatus.OnHold];

export async function handleShippingRates(ctx: Ctx, event: ShippingRatesEvent, meta: { requestId: string | null }): Promise<RatesAnswer> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const first = await firstDelivery(ctx, transaction, event.id);
    const shipment = await lockedShipment(ctx, transaction, event.data.externalOrderId);
    // The rates the service quoted for this shipment (none before the clinic asked for them).
    const rates = ratesView(await storedRates(ctx, shipment.id, transaction), shipment.patientId !== null, shipment.labelId ? shipment : null);
    if (!first) return { received: true, duplicate: true, externalOrderId: event.data.externalOrderId, rates };
    const selected = rates.find((r) => r.selected) ?? null;
    // A bought label's cost stands; before one, the shipment carries the rate the lab would use.
    const store = selected !== null && !shipment.labelId && RATEABLE.includes(shipment.status);
    if (store) await shipment.update({ rateCents: selected.amountCents }, { transaction });
    await recordAudit(
      ctx.db,
      {
        ...auditActor(systemCaller(meta.requestId)), action: 'shipment.rates_answered', entityKind: 'shipment', entityId: shipment.id,
        details: { eventId: event.id, rates: rates.length, service: selected?.service ?? null, amountCents: selected?.amountCents ?? null, stored: store },
      },
      transaction,
    );
    return { received: true, externalOrderId: event.data.externalOrderId, rates };
  });
}

/** Where each order event takes a shipment, and the statuses it may come from (tracking moves no status). */
const ORDER_EVENT_MOVES: Record<Exclude<ShippingOrderEvent['type'], typeof ShippingEventType.OrderTracking>, { to: ShipmentStatus; from: readonly ShipmentStatus[] }> = {
  [ShippingEventType.OrderShipped]: { to: ShipmentStatus.Shipped, from: [ShipmentStatus.NotReadyToShip, ShipmentStatus.ReadyToShip, ShipmentStatus.OnHold] },
  [ShippingEventType.OrderCancelled]: { to: ShipmentStatus.Cancelled, from: [ShipmentStatus.NotReadyToShip, ShipmentStatus.ReadyToShip, ShipmentStatus.OnHold] },
  [ShippingEventType.OrderOnHold]: { to: ShipmentStatus.OnHold, from: [ShipmentStatus.NotReadyToShip, ShipmentStatus.ReadyToShip] },
};

export async function handleShippingOrderEvent(ctx: Ctx, event: ShippingOrderEvent, meta: { requestId: string | null }): Promise<OrderEventAnswer> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    if (!(await firstDelivery(ctx, transaction, event.id))) return { received: true, duplicate: true };
    const shipment = await lockedShipment(ctx, transaction, event.data.externalOrderId);
    if (event.type === ShippingEventType.OrderTracking) return applyTracking(ctx, transaction, shipment, event, meta);
    const move = ORDER_EVENT_MOVES[event.type];
    const from = shipment.status;
    const answer = { received: true as const, shipment: { externalOrderId: shipment.externalOrderId!, status: from } };
    // The same news twice under different event ids (e.g. a second "shipped"): nothing more to do.
    if (from === move.to) return answer;
    if (!move.from.includes(from)) throw conflict(`Shipment ${shipment.externalOrderId} is ${from}; it cannot become ${move.to}`);

    const moved: string[] = [];
    let withPatient = 0;
    if (move.to === ShipmentStatus.Shipped) {
      // The service's time, kept within [shipment created, now] so the timeline stays in order.
      const shippedAt = withinShipmentLife(shipment, event.data.shippedAt);
      await shipment.update(
        { status: move.to, carrier: event.data.carrier ?? shipment.carrier, trackingNumber: event.data.trackingNumber ?? shipment.trackingNumber, shippedAt },
        { transaction },
      );
      const items = await m.ShipmentItem.findAll({ where: { shipmentId: shipment.id, kind: ItemKind.Test }, transaction });
      const samples = await m.Sample.findAll({
        where: { id: { [Op.in]: items.map((i) => i.sampleId!) } },
        order: [['id', 'ASC']],
        lock: transaction.LOCK.UPDATE,
        transaction,
      });
      for (const sample of samples) {
        // A kit shipped to a patient (a patient order) is now with them, waiting to be sent back to the lab.
        if (shipment.patientId && sample.status === SampleStatus.OrderPlaced) {
          await moveSample(ctx.db, transaction, sample, { to: SampleStatus.PendingShipment, by: systemCaller(meta.requestId), at: shippedAt });
          withPatient += 1;
          continue;
        }
        // A kit the lab already received (or rejected) is left where it is.
        if (sample.status !== SampleStatus.PendingShipment) continue;
        await moveSample(ctx.db, transaction, sample, {
          to: SampleStatus.InTransit,
          by: systemCaller(meta.requestId),
          at: shippedAt,
        });
        moved.push(sample.barcode);
      }
      // A kit on its way to the patient: a text too when they consent (docs/sms.md).
      if (withPatient) await queueKitShippedText(ctx, transaction, shipment);
    } else {
      await shipment.update({ status: move.to }, { transaction });
    }
    await recordAudit(
      ctx.db,
      {
        ...auditActor(systemCaller(meta.requestId)), action: 'shipment.status_changed', entityKind: 'shipment', entityId: shipment.id,
        details: { eventId: event.id, type: event.type, from, to: move.to, samplesInTransit: moved.length, ...(withPatient ? { kitsWithPatient: withPatient } : {}) },
      },
      transaction,
    );
    return { received: true, shipment: { externalOrderId: shipment.externalOrderId!, status: move.to }, ...(move.to === ShipmentStatus.Shipped ? { samplesInTransit: moved } : {}) };
  });
}

/** A time the service gave, kept within [shipment created, now] so the shipment's story stays in order. */
const withinShipmentLife = (shipment: Shipment, given: Date | undefined, now = new Date()) =>
  new Date(Math.min(now.getTime(), Math.max(shipment.createdAt.getTime(), given?.getTime() ?? now.getTime())));

/**
 * A carrier's scan of the shipment's parcel: kept as one of its tracking events; the latest scan's
 * status is the shipment's; a delivery is recorded once (its time on the shipment, and on each
 * sample's card as "Delivered at the lab" or "Delivered to the patient"). The shipment's status
 * (Shipped) and the samples' (In Transit until the lab receives them) stay as they are: the
 * spec's statuses have no "Delivered", and only intake says a kit is in the lab's hands.
 * This is where a shipment moves on the carrier's word: a notice of it (SMS, email) belongs here.
 */
async function applyTracking(
  ctx: Ctx, transaction: Transaction, shipment: Shipment, event: ShippingOrderEvent, meta: { requestId: string | null },
): Promise<OrderEventAnswer> {
  const answer = (s: Shipment): OrderEventAnswer => ({
    received: true,
    shipment: { externalOrderId: s.externalOrderId!, status: s.status },
    tracking: { status: s.trackingStatus, deliveredAt: s.deliveredAt ? s.deliveredAt.toISOString() : null },
  });
  if (shipment.status !== ShipmentStatus.Shipped) {
    throw conflict(`Shipment ${shipment.externalOrderId} is ${shipment.status}: tracking applies to a shipment that is ${ShipmentStatus.Shipped}`);
  }
  const code = event.data.statusCode!;
  const occurredAt = withinShipmentLife(shipment, event.data.occurredAt);
  await ctx.db.sequelize.query(
    `INSERT INTO shipment_tracking_events (shipment_id, event_id, status_code, description, location, occurred_at)
     VALUES (:shipmentId, :eventId, :code, :description, :location, :occurredAt)`,
    { replacements: { shipmentId: shipment.id, eventId: event.id, code, description: event.data.description ?? null, location: event.data.location ?? null, occurredAt }, transaction },
  );
  const before = { trackingStatus: shipment.trackingStatus, deliveredAt: shipment.deliveredAt?.toISOString() ?? null };
  // Scans may arrive out of order: the latest scan says where the parcel is; a delivery is never undone.
  const latest = !shipment.trackingUpdatedAt || occurredAt.getTime() >= shipment.trackingUpdatedAt.getTime();
  const delivered = shipment.deliveredAt ?? (code === TrackingStatus.Delivered ? occurredAt : null);
  const status = shipment.deliveredAt ? TrackingStatus.Delivered : latest || code === TrackingStatus.Delivered ? code : shipment.trackingStatus;
  await shipment.update({ trackingStatus: status, trackingUpdatedAt: latest ? occurredAt : shipment.trackingUpdatedAt, deliveredAt: delivered }, { transaction });
  // A kit's first delivery scan at the patient's home: a text too when they consent (docs/sms.md).
  if (!before.deliveredAt && delivered) await queueKitDeliveredText(ctx, transaction, shipment);
  await recordAudit(
    ctx.db,
    {
      ...auditActor(systemCaller(meta.requestId)), action: 'shipment.tracking_updated', entityKind: 'shipment', entityId: shipment.id,
      details: { eventId: event.id, statusCode: code, old: before, new: { trackingStatus: shipment.trackingStatus, deliveredAt: shipment.deliveredAt?.toISOString() ?? null } },
    },
    transaction,
  );
  return answer(shipment);
}
