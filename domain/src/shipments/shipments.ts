/**
 * Kit shipments: their statuses and items, what one may carry, the clinic's unshipped samples, and
 * the shipping service's webhooks. Plain values, no joi.
 */
import { SampleStatus } from '../samples/statuses';
import { MAX_PAGE_SIZE } from '../shared/constants';
import * as s from '../shared/shapes';
import { valuesOf } from '../shared/values';

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
} as const;
export type ShippingEventType = (typeof ShippingEventType)[keyof typeof ShippingEventType];
export const SHIPPING_ORDER_EVENT_TYPES = [ShippingEventType.OrderShipped, ShippingEventType.OrderCancelled, ShippingEventType.OrderOnHold] as const;

/** A shipping rate offered for a shipment. */
export const ShippingRate = s.object({
  service: s.string,
  label: s.string,
  businessDays: s.integer,
  amountCents: s.integer,
  currency: s.literal('USD'),
  /** The rate the lab uses for the shipment (its amount is stored on the shipment). */
  selected: s.boolean,
});
export type ShippingRate = s.Infer<typeof ShippingRate>;
