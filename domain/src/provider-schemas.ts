/**
 * The Clinical Portal's rules and request schemas: patients (search, exists, create), the clinic's
 * order (tests, physician, sample type, the four ordering attestations of SPEC §5), the result
 * lists and their sort fields, unshipped samples and shipments, the requisition form download,
 * and the shipping service's webhooks. Shared by api (validation), worker (the requisition PDF)
 * and web (forms and labels).
 */
import Joi from 'joi';
import { DEFAULT_PAGE_SIZE, EARLIEST_EVENT_DATE, MAX_PAGE_SIZE } from './constants';
import { canOrderIn, isTestName } from './catalogue';
import { Portal, RESULT_LIST_CATEGORIES, SAMPLE_TYPES, SampleStatus, type ResultListCategory, type SampleType, type TestName } from './enums';
import { dateOfBirthProblem, DATE_OF_BIRTH_MESSAGES } from './date-of-birth';
import { isDataDate } from './identifiers';
import {
  ORDER_ATTESTATIONS, PATIENT_NAME_MAX_LENGTH, PATIENT_SEX_LABELS, PATIENT_SEXES, SHIPMENT_MAX_SAMPLES,
  type Attestations, type PatientSex,
} from './orders';
import type { PatientRecordDetails } from './provider-views';
import { emailSchema } from './schemas';

const STRICT_KEYS = { allowUnknown: false } as const;

/** A date of birth: YYYY-MM-DD, a real calendar date, not before 1900 and not in the future. */
export const patientDateOfBirthSchema = Joi.string()
  .trim()
  .custom((value: string, helpers) => {
    const problem = dateOfBirthProblem(value);
    return problem ? helpers.error(problem) : value;
  })
  .label('Date of birth')
  .messages(DATE_OF_BIRTH_MESSAGES);

const nameSchema = (label: string) =>
  Joi.string()
    .trim()
    .min(1)
    .max(PATIENT_NAME_MAX_LENGTH)
    .pattern(/^[\p{L}\p{M}' .,-]+$/u, 'name')
    .label(label)
    .messages({ 'string.pattern.name': '{#label} may contain letters, spaces, apostrophes, hyphens and periods only' });

/** A patient's first or last name, as a new patient and a correction (LIMS sample update) give it. */
export const patientNameSchema = nameSchema;

/** An optional text field: empty string or null means "not given" (stored as null). */
const optionalText = (label: string, max: number) => Joi.string().trim().max(max).allow('', null).empty(['', null]).default(null).label(label);

export const PATIENT_PHONE_PATTERN = /^\+?[0-9 ().-]{7,20}$/;

/** A new patient as validated (optional fields given as '' or left out are null). */
export interface NewPatientBody extends PatientRecordDetails {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: PatientSex;
  email: string | null;
  phone: string | null;
}

/** POST provider-clinic/{accountId}/patient: a new patient of the account. */
export const newPatientBody = Joi.object<NewPatientBody>({
  firstName: nameSchema('First name').required(),
  lastName: nameSchema('Last name').required(),
  dateOfBirth: patientDateOfBirthSchema.required(),
  sex: Joi.string()
    .valid(...PATIENT_SEXES)
    .label('Sex')
    .messages({ 'any.only': `{#label} must be one of ${PATIENT_SEXES.map((s) => `${s} (${PATIENT_SEX_LABELS[s]})`).join(', ')}` })
    .required(),
  email: emailSchema.allow('', null).empty(['', null]).default(null),
  phone: Joi.string()
    .trim()
    .pattern(PATIENT_PHONE_PATTERN)
    .allow('', null)
    .empty(['', null])
    .default(null)
    .label('Phone')
    .messages({ 'string.pattern.base': '{#label} must be 7 to 20 digits (spaces, dashes, dots, parentheses and a leading + allowed)' }),
  addressLine1: optionalText('Address line 1', 200),
  addressLine2: optionalText('Address line 2', 200),
  city: optionalText('City', 100),
  state: optionalText('State', 100),
  postalCode: optionalText('Postal code', 20),
  country: optionalText('Country', 100),
  medicalRecordNumber: optionalText('Medical record number', 64),
}).options(STRICT_KEYS).label('Request body');

/*
 * The patient exists-check and search are read with POST and a JSON body, not GET and a query
 * string: a patient's name and date of birth stay out of URLs (proxy access logs, browser history).
 */

export interface PatientExistsBody { firstName: string; lastName: string; dateOfBirth: string }
/** POST provider-clinic/{accountId}/patient/exists { firstName, lastName, dateOfBirth } */
export const patientExistsBody = Joi.object<PatientExistsBody>({
  firstName: nameSchema('First name').required(),
  lastName: nameSchema('Last name').required(),
  dateOfBirth: patientDateOfBirthSchema.required(),
}).options(STRICT_KEYS).label('Request body');

export const PATIENT_SEARCH_MAX_LENGTH = 100;

export interface PatientSearchBody { q: string; page: number; pageSize: number }
/** POST provider-clinic/{accountId}/patient/search { q, page?, pageSize? }: q is a name, part of a name, or a date of birth. */
export const patientSearchBody = Joi.object<PatientSearchBody>({
  q: Joi.string().trim().min(1).max(PATIENT_SEARCH_MAX_LENGTH).label('Search').required(),
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
}).options(STRICT_KEYS).label('Request body');

// ---------------------------------------------------------------------------------------------
// Orders
// ---------------------------------------------------------------------------------------------

/** The most tests one clinic order (one kit) may carry. */
export const ORDER_MAX_TESTS = 5;

export interface ClinicOrderBody {
  patientId: number;
  tests: TestName[];
  physicianId: number;
  sampleType: SampleType;
  attestations: Attestations;
}

const attestationSchema = (a: (typeof ORDER_ATTESTATIONS)[number]) =>
  Joi.boolean()
    .strict()
    .valid(true)
    .label(`Attestation of ${a.short}`)
    .messages({
      'any.only': `The attestation of ${a.short} must be confirmed`,
      'any.required': `The attestation of ${a.short} must be confirmed`,
      'boolean.base': `The attestation of ${a.short} must be confirmed`,
    })
    .required();

/** The tests of an order placed in `portal`: catalogue tests that portal may order, each once. */
export const orderTestsSchema = (portal: Portal) =>
  Joi.array()
    .items(
      // A custom rule, not valid(): joi accepts a listed value without running further rules.
      Joi.string()
        .custom((value: string, helpers) => {
          if (!isTestName(value)) return helpers.error('test.unknown');
          return canOrderIn(value, portal) ? value : helpers.error('test.portal');
        })
        .label('Test')
        .messages({
          'test.unknown': '{#value} is not a test of the catalogue',
          'test.portal': `{#value} cannot be ordered in the ${portal}`,
        }),
    )
    .min(1)
    .max(ORDER_MAX_TESTS)
    .unique()
    .label('Tests')
    .messages({ 'array.min': 'Choose at least one test', 'array.unique': 'Each test may be chosen once' });

/** The sample type of an order. */
export const orderSampleTypeSchema = Joi.string()
  .valid(...SAMPLE_TYPES)
  .label('Sample type')
  .messages({ 'any.only': `{#label} must be one of ${SAMPLE_TYPES.join(', ')}` });

/** The ordering attestations an order confirms: those of the list given (every one, each true). */
export const attestationsSchema = (attestations: readonly (typeof ORDER_ATTESTATIONS)[number][]) =>
  Joi.object(Object.fromEntries(attestations.map((a) => [a.key, attestationSchema(a)])))
    .options(STRICT_KEYS)
    .label('Attestations');

/** POST provider-clinic/{accountId}/order */
export const clinicOrderBody = Joi.object<ClinicOrderBody>({
  patientId: Joi.number().integer().positive().label('Patient').required(),
  tests: orderTestsSchema(Portal.Clinical).required(),
  physicianId: Joi.number().integer().positive().label('Physician').required(),
  sampleType: orderSampleTypeSchema.required(),
  attestations: attestationsSchema(ORDER_ATTESTATIONS).required(),
}).options(STRICT_KEYS).label('Request body');

// ---------------------------------------------------------------------------------------------
// Result lists (SPEC §3 result list categories)
// ---------------------------------------------------------------------------------------------

/**
 * Which samples each list holds (status at the time of the query; a sample In Storage counts by
 * the status it had before storage):
 * - PENDING: ordered and not finished: Order Placed .. In Testing.
 * - COMPLETED: finished: Resulted, Completed, Discarded, and Rejected (a rejected sample is
 *   finished too; its row shows the rejection reason and has no report).
 * - PATIENT_ORDERED: every sample whose order the patient placed (origin Patient Ordered), any status.
 * - PENDING_SHIPMENT_FROM_PROVIDER: kits still at the clinic: Order Placed and Pending Shipment.
 */
export const RESULT_LIST_STATUSES: Record<Exclude<ResultListCategory, 'PATIENT_ORDERED'>, readonly SampleStatus[]> = {
  PENDING: [SampleStatus.OrderPlaced, SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue, SampleStatus.InTesting],
  COMPLETED: [SampleStatus.Resulted, SampleStatus.Completed, SampleStatus.Discarded, SampleStatus.Rejected],
  PENDING_SHIPMENT_FROM_PROVIDER: [SampleStatus.OrderPlaced, SampleStatus.PendingShipment],
};

/** The fields a result list can be sorted by. */
export const RESULT_LIST_SORT_FIELDS = ['barcode', 'patientName', 'status', 'orderedAt', 'resultedAt'] as const;
export type ResultListSortField = (typeof RESULT_LIST_SORT_FIELDS)[number];

export interface ResultListQuery {
  category: ResultListCategory;
  page: number;
  pageSize: number;
  sort?: ResultListSortField;
  order?: 'asc' | 'desc';
  /** Only the tests this physician of the account ordered (SPEC §7 tests by physicians). */
  physicianId?: number;
}

/** page and pageSize of a list query. */
export const pageFields = {
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
};
/** asc or desc: which way a list is sorted. */
export const orderField = Joi.string().valid('asc', 'desc').label('Order').messages({ 'any.only': '{#label} must be asc or desc' });

/** GET provider-clinic/{accountId}/tests?category=&page=&pageSize=&sort=&order= */
export const resultListQuery = Joi.object<ResultListQuery>({
  category: Joi.string()
    .valid(...RESULT_LIST_CATEGORIES)
    .label('Category')
    .messages({ 'any.only': `{#label} must be one of ${RESULT_LIST_CATEGORIES.join(', ')}` })
    .required(),
  ...pageFields,
  sort: Joi.string()
    .valid(...RESULT_LIST_SORT_FIELDS)
    .label('Sort')
    .messages({ 'any.only': `{#label} must be one of ${RESULT_LIST_SORT_FIELDS.join(', ')}` }),
  order: orderField,
  physicianId: Joi.number().integer().positive().label('Physician'),
}).options(STRICT_KEYS).label('Query');

// ---------------------------------------------------------------------------------------------
// Samples and shipments
// ---------------------------------------------------------------------------------------------

/**
 * Unshipped samples: kits still at the clinic that no live shipment carries: status Order Placed,
 * or Pending Shipment with no shipment (or only cancelled ones).
 */
export const UNSHIPPED_SAMPLE_STATUSES: readonly SampleStatus[] = [SampleStatus.OrderPlaced, SampleStatus.PendingShipment];

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

export interface RequisitionDownloadQuery { dob?: string }
/** GET sample/{barcode}/pdf_order?dob=YYYY-MM-DD */
export const requisitionDownloadQuery = Joi.object<RequisitionDownloadQuery>({
  dob: Joi.string()
    .custom((value: string, helpers) => (isDataDate(value) ? value : helpers.error('date.format')))
    .label('dob')
    .messages({ 'date.format': '{#label} must be a date written YYYY-MM-DD' }),
}).options(STRICT_KEYS).label('Query');

// ---------------------------------------------------------------------------------------------
// Shipping service webhooks
// ---------------------------------------------------------------------------------------------

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
  data: { externalOrderId: string; carrier?: string; trackingNumber?: string; shippedAt?: Date };
}
export const shippingOrderEvent = Joi.object<ShippingOrderEvent>({
  id: eventId,
  type: Joi.string().valid(...SHIPPING_ORDER_EVENT_TYPES).label('type').required(),
  data: Joi.object({
    externalOrderId,
    carrier: Joi.string().trim().min(1).max(100).label('data.carrier'),
    trackingNumber: Joi.string().trim().min(1).max(100).label('data.trackingNumber'),
    shippedAt: Joi.date().iso().min(EARLIEST_EVENT_DATE).label('data.shippedAt'),
  })
    .unknown(true)
    .label('data')
    .required(),
}).unknown(true).label('Request body');

/** A shipping rate offered for a shipment. */
export interface ShippingRate {
  service: string;
  label: string;
  businessDays: number;
  amountCents: number;
  currency: 'USD';
  /** The rate the lab uses for the shipment (its amount is stored on the shipment). */
  selected: boolean;
}
