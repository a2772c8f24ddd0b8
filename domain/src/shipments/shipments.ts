/**
 * Kit shipments: their statuses and items, what one may carry, the clinic's unshipped samples, and
 * the shipping service's webhooks. Plain values, no joi.
 */
import { SampleStatus } from '../samples/statuses';
import { MAX_PAGE_SIZE } from '../shared/constants';
import * as s from '../shared/shapes';
import { valuesOf } from '../shared/values';
import { DEFAULT_COUNTRY, type PostalAddress } from '../shared/addresses';

export const ShipmentStatus = {
  NotReadyToShip: 'Not Ready to Ship',
  ReadyToShip: 'Ready to Ship',
  Shipped: 'Shipped',
  Cancelled: 'Cancelled',
  OnHold: 'On Hold',
} as const;
export type ShipmentStatus = (typeof ShipmentStatus)[keyof typeof ShipmentStatus];
export const SHIPMENT_STATUSES = valuesOf(ShipmentStatus);

export const ItemKind = { Test: 'Test', Document: 'Document' } as const;
export type ItemKind = (typeof ItemKind)[keyof typeof ItemKind];
export const ITEM_KINDS = valuesOf(ItemKind);

/** The most samples one shipment may carry. */
export const SHIPMENT_MAX_SAMPLES = MAX_PAGE_SIZE;

/**
 * Unshipped samples: kits still at the clinic that no live shipment carries: status Order Placed,
 * or Pending Shipment with no shipment (or only cancelled ones).
 */
export const UNSHIPPED_SAMPLE_STATUSES: readonly SampleStatus[] = [SampleStatus.OrderPlaced, SampleStatus.PendingShipment];

export const SHIPPING_WEBHOOK_SOURCE = 'shipping-service';
export const SHIPPING_SIGNATURE_HEADER = 'x-shipping-signature';
/** A signed webhook older (or further in the future) than this is refused. */
export const SHIPPING_SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export const ShippingEventType = {
  GetShippingRates: 'get-shipping-rates',
  OrderShipped: 'order.shipped',
  OrderCancelled: 'order.cancelled',
  OrderOnHold: 'order.on_hold',
  /** A carrier's scan of a shipment's parcel (accepted, in transit, delivered...). */
  OrderTracking: 'order.tracking',
} as const;
export type ShippingEventType = (typeof ShippingEventType)[keyof typeof ShippingEventType];
export const SHIPPING_ORDER_EVENT_TYPES = [ShippingEventType.OrderShipped, ShippingEventType.OrderCancelled, ShippingEventType.OrderOnHold, ShippingEventType.OrderTracking] as const;

/**
 * Where a parcel is, as the shipping service's tracking reports it: its status codes (ShipStation's
 * and ShipEngine's, kept as sent) and the words the clinic reads for each.
 */
export const TrackingStatus = {
  NotYetInSystem: 'NY',
  Accepted: 'AC',
  InTransit: 'IT',
  Delivered: 'DE',
  Exception: 'EX',
  AttemptedDelivery: 'AT',
  Unknown: 'UN',
} as const;
export type TrackingStatus = (typeof TrackingStatus)[keyof typeof TrackingStatus];
export const TRACKING_STATUSES = valuesOf(TrackingStatus);

export const TRACKING_STATUS_WORDS: Record<TrackingStatus, string> = {
  NY: 'Label created, not yet with the carrier',
  AC: 'Accepted by the carrier',
  IT: 'In transit',
  DE: 'Delivered',
  EX: 'Delivery exception',
  AT: 'Delivery attempted',
  UN: 'Tracking status unknown',
};

/** Where a delivered parcel arrived: a clinic's kits at the lab, a patient's kit at the patient's address. */
export const deliveredWords = (toPatient: boolean) => (toPatient ? 'Delivered to the patient' : 'Delivered at the lab');

/** What a tracking status says to the clinic, with the destination named once it is delivered. */
export function trackingWords(code: TrackingStatus, toPatient: boolean): string {
  return code === TrackingStatus.Delivered ? deliveredWords(toPatient) : TRACKING_STATUS_WORDS[code];
}

/**
 * Specimens should reach the lab within two business days: a label to the lab may be bought only
 * for a service that promises it (a slower or undated rate is shown, and refused). An empty kit
 * going to a patient may take any service.
 */
export const MAX_TRANSIT_BUSINESS_DAYS = 2;

/** The parcel a kit shipment is quoted as: a padded box, its weight growing with the kits in it. */
export const KIT_PARCEL = { lengthInches: 10, widthInches: 8, heightInches: 4, boxOunces: 8, ouncesPerKit: 4 } as const;
export const kitParcelOunces = (kits: number) => KIT_PARCEL.boxOunces + KIT_PARCEL.ouncesPerKit * Math.max(1, kits);

/** A shipping rate quoted for a shipment by the shipping service. */
export const ShippingRate = s.object({
  /** The shipping service's id of the rate (a label is bought with it). */
  rateId: s.string,
  carrier: s.string,
  /** The service's code (ups_ground, fedex_2day...). */
  service: s.string,
  /** The service as the carrier names it. */
  label: s.string,
  /** Business days to delivery as the carrier promises them (null: not promised). */
  businessDays: s.nullable(s.integer),
  amountCents: s.integer,
  currency: s.literal('USD'),
  /** True when the rate may be bought (to the lab: it arrives within MAX_TRANSIT_BUSINESS_DAYS). */
  allowed: s.boolean,
  /** The rate the lab uses for the shipment: the one bought, else the cheapest allowed. */
  selected: s.boolean,
});
export type ShippingRate = s.Infer<typeof ShippingRate>;

/** True when a rate may be bought: to a patient any; to the lab one that promises delivery within MAX_TRANSIT_BUSINESS_DAYS. */
export const rateAllowed = (businessDays: number | null, toPatient: boolean) =>
  toPatient || (businessDays !== null && businessDays <= MAX_TRANSIT_BUSINESS_DAYS);

/** Why a rate may not be bought (null when it may). */
export function rateRefusal(rate: { businessDays: number | null; carrier: string; label: string }, toPatient: boolean): string | null {
  if (rateAllowed(rate.businessDays, toPatient)) return null;
  const takes = rate.businessDays === null ? 'promises no delivery date' : `takes ${rate.businessDays} business days`;
  return `${rate.carrier} ${rate.label} ${takes}: specimens must reach the lab within ${MAX_TRANSIT_BUSINESS_DAYS} business days`;
}

/** The rate the lab would choose: the cheapest allowed one (null when none is allowed). */
export function cheapestAllowedRate<R extends { amountCents: number; businessDays: number | null }>(rates: readonly R[], toPatient: boolean): R | null {
  return rates.filter((r) => rateAllowed(r.businessDays, toPatient)).sort((a, b) => a.amountCents - b.amountCents)[0] ?? null;
}

/**
 * The lab's address (LAB_ADDRESS, one line as the lab report prints it) read as a US postal
 * address: "street[, suite], city, ST 12345" (null when it does not read so).
 */
export function parseLabAddress(line: string): PostalAddress | null {
  const parts = line.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length < 3 || parts.length > 4) return null;
  const stateZip = /^([A-Z]{2}) (\d{5}(?:-\d{4})?)$/.exec(parts[parts.length - 1]);
  if (!stateZip) return null;
  return {
    addressLine1: parts[0],
    addressLine2: parts.length === 4 ? parts[1] : null,
    city: parts[parts.length - 2],
    state: stateZip[1],
    postalCode: stateZip[2],
    country: DEFAULT_COUNTRY,
  };
}

/** The carriers' public tracking pages, for a label whose service gave no link of its own. */
const CARRIER_TRACKING_PAGES: Record<string, string> = {
  ups: 'https://www.ups.com/track?tracknum=',
  fedex: 'https://www.fedex.com/fedextrack/?trknbr=',
  usps: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=',
  stamps_com: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=',
  dhl_express: 'https://www.dhl.com/en/express/tracking.html?AWB=',
};

/** The carrier's tracking page of a parcel (null for a carrier whose page we do not know). */
export function carrierTrackingUrl(carrierCode: string, trackingNumber: string): string | null {
  const page = CARRIER_TRACKING_PAGES[carrierCode.toLowerCase()];
  return page ? `${page}${encodeURIComponent(trackingNumber)}` : null;
}
