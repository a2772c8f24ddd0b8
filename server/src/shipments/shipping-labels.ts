/**
 * A kit shipment's carrier label, bought from the shipping service: its rates (quoted for the
 * shipment's own addresses and parcel, and kept so a label is bought only with a rate quoted for
 * that very shipment), the label (its PDF kept in files, its tracking number and link on the
 * shipment) and the label's download. Where a shipment goes: a clinic's kits from the account's
 * shipping address to the lab; a patient's kit from the lab to the patient's address.
 * The carrier's scans then arrive by webhook (shipping-webhook.ts).
 */
import { QueryTypes, type Transaction } from 'sequelize';
import {
  addressOneLine, carrierTrackingUrl, cheapestAllowedRate, KIT_PARCEL, kitParcelOunces, ItemKind, rateAllowed, rateRefusal,
  SHIPPING_LABEL_FILE_KIND, ShipmentStatus, TrackingStatus, type ShipmentRatesAnswer, type ShipmentView, type ShippingRate,
} from '@platform/domain';
import type { Shipment } from '@platform/db';
import type { ServerContext } from '../context';
import { type AccountCaller, auditActor, recordAudit } from '../audit';
import { conflict, notFound, unprocessable } from '../errors';
import { readFileContent, storeFile } from '../files';
import { accountShippingAddress } from '../accounts/account-addresses';
import { createShippingClient, type LabelAddress, type QuotedRate } from './shipping-client';
import { shipmentOfAccount } from './shipments';

type Ctx = Pick<ServerContext, 'db' | 'config' | 'logger'>;

interface Route {
  shipFrom: LabelAddress;
  shipTo: LabelAddress;
  toPatient: boolean;
}

function labAddress(ctx: Ctx): LabelAddress {
  const address = ctx.config.shipping.labAddress;
  // Production refuses to start without it (config.ts); a development LAB_ADDRESS may not read as one.
  if (!address) throw unprocessable('The lab\'s address (LAB_ADDRESS) does not read "street, city, ST 12345": no label can be addressed to it', undefined, 'no_lab_address');
  return { ...address, name: ctx.config.lab.name, phone: ctx.config.lab.phone };
}

/** The account's shipping address, with its name and phone (a label's sender). */
async function accountSender(ctx: Ctx, accountId: number, transaction?: Transaction): Promise<LabelAddress> {
  const account = await ctx.db.models.Account.findByPk(accountId, { transaction });
  const address = await accountShippingAddress(ctx.db, accountId, transaction);
  if (!account || !address) {
    throw unprocessable('The account has no shipping address yet: the lab\'s administrator adds it on the account\'s page', undefined, 'no_shipping_address');
  }
  return { ...address, name: account.name, phone: account.phone ?? null };
}

/** The patient's address (a kit going to them); every part a carrier needs must be known. */
async function patientAddress(ctx: Ctx, patientId: number, transaction?: Transaction): Promise<LabelAddress> {
  const patient = await ctx.db.models.Patient.findByPk(patientId, { transaction });
  if (!patient) throw notFound('Patient not found');
  const missing = (['addressLine1', 'city', 'postalCode'] as const).filter((k) => !patient[k]);
  if (missing.length) {
    throw unprocessable(`The patient's address is not complete (${missing.join(', ')} missing): correct the patient's details first`, undefined, 'patient_address_incomplete');
  }
  return {
    name: [patient.firstName, patient.lastName].filter(Boolean).join(' ') || 'Patient',
    phone: patient.phone,
    addressLine1: patient.addressLine1!,
    addressLine2: patient.addressLine2,
    city: patient.city!,
    state: patient.state,
    postalCode: patient.postalCode!,
    country: patient.country && /^[A-Z]{2}$/i.test(patient.country) ? patient.country.toUpperCase() : 'US',
  };
}

async function routeOf(ctx: Ctx, shipment: Shipment, transaction?: Transaction): Promise<Route> {
  if (shipment.patientId) return { shipFrom: labAddress(ctx), shipTo: await patientAddress(ctx, shipment.patientId, transaction), toPatient: true };
  return { shipFrom: await accountSender(ctx, shipment.accountId, transaction), shipTo: labAddress(ctx), toPatient: false };
}

async function accountShipmentRow(ctx: Ctx, caller: AccountCaller, shipmentId: number, transaction?: Transaction): Promise<Shipment> {
  const shipment = await ctx.db.models.Shipment.findOne({
    where: { id: shipmentId, accountId: caller.accountId },
    ...(transaction ? { transaction, lock: transaction.LOCK.UPDATE } : {}),
  });
  if (!shipment) throw notFound('Shipment not found');
  return shipment;
}

/** Only a paid shipment (Ready to Ship) without a label gets rates and a label. */
function assertLabelPurchasable(shipment: Shipment): void {
  if (shipment.labelId) throw conflict(`Shipment ${shipment.externalOrderId} already has a label (tracking ${shipment.trackingNumber})`);
  if (shipment.status !== ShipmentStatus.ReadyToShip) {
    throw conflict(`Shipment ${shipment.externalOrderId} is ${shipment.status}: a label is bought for a shipment that is ${ShipmentStatus.ReadyToShip}`);
  }
}

interface StoredRate {
  rate_id: string;
  carrier: string;
  service_code: string;
  service: string;
  amount_cents: number;
  business_days: number | null;
}

/** A shipment's quoted rates as the clinic and the service's rates webhook see them; `selected`: the bought one, else the cheapest allowed. */
export function ratesView(rates: readonly StoredRate[], toPatient: boolean, bought: { carrier: string | null; service: string | null } | null): ShippingRate[] {
  const views = rates.map((r): ShippingRate => ({
    rateId: r.rate_id,
    carrier: r.carrier,
    service: r.service_code,
    label: r.service,
    businessDays: r.business_days,
    amountCents: r.amount_cents,
    currency: 'USD',
    allowed: rateAllowed(r.business_days, toPatient),
    selected: false,
  }));
  const chosen = bought?.service ? views.find((v) => v.carrier === bought.carrier && v.label === bought.service) : cheapestAllowedRate(views, toPatient);
  if (chosen) chosen.selected = true;
  return views.sort((a, b) => a.amountCents - b.amountCents);
}

/** The rates quoted for a shipment (the newest quote), cheapest first. */
export async function storedRates(ctx: Pick<ServerContext, 'db'>, shipmentId: number, transaction?: Transaction): Promise<StoredRate[]> {
  return ctx.db.sequelize.query<StoredRate>(
    'SELECT rate_id, carrier, service_code, service, amount_cents, business_days FROM shipment_rates WHERE shipment_id = :shipmentId ORDER BY amount_cents, id',
    { replacements: { shipmentId }, type: QueryTypes.SELECT, transaction },
  );
}

async function kitCount(ctx: Ctx, shipmentId: number): Promise<number> {
  return ctx.db.models.ShipmentItem.count({ where: { shipmentId, kind: ItemKind.Test } });
}

/**
 * Asks the shipping service for the shipment's rates (the clinic's kits from its shipping address
 * to the lab, or a patient's kit from the lab to them) and keeps them in place of any earlier quote.
 */
export async function quoteShipmentRates(ctx: Ctx, caller: AccountCaller, shipmentId: number): Promise<ShipmentRatesAnswer> {
  const shipment = await accountShipmentRow(ctx, caller, shipmentId);
  assertLabelPurchasable(shipment);
  const route = await routeOf(ctx, shipment);
  const quoted = await createShippingClient(ctx.config.shipping).rates({
    externalOrderId: shipment.externalOrderId!,
    shipFrom: route.shipFrom,
    shipTo: route.shipTo,
    toResidence: route.toPatient,
    weightOunces: kitParcelOunces(await kitCount(ctx, shipment.id)),
    dimensionsInches: { length: KIT_PARCEL.lengthInches, width: KIT_PARCEL.widthInches, height: KIT_PARCEL.heightInches },
  });
  // The lab pays in US dollars: a rate in another currency is not offered.
  const usable = quoted.filter((r: QuotedRate) => r.currency === 'USD');
  if (!usable.length) throw unprocessable('The shipping service offered no rate for this shipment', undefined, 'no_rates');
  const stored = await ctx.db.sequelize.transaction(async (transaction) => {
    await accountShipmentRow(ctx, caller, shipmentId, transaction);
    await ctx.db.sequelize.query('DELETE FROM shipment_rates WHERE shipment_id = :shipmentId', { replacements: { shipmentId }, transaction });
    for (const r of usable) {
      await ctx.db.sequelize.query(
        `INSERT INTO shipment_rates (shipment_id, rate_id, carrier, service_code, service, amount_cents, business_days)
         VALUES (:shipmentId, :rateId, :carrier, :serviceCode, :service, :amountCents, :businessDays)
         ON CONFLICT (shipment_id, rate_id) DO NOTHING`,
        { replacements: { shipmentId, ...r }, transaction },
      );
    }
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'shipment.rates_quoted', entityKind: 'shipment', entityId: shipmentId,
      details: { accountId: caller.accountId, rates: usable.length, toPatient: route.toPatient },
    }, transaction);
    return storedRates(ctx, shipmentId, transaction);
  });
  return { shipmentId, shipFrom: addressOneLine(route.shipFrom), shipTo: addressOneLine(route.shipTo), rates: ratesView(stored, route.toPatient, null) };
}

/**
 * Buys the shipment's label with one of the rates quoted for it: the label's PDF is kept, and the
 * carrier, service, tracking number and link and the addresses are written on the shipment.
 * The shipment's row stays locked while the service sells the label, so two clicks (or two
 * people) never buy two labels; the service's order.shipped webhook then marks it Shipped.
 */
export async function purchaseShipmentLabel(ctx: Ctx, caller: AccountCaller, shipmentId: number, rateId: string): Promise<ShipmentView> {
  await ctx.db.sequelize.transaction(async (transaction) => {
    const shipment = await accountShipmentRow(ctx, caller, shipmentId, transaction);
    assertLabelPurchasable(shipment);
    const rate = (await storedRates(ctx, shipmentId, transaction)).find((r) => r.rate_id === rateId);
    if (!rate) {
      throw unprocessable('This rate was not quoted for this shipment', [{ field: 'rateId', message: 'Rate is not one quoted for this shipment: ask for rates again' }]);
    }
    const route = await routeOf(ctx, shipment, transaction);
    const refusal = rateRefusal({ businessDays: rate.business_days, carrier: rate.carrier, label: rate.service }, route.toPatient);
    if (refusal) throw unprocessable(refusal, [{ field: 'rateId', message: refusal }]);

    const client = createShippingClient(ctx.config.shipping);
    const label = await client.purchaseLabel(rateId);
    try {
      const pdf = await client.downloadLabel(label.pdfUrl);
      const file = await storeFile(ctx.db, transaction, {
        kind: SHIPPING_LABEL_FILE_KIND, name: `shipping-label-${shipment.externalOrderId}.pdf`, contentType: 'application/pdf', content: pdf, uploadedByUserId: caller.userId,
      });
      const before = { carrier: shipment.carrier, trackingNumber: shipment.trackingNumber, rateCents: shipment.rateCents };
      const now = new Date();
      await shipment.update({
        carrier: rate.carrier,
        service: rate.service,
        trackingNumber: label.trackingNumber,
        trackingUrl: label.trackingUrl ?? carrierTrackingUrl(label.carrierCode, label.trackingNumber),
        labelId: label.labelId,
        labelFileId: file.id,
        labelPurchasedAt: now,
        labelPurchasedByUserId: caller.userId,
        shipFrom: route.shipFrom,
        shipTo: route.shipTo,
        rateCents: label.amountCents || rate.amount_cents,
        trackingStatus: TrackingStatus.NotYetInSystem,
        trackingUpdatedAt: now,
      }, { transaction });
      await recordAudit(ctx.db, {
        ...auditActor(caller), action: 'shipment.label_purchased', entityKind: 'shipment', entityId: shipment.id,
        details: {
          accountId: caller.accountId, rateId, labelId: label.labelId, fileId: file.id, toPatient: route.toPatient,
          old: before, new: { carrier: rate.carrier, service: rate.service, trackingNumber: label.trackingNumber, rateCents: shipment.rateCents },
        },
      }, transaction);
    } catch (err) {
      // The label is paid for at the service but not recorded here: say which, so it can be voided there.
      ctx.logger.error({ shipmentId, labelId: label.labelId, err: (err as Error).message }, 'a bought shipping label was not recorded');
      throw err;
    }
  });
  return shipmentOfAccount(ctx, caller, shipmentId);
}

/** The label's PDF, for a provider of the shipment's account (audited: a patient's kit label names the patient). */
export async function carrierLabelFile(ctx: Ctx, caller: AccountCaller, shipmentId: number): Promise<{ name: string; content: Buffer }> {
  const shipment = await accountShipmentRow(ctx, caller, shipmentId);
  if (!shipment.labelFileId) throw notFound(`Shipment ${shipment.externalOrderId} has no label yet`);
  const file = await readFileContent(ctx.db, shipment.labelFileId);
  if (!file) throw notFound(`Shipment ${shipment.externalOrderId} has no label yet`);
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'shipment.label_downloaded', entityKind: 'shipment', entityId: shipment.id,
    details: { accountId: caller.accountId, fileId: shipment.labelFileId },
  });
  return { name: file.name, content: file.content };
}
