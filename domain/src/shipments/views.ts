/** What the shipment endpoints of the Clinical Portal answer, as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { ShippingRate, TRACKING_STATUSES } from './shipments';

/** GET samples: one of the account's samples. */
export const SampleRow = s.object({
  sampleId: s.integer,
  barcode: s.string,
  status: s.string,
  sampleType: s.nullable(s.string),
  tests: s.array(s.string),
  orderNumber: s.string,
  orderedAt: s.string,
  patient: s.object({ id: s.integer, firstName: s.string, lastName: s.string, dateOfBirth: s.string }),
  physician: s.nullable(s.object({ id: s.integer, name: s.string })),
  requisitionForm: s.boolean,
  /** The live (not cancelled) shipment carrying the sample, if any. */
  shipment: s.nullable(s.object({ id: s.integer, externalOrderId: s.nullable(s.string), status: s.string })),
});
export type SampleRow = s.Infer<typeof SampleRow>;

/** One carrier scan of a shipment's parcel, as the shipping service reported it. */
export const TrackingEventView = s.object({
  at: s.string,
  statusCode: s.oneOf(TRACKING_STATUSES),
  description: s.nullable(s.string),
  location: s.nullable(s.string),
});
export type TrackingEventView = s.Infer<typeof TrackingEventView>;

/** Where a shipment's parcel is: the carrier's tracking number and link, its last status, and the delivery. */
export const ShipmentTracking = s.object({
  carrier: s.nullable(s.string),
  trackingNumber: s.nullable(s.string),
  /** The carrier's tracking page (null when the service gave none). */
  trackingUrl: s.nullable(s.string),
  trackingStatus: s.nullable(s.oneOf(TRACKING_STATUSES)),
  deliveredAt: s.nullable(s.string),
  /** A kit on its way to a patient (from the lab), not a clinic's kits on their way to the lab. */
  toPatient: s.boolean,
});
export type ShipmentTracking = s.Infer<typeof ShipmentTracking>;

/** A shipment's tracking columns as SQL reads them (the shipments list and a sample's card both select them). */
export interface TrackingColumns {
  carrier: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  tracking_status: string | null;
  delivered_at: Date | string | null;
  to_patient: boolean;
}

export function shipmentTracking(r: TrackingColumns): ShipmentTracking {
  return {
    carrier: r.carrier,
    trackingNumber: r.tracking_number,
    trackingUrl: r.tracking_url,
    trackingStatus: r.tracking_status as ShipmentTracking['trackingStatus'],
    deliveredAt: r.delivered_at ? new Date(r.delivered_at).toISOString() : null,
    toPatient: r.to_patient,
  };
}

/** GET shipments, POST shipments/create: a kit shipment and what it carries. */
export const ShipmentView = s.object({
  id: s.integer,
  externalOrderId: s.nullable(s.string),
  status: s.string,
  carrier: s.nullable(s.string),
  trackingNumber: s.nullable(s.string),
  rateCents: s.nullable(s.integer),
  shippedAt: s.nullable(s.string),
  createdAt: s.string,
  createdBy: s.nullable(s.string),
  samples: s.array(s.object({ id: s.integer, barcode: s.string, status: s.string })),
  /** How many document items (requisition forms) the shipment carries. */
  documents: s.integer,
  /** The carrier's service of the bought label (null before one is bought). */
  service: s.nullable(s.string),
  /** A carrier label (PDF) was bought for it: GET shipments/{id}/carrier-label downloads it. */
  carrierLabel: s.boolean,
  /** A label may be bought now (Ready to Ship, none bought yet). */
  labelPurchasable: s.boolean,
  tracking: ShipmentTracking,
  /** Every carrier scan, oldest first. */
  trackingEvents: s.array(TrackingEventView),
});
export type ShipmentView = s.Infer<typeof ShipmentView>;

/** The shipping service's rates webhook: received (once: a repeated event id is a duplicate) and the rates offered. */
export const RatesAnswer = s.object({
  received: s.literal(true),
  duplicate: s.optional(s.literal(true)),
  externalOrderId: s.string,
  rates: s.array(ShippingRate),
});
export type RatesAnswer = s.Infer<typeof RatesAnswer>;

/** The shipping service's order webhook: received, and where the shipment and its samples went. */
export const OrderEventAnswer = s.object({
  received: s.literal(true),
  duplicate: s.optional(s.literal(true)),
  shipment: s.optional(s.object({ externalOrderId: s.string, status: s.string })),
  samplesInTransit: s.optional(s.array(s.string)),
  /** order.tracking: the parcel's status now (the latest scan's), and when it was delivered. */
  tracking: s.optional(s.object({ status: s.nullable(s.oneOf(TRACKING_STATUSES)), deliveredAt: s.nullable(s.string) })),
});
export type OrderEventAnswer = s.Infer<typeof OrderEventAnswer>;

/** POST shipments/{id}/rates: the shipping service's rates for the shipment, from and to where. */
export const ShipmentRatesAnswer = s.object({
  shipmentId: s.integer,
  /** The addresses the parcel would go between, as one line each. */
  shipFrom: s.string,
  shipTo: s.string,
  rates: s.array(ShippingRate),
});
export type ShipmentRatesAnswer = s.Infer<typeof ShipmentRatesAnswer>;
