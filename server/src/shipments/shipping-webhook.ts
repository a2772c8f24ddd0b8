/**
 * What the shipping service tells us about a kit shipment: it asks for the shipment's rates
 * (get-shipping-rates) and reports its fate (order.shipped / order.cancelled / order.on_hold).
 * Each event is applied once: its id is recorded in webhook_events in the same transaction as
 * its effect, and a replay (same id) answers { received: true, duplicate: true } and changes nothing.
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import {
  ItemKind, SampleStatus, ShipmentStatus, ShippingEventType, SHIPPING_WEBHOOK_SOURCE, type ShippingOrderEvent, type ShippingRate,
  type ShippingRatesEvent, type RatesAnswer, type OrderEventAnswer,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, systemCaller } from '../audit';
import { conflict, notFound } from '../errors';
import { moveSample } from '../samples/move-sample';
import { queueKitShippedText } from '../sms/kit-notices';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

/**
 * The lab's rate card for kit shipments to the lab: a base price plus a price per kit, by service.
 * The lab ships with the cheapest service that reaches it within MAX_TRANSIT_BUSINESS_DAYS
 * (specimens should arrive within two business days); that rate is stored on the shipment.
 */
export const RATE_CARD = [
  { service: 'ground', label: 'Ground (3-5 business days)', businessDays: 5, baseCents: 12_00, perKitCents: 1_50 },
  { service: 'two_day', label: '2-Day', businessDays: 2, baseCents: 24_00, perKitCents: 2_00 },
  { service: 'overnight', label: 'Overnight', businessDays: 1, baseCents: 45_00, perKitCents: 2_50 },
] as const;
export const MAX_TRANSIT_BUSINESS_DAYS = 2;

export function ratesFor(kits: number): ShippingRate[] {
  const rates = RATE_CARD.map((r) => ({
    service: r.service,
    label: r.label,
    businessDays: r.businessDays,
    amountCents: r.baseCents + r.perKitCents * Math.max(1, kits),
    currency: 'USD' as const,
    selected: false,
  }));
  const chosen = rates.filter((r) => r.businessDays <= MAX_TRANSIT_BUSINESS_DAYS).sort((a, b) => a.amountCents - b.amountCents)[0];
  chosen.selected = true;
  return rates;
}

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

async function kitCount(ctx: Ctx, shipmentId: number, transaction: Transaction): Promise<number> {
  return ctx.db.models.ShipmentItem.count({ where: { shipmentId, kind: ItemKind.Test }, transaction });
}

const RATEABLE: readonly string[] = [ShipmentStatus.NotReadyToShip, ShipmentStatus.ReadyToShip, ShipmentStatus.OnHold];

export async function handleShippingRates(ctx: Ctx, event: ShippingRatesEvent, meta: { requestId: string | null }): Promise<RatesAnswer> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const first = await firstDelivery(ctx, transaction, event.id);
    const shipment = await lockedShipment(ctx, transaction, event.data.externalOrderId);
    const rates = ratesFor(await kitCount(ctx, shipment.id, transaction));
    if (!first) return { received: true, duplicate: true, externalOrderId: event.data.externalOrderId, rates };
    const selected = rates.find((r) => r.selected)!;
    if (RATEABLE.includes(shipment.status)) {
      await shipment.update({ rateCents: selected.amountCents }, { transaction });
    }
    await recordAudit(
      ctx.db,
      {
        ...auditActor(systemCaller(meta.requestId)), action: 'shipment.rates_quoted', entityKind: 'shipment', entityId: shipment.id,
        details: { eventId: event.id, service: selected.service, amountCents: selected.amountCents, stored: RATEABLE.includes(shipment.status) },
      },
      transaction,
    );
    return { received: true, externalOrderId: event.data.externalOrderId, rates };
  });
}

/** Where each order event takes a shipment, and the statuses it may come from. */
const ORDER_EVENT_MOVES: Record<ShippingOrderEvent['type'], { to: ShipmentStatus; from: readonly ShipmentStatus[] }> = {
  [ShippingEventType.OrderShipped]: { to: ShipmentStatus.Shipped, from: [ShipmentStatus.NotReadyToShip, ShipmentStatus.ReadyToShip, ShipmentStatus.OnHold] },
  [ShippingEventType.OrderCancelled]: { to: ShipmentStatus.Cancelled, from: [ShipmentStatus.NotReadyToShip, ShipmentStatus.ReadyToShip, ShipmentStatus.OnHold] },
  [ShippingEventType.OrderOnHold]: { to: ShipmentStatus.OnHold, from: [ShipmentStatus.NotReadyToShip, ShipmentStatus.ReadyToShip] },
};

export async function handleShippingOrderEvent(ctx: Ctx, event: ShippingOrderEvent, meta: { requestId: string | null }): Promise<OrderEventAnswer> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    if (!(await firstDelivery(ctx, transaction, event.id))) return { received: true, duplicate: true };
    const shipment = await lockedShipment(ctx, transaction, event.data.externalOrderId);
    const move = ORDER_EVENT_MOVES[event.type];
    const from = shipment.status;
    const answer = { received: true as const, shipment: { externalOrderId: shipment.externalOrderId!, status: from } };
    // The same news twice under different event ids (e.g. a second "shipped"): nothing more to do.
    if (from === move.to) return answer;
    if (!move.from.includes(from)) throw conflict(`Shipment ${shipment.externalOrderId} is ${from}; it cannot become ${move.to}`);

    const moved: string[] = [];
    let withPatient = 0;
    if (move.to === ShipmentStatus.Shipped) {
      const now = new Date();
      // The service's time, kept within [shipment created, now] so the timeline stays in order.
      const given = event.data.shippedAt?.getTime() ?? now.getTime();
      const shippedAt = new Date(Math.min(now.getTime(), Math.max(shipment.createdAt.getTime(), given)));
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
