/** What the shipment endpoints of the Clinical Portal answer, as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { ShippingRate } from './shipments';

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
});
export type OrderEventAnswer = s.Infer<typeof OrderEventAnswer>;
