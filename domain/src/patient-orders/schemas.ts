/**
 * Patient ordering's request schemas (joi): the answers of each product's eligibility questions,
 * the ordering patient, and the body of every patient-ordering call. The values they check
 * (products, questions, referral sources…) are in patient-ordering.ts and payments/.
 * See docs/patient-ordering-api.md for the endpoints.
 */
import Joi from 'joi';
import { newPatientSmsFields } from '../sms/schemas';
import type { Language } from '../messages';
import { type Attestations, ORDER_ATTESTATIONS } from '../orders/attestations';
import { patientDateOfBirthSchema, patientNameSchema } from '../patients/schemas';
import { AID_CODE_PATTERN } from '../payments/financial-aid';
import { PAYMENT_METHODS, PaymentMethod } from '../payments/payments';
import { optionalAddressFields, phoneSchema, usStateSchema, usZipSchema } from '../shared/addresses';
import { emailSchema, languageSchema, orderField, pageFields } from '../shared/schemas';
import { YES_NO_OTHER } from '../shared/values';
import {
  CANCEL_REASON_MAX_LENGTH, ELIGIBILITY_QUESTIONS, type EligibilityAnswers, INVITATION_ACTIONS, type InvitationAction,
  PATIENT_ORDER_NUMBER_PATTERN, PATIENT_PRODUCTS, type PatientProduct, REFERRAL_OTHER_MAX_LENGTH, REFERRAL_SOURCES,
  type ReferralSource,
} from './patient-ordering';

const STRICT_KEYS = { allowUnknown: false } as const;

/** The joi schema of a product's answers: every question answered, with one of its values, nothing else. */
export function eligibilityAnswersSchema(product: PatientProduct): Joi.ObjectSchema<EligibilityAnswers> {
  const keys: Record<string, Joi.Schema> = {};
  for (const q of ELIGIBILITY_QUESTIONS[product]) {
    const values = q.kind === 'yes-no-other' ? YES_NO_OTHER : q.options.map((o) => o.value);
    keys[q.id] = Joi.string().valid(...values).required().label(q.text).messages({
      'any.only': `The answer to "{#label}" must be one of ${values.join(', ')}`,
      'any.required': 'Answer the question "{#label}"',
    });
  }
  return Joi.object<EligibilityAnswers>(keys).options(STRICT_KEYS).label('Answers');
}

const productSchema = Joi.string().valid(...PATIENT_PRODUCTS).required().label('Product')
  .messages({ 'any.only': `{#label} must be one of ${PATIENT_PRODUCTS.join(', ')}` });

/** Validates { product, answers } with the answers schema of that product. */
const productAnswers = {
  product: productSchema,
  answers: Joi.when('product', {
    switch: PATIENT_PRODUCTS.map((p) => ({ is: p, then: eligibilityAnswersSchema(p).required() })),
    otherwise: Joi.forbidden(),
  }),
};

export interface EligibilityInquiryBody { product: PatientProduct; answers: EligibilityAnswers }
/** POST order/eligibility-inquiry */
export const eligibilityInquiryBody = Joi.object<EligibilityInquiryBody>(productAnswers).options(STRICT_KEYS).label('Request body');

// ---------------------------------------------------------------------------------------------
// Request bodies
// ---------------------------------------------------------------------------------------------

const requiredText = (label: string, max: number) => Joi.string().trim().min(1).max(max).required().label(label);

/** The ordering patient: who they are, how to reach them, where the kit goes (US addresses). */
export interface OrderingPatient {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  email: string;
  phone: string | null;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  postalCode: string;
}

export const orderingPatientSchema = Joi.object<OrderingPatient>({
  firstName: patientNameSchema('First name').required(),
  lastName: patientNameSchema('Last name').required(),
  dateOfBirth: patientDateOfBirthSchema.required(),
  email: emailSchema.required(),
  phone: phoneSchema,
  addressLine1: requiredText('Address line 1', 200),
  addressLine2: optionalAddressFields.addressLine2,
  city: requiredText('City', 100),
  state: usStateSchema.required(),
  postalCode: usZipSchema.required(),
}).options(STRICT_KEYS).label('Patient');

const orderNumberSchema = Joi.string().trim().pattern(PATIENT_ORDER_NUMBER_PATTERN).required().label('Order number')
  .messages({ 'string.pattern.base': '{#label} must be RPD followed by 10 digits' });
const orderTokenSchema = Joi.string().trim().pattern(/^[A-Za-z0-9_-]{20,200}$/).required().label('Order token')
  .messages({ 'string.pattern.base': '{#label} is not a valid order token' });
const invitationTokenSchema = Joi.string().trim().pattern(/^[A-Za-z0-9_-]{20,200}$/).label('Invitation token')
  .messages({ 'string.pattern.base': '{#label} is not a valid invitation token' });

export interface CreatePatientOrderBody {
  product: PatientProduct;
  answers: EligibilityAnswers;
  patient: OrderingPatient;
  /** The treating provider's account, one of order/prostox/get-prp-accounts (or the clinic's own on the MiraKind path). */
  accountId: number;
  invitationToken: string | null;
  /** Started from /provider-clinic/{accountId}/{product}-through-mirakind. */
  mirakind: boolean;
  /** The unpaid order this browser started before and is replacing: it is cancelled with this one's creation. */
  replaces?: PatientOrderKey | null;
  /** The language the order page was in: stored with the patient, their emails are written in it. */
  language: Language;
  /** A mobile number for texts (E.164 once read) and whether the patient wants them (docs/sms.md). */
  mobilePhone: string | null;
  smsConsent: boolean;
}

/** POST order/create: the order, waiting for payment. Eligibility is checked again on the server. */
export const createPatientOrderBody = Joi.object<CreatePatientOrderBody>({
  ...productAnswers,
  patient: orderingPatientSchema.required(),
  accountId: Joi.number().integer().positive().required().label('Treating provider'),
  invitationToken: invitationTokenSchema.allow(null).default(null),
  mirakind: Joi.boolean().default(false).label('MiraKind'),
  language: languageSchema.default('en'),
  ...newPatientSmsFields,
  replaces: Joi.object({ orderNumber: orderNumberSchema, orderToken: orderTokenSchema }).options(STRICT_KEYS).allow(null).default(null).label('The order replaced'),
}).options(STRICT_KEYS).label('Request body');

/** The order number and the token the ordering browser holds: the only way to act on an order without signing in. */
export interface PatientOrderKey { orderNumber: string; orderToken: string }
const orderKey = { orderNumber: orderNumberSchema, orderToken: orderTokenSchema };

export const patientOrderKeyBody = Joi.object<PatientOrderKey>(orderKey).options(STRICT_KEYS).label('Request body');

export interface SetReferralSourceBody extends PatientOrderKey { referralSource: ReferralSource; referralOther: string | null }
/** POST order/set-referral-source */
export const setReferralSourceBody = Joi.object<SetReferralSourceBody>({
  ...orderKey,
  referralSource: Joi.string().valid(...REFERRAL_SOURCES).required().label('How you heard about the test')
    .messages({ 'any.only': `{#label} must be one of ${REFERRAL_SOURCES.join(', ')}` }),
  referralOther: Joi.when('referralSource', {
    is: 'Other',
    then: Joi.string().trim().min(1).max(REFERRAL_OTHER_MAX_LENGTH).required(),
    otherwise: Joi.valid(null, '').empty(['', null]).default(null),
  }).label('Where you heard about the test'),
}).options(STRICT_KEYS).label('Request body');

/** The assistance code the patient typed: checked in its normalised form (normalizeAidCode). */
const assistanceCodeSchema = Joi.string().trim().uppercase().replace(/[\s-]/g, '').pattern(AID_CODE_PATTERN).label('Assistance code')
  .messages({ 'string.pattern.base': '{#label} must be the 10 letters and digits from the email of the financial assistance program (for example ABCDE-23456)' });

export interface SetPaymentBody extends PatientOrderKey {
  method: PaymentMethod;
  insurancePlanId: number | null;
  insuranceMemberId: string | null;
  /** With Financial Assistance: the code the program's approval email gave the patient. */
  assistanceCode?: string | null;
}
/** POST order/set-payment: how the patient pays; insurance moves the order on at once. */
export const setPaymentBody = Joi.object<SetPaymentBody>({
  ...orderKey,
  method: Joi.string().valid(...PAYMENT_METHODS).required().label('Payment method')
    .messages({ 'any.only': `{#label} must be one of ${PAYMENT_METHODS.join(', ')}` }),
  insurancePlanId: Joi.when('method', {
    is: PaymentMethod.Insurance,
    then: Joi.number().integer().positive().required(),
    otherwise: Joi.valid(null).default(null),
  }).label('Insurance plan'),
  insuranceMemberId: Joi.when('method', {
    is: PaymentMethod.Insurance,
    then: Joi.string().trim().pattern(/^[A-Za-z0-9-]{3,40}$/).required()
      .messages({ 'string.pattern.base': '{#label} must be 3 to 40 letters, digits or dashes' }),
    otherwise: Joi.valid(null, '').empty(['', null]).default(null),
  }).label('Member ID'),
  assistanceCode: Joi.when('method', {
    is: PaymentMethod.FinancialAssistance,
    then: assistanceCodeSchema.required(),
    otherwise: Joi.valid(null, '').empty(['', null]).default(null),
  }).label('Assistance code'),
}).options(STRICT_KEYS).label('Request body');

export interface FinancialAssistanceExistsBody extends PatientOrderKey { assistanceCode: string }
/**
 * POST patient/financial-assistance-patient-exists: whether the code applies to the person of the
 * caller's own order (its key), throttled per address. It answers nothing about a bare name.
 */
export const financialAssistanceExistsBody = Joi.object<FinancialAssistanceExistsBody>({
  ...orderKey,
  assistanceCode: assistanceCodeSchema.required(),
}).options(STRICT_KEYS).label('Request body');

export interface InvitationLookupBody { invitationToken: string }
/** POST order/invitation: what an invitation link prefills (refused once used, cancelled or expired). */
export const invitationLookupBody = Joi.object<InvitationLookupBody>({ invitationToken: invitationTokenSchema.required() })
  .options(STRICT_KEYS).label('Request body');

// Clinic side ----------------------------------------------------------------------------------

export interface CreateInvitationBody {
  email: string;
  firstName: string | null;
  lastName: string | null;
  product: PatientProduct;
}
/** POST provider-clinic/{accountId}/patient/invitations/create */
export const createInvitationBody = Joi.object<CreateInvitationBody>({
  email: emailSchema.required(),
  firstName: patientNameSchema('First name').allow('', null).empty(['', null]).default(null),
  lastName: patientNameSchema('Last name').allow('', null).empty(['', null]).default(null),
  product: productSchema,
}).options(STRICT_KEYS).label('Request body');

export interface UpdateInvitationBody { id: number; action: InvitationAction }
/** POST provider-clinic/{accountId}/patient/invitations/update: resend (a new link, the old one stops working) or cancel. */
export const updateInvitationBody = Joi.object<UpdateInvitationBody>({
  id: Joi.number().integer().positive().required().label('Invitation'),
  action: Joi.string().valid(...INVITATION_ACTIONS).required().label('Action')
    .messages({ 'any.only': `{#label} must be one of ${INVITATION_ACTIONS.join(', ')}` }),
}).options(STRICT_KEYS).label('Request body');

/** The signing physician's answer about an existing patient of the account with the same name and date of birth. */
export interface PatientMatchDecision { patientId: number; samePerson: boolean }
export interface SignOffPatientOrderBody { attestations: Attestations; patientMatch?: PatientMatchDecision | null }
/** POST provider-clinic/{accountId}/patient-orders/{orderId}/sign-off: a physician of the account, the four attestations of SPEC §5. */
export const signOffPatientOrderBody = Joi.object<SignOffPatientOrderBody>({
  // Which apply follows the order's payment (attestationsFor): the sign-off checks that each is confirmed.
  attestations: Joi.object(Object.fromEntries(ORDER_ATTESTATIONS.map((a) => [
    a.key,
    Joi.boolean().valid(true).label(`The attestation of ${a.short}`).messages({ 'any.only': '{#label} must be confirmed' }),
  ]))).options(STRICT_KEYS).required().label('Attestations'),
  // Asked only when the order's patient may be a patient the account already has (possible-match).
  patientMatch: Joi.object({
    patientId: Joi.number().integer().positive().required().label('The matching patient'),
    samePerson: Joi.boolean().required().label('Whether they are the same person'),
  }).options(STRICT_KEYS).allow(null).default(null).label('Patient match'),
}).options(STRICT_KEYS).label('Request body');

export interface CancelPatientOrderBody { reason: string }
/** POST provider-clinic/{accountId}/patient-orders/{orderId}/cancel: before the kit ships; a paid order is refunded. */
export const cancelPatientOrderBody = Joi.object<CancelPatientOrderBody>({
  reason: Joi.string().trim().min(1).max(CANCEL_REASON_MAX_LENGTH).required().label('Reason'),
}).options(STRICT_KEYS).label('Request body');

/** The fields the clinic's list of unpaid patient orders can be sorted by. */
export const UNPAID_ORDER_SORT_FIELDS = ['orderedAt', 'patientName'] as const;
export type UnpaidOrderSortField = (typeof UNPAID_ORDER_SORT_FIELDS)[number];

export interface UnpaidPatientOrdersQuery { page: number; pageSize: number; sort?: UnpaidOrderSortField; order?: 'asc' | 'desc' }
/** GET provider-clinic/{accountId}/patient-orders/unpaid?page=&pageSize=&sort=&order= (newest first by default). */
export const unpaidPatientOrdersQuery = Joi.object<UnpaidPatientOrdersQuery>({
  ...pageFields,
  sort: Joi.string().valid(...UNPAID_ORDER_SORT_FIELDS).label('Sort')
    .messages({ 'any.only': `{#label} must be one of ${UNPAID_ORDER_SORT_FIELDS.join(', ')}` }),
  order: orderField,
}).options(STRICT_KEYS).label('Query');
