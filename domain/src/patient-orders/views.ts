/** What the patient-ordering calls and the clinic's patient-order lists answer, as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { valuesOf } from '../shared/values';
import { TEST_NAMES } from '../catalogue/tests';
import { ATTESTATION_KEYS } from '../orders/attestations';
import { PAYMENT_METHODS, PAYMENT_STATUSES } from '../payments/payments';
import { PATIENT_PRODUCTS, PatientOrderStage } from './patient-ordering';

const stage = s.oneOf(valuesOf(PatientOrderStage));

/** A patient order as the clinic's Patient-ordered list and its sign-off and cancel commands answer it. */
export const PatientListOrder = s.object({
  orderId: s.integer,
  orderNumber: s.string,
  stage,
  paymentStatus: s.oneOf(PAYMENT_STATUSES),
  paymentMethod: s.nullable(s.oneOf(PAYMENT_METHODS)),
});
export type PatientListOrder = s.Infer<typeof PatientListOrder>;

/**
 * GET patient-orders/{orderId}/possible-match: a patient the account already has with the same
 * name and date of birth as the person who ordered (a self-order never joins an existing record by
 * itself: the signing physician says whether they are the same person).
 */
export const PossiblePatientMatch = s.object({
  patientId: s.integer,
  name: s.string,
  dateOfBirth: s.string,
  /** The contact details on file (the clinic's), kept if they are the same person. */
  email: s.nullable(s.string),
  phone: s.nullable(s.string),
  /** When the record was made. */
  since: s.string,
});
export type PossiblePatientMatch = s.Infer<typeof PossiblePatientMatch>;

/** GET patient-orders/{orderId}/sign-off: what the signing physician reads before signing a patient's order off. */
export const SignOffContext = s.object({
  /** A patient of the account with the same name and date of birth, or null. */
  match: s.nullable(PossiblePatientMatch),
  /** The patient's eligibility answers, question by question. */
  answers: s.array(s.object({ question: s.string, answer: s.string })),
  /** The attestations this order asks for (they follow its payment: attestationsFor). */
  attestations: s.array(s.oneOf(ATTESTATION_KEYS)),
});
export type SignOffContext = s.Infer<typeof SignOffContext>;

/**
 * GET patient-orders/unpaid: a patient's own order naming the account that is not paid yet
 * (Awaiting Payment or Payment Failed, not cancelled). It has no sample and no kit yet, so the
 * Patient-ordered list (samples) does not hold it.
 */
export const UnpaidPatientOrderRow = s.extend(PatientListOrder, {
  product: s.oneOf(PATIENT_PRODUCTS),
  tests: s.array(s.oneOf(TEST_NAMES)),
  /** What the patient is to pay (null until they choose how to pay). */
  priceCents: s.nullable(s.integer),
  /** A card payment was started (a payment intent exists): cancelling the order cancels it at Stripe. */
  cardPaymentStarted: s.boolean,
  mirakind: s.boolean,
  /** When the patient placed the order. */
  orderedAt: s.string,
  patient: s.object({ id: s.integer, firstName: s.string, lastName: s.string, dateOfBirth: s.string }),
});
export type UnpaidPatientOrderRow = s.Infer<typeof UnpaidPatientOrderRow>;

/** GET order/prostox/get-prp-accounts: the clinics a patient may name as their treating provider. */
export const PrpAccountOption = s.object({ id: s.integer, name: s.string });
export type PrpAccountOption = s.Infer<typeof PrpAccountOption>;

export const InvitationPrefill = s.object({
  accountId: s.integer,
  accountName: s.string,
  product: s.oneOf(PATIENT_PRODUCTS),
  email: s.string,
  firstName: s.nullable(s.string),
  lastName: s.nullable(s.string),
});
export type InvitationPrefill = s.Infer<typeof InvitationPrefill>;

/** What the order pages and the complete page show of an order (no name, no date of birth). */
export const PatientOrderSummary = s.object({
  orderNumber: s.string,
  product: s.oneOf(PATIENT_PRODUCTS),
  tests: s.array(s.oneOf(TEST_NAMES)),
  accountName: s.string,
  paymentMethod: s.nullable(s.oneOf(PAYMENT_METHODS)),
  paymentStatus: s.oneOf(PAYMENT_STATUSES),
  stage,
  /** What the patient pays (null until a payment method is chosen; 0 when not charged). */
  priceCents: s.nullable(s.integer),
  /** The tax-deductible donation part on the MiraKind path (20% of the price), else null. */
  donationCents: s.nullable(s.integer),
  mirakind: s.boolean,
  insurancePlanName: s.nullable(s.string),
});
export type PatientOrderSummary = s.Infer<typeof PatientOrderSummary>;

/** POST order/create answer: the summary, and the token this browser keeps to pay and read the order. */
export const CreatedPatientOrder = s.object({ order: PatientOrderSummary, orderToken: s.string });
export type CreatedPatientOrder = s.Infer<typeof CreatedPatientOrder>;

/** POST stripe/create-payment-intent answer. `checkoutUrl` is set when the local Stripe stand-in serves the card page. */
export const PaymentIntentAnswer = s.object({
  paymentIntentId: s.string,
  clientSecret: s.string,
  amountCents: s.integer,
  currency: s.literal('usd'),
  publishableKey: s.string,
  checkoutUrl: s.nullable(s.string),
});
export type PaymentIntentAnswer = s.Infer<typeof PaymentIntentAnswer>;

export const PatientInvitationRow = s.object({
  id: s.integer,
  email: s.string,
  firstName: s.nullable(s.string),
  lastName: s.nullable(s.string),
  product: s.oneOf(PATIENT_PRODUCTS),
  status: s.string,
  expiresAt: s.string,
  lastSentAt: s.nullable(s.string),
  sendCount: s.integer,
  orderNumber: s.nullable(s.string),
  createdBy: s.nullable(s.string),
  createdAt: s.string,
});
export type PatientInvitationRow = s.Infer<typeof PatientInvitationRow>;

/** POST patient/financial-assistance-patient-exists: whether the code names a current grant for this order's patient. */
export const FinancialAssistanceExistsAnswer = s.object({ exists: s.boolean });
export type FinancialAssistanceExistsAnswer = s.Infer<typeof FinancialAssistanceExistsAnswer>;
