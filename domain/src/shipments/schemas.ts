/**
 * Request schemas of shipments: the clinic's samples and shipments, a new shipment, and the
 * shipping service's webhooks.
 */
import Joi from 'joi';
import { EARLIEST_EVENT_DATE } from '../shared/constants';
import { pageFields } from '../shared/schemas';
import { SHIPMENT_MAX_SAMPLES, SHIPPING_ORDER_EVENT_TYPES, ShippingEventType, TRACKING_STATUSES, type TrackingStatus } from './shipments';

const STRICT_KEYS = { allowUnknown: false } as const;

export interface SamplesQuery { unshipped: boolean; page: number; pageSize: number }
/** GET provider-clinic/{accountId}/samples?unshipped=true&page=&pageSize= */
export const samplesQuery = Joi.object<SamplesQuery>({
  unshipped: Joi.boolean().default(false).label('Unshipped'),
  ...pageFields,
}).options(STRICT_KEYS).label('Query');

export interface ShipmentsQuery { page: number; pageSize: number }
/** GET provider-clinic/{accountId}/shipments?page=&pageSize= */
export const shipmentsQuery = Joi.object<ShipmentsQuery>(pageFields).options(STRICT_KEYS).label('Query');

export interface CreateShipmentBody { sampleIds: number[] }
/** POST provider-clinic/{accountId}/shipments/create */
export const createShipmentBody = Joi.object<CreateShipmentBody>({
  sampleIds: Joi.array()
    .items(Joi.number().integer().positive().label('Sample'))
    .min(1)
    .max(SHIPMENT_MAX_SAMPLES)
    .unique()
    .label('Samples')
    .messages({ 'array.min': 'Choose at least one sample to ship', 'array.unique': 'Each sample may be chosen once' })
    .required(),
}).options(STRICT_KEYS).label('Request body');

const eventId = Joi.string().trim().min(1).max(200).label('id').required();
const externalOrderId = Joi.string().trim().min(1).max(100).label('data.externalOrderId').required();

/*
 * Webhook envelopes tolerate keys we do not read (a shipping service adds fields over time);
 * the fields we do read are checked strictly.
 */
export interface ShippingRatesEvent { id: string; type: 'get-shipping-rates'; data: { externalOrderId: string } }
export const shippingRatesEvent = Joi.object<ShippingRatesEvent>({
  id: eventId,
  type: Joi.string().valid(ShippingEventType.GetShippingRates).label('type').required(),
  data: Joi.object({ externalOrderId }).unknown(true).label('data').required(),
}).unknown(true).label('Request body');

export interface ShippingOrderEvent {
  id: string;
  type: (typeof SHIPPING_ORDER_EVENT_TYPES)[number];
  data: {
    externalOrderId: string;
    carrier?: string;
    trackingNumber?: string;
    shippedAt?: Date;
    /** order.tracking: the carrier's status code, what the carrier said, where, and when the scan happened. */
    statusCode?: TrackingStatus;
    description?: string;
    location?: string;
    occurredAt?: Date;
  };
}
const eventTime = (label: string) => Joi.date().iso().min(EARLIEST_EVENT_DATE).label(label);
export const shippingOrderEvent = Joi.object<ShippingOrderEvent>({
  id: eventId,
  type: Joi.string().valid(...SHIPPING_ORDER_EVENT_TYPES).label('type').required(),
  data: Joi.object({
    externalOrderId,
    carrier: Joi.string().trim().min(1).max(100).label('data.carrier'),
    trackingNumber: Joi.string().trim().min(1).max(100).label('data.trackingNumber'),
    shippedAt: eventTime('data.shippedAt'),
    statusCode: Joi.string().valid(...TRACKING_STATUSES).label('data.statusCode'),
    description: Joi.string().trim().min(1).max(500).label('data.description'),
    location: Joi.string().trim().min(1).max(200).label('data.location'),
    occurredAt: eventTime('data.occurredAt'),
  })
    .unknown(true)
    .label('data')
    .required(),
})
  .unknown(true)
  // A tracking event must say where the parcel is and when.
  .when(Joi.object({ type: Joi.valid(ShippingEventType.OrderTracking) }).unknown(), {
    then: Joi.object({ data: Joi.object({ statusCode: Joi.required(), occurredAt: Joi.required() }).unknown(true) }),
  })
  .label('Request body');

export interface PurchaseLabelBody { rateId: string }
/** POST provider-clinic/{accountId}/shipments/{shipmentId}/purchase-label */
export const purchaseLabelBody = Joi.object<PurchaseLabelBody>({
  rateId: Joi.string().trim().min(1).max(100).pattern(/^[\w-]+$/).label('Rate').required()
    .messages({ 'string.pattern.base': '{#label} must be a rate id the shipping service quoted' }),
}).options(STRICT_KEYS).label('Request body');
