/** What the patient-ordering calls and the clinic's patient-order lists answer, as JSON. Types only. */
import type { TestName } from '../catalogue/tests';
import type { AttestationKey } from '../orders/attestations';
import type { PaymentMethod, PaymentStatus } from '../payments/payments';
import type { PatientOrderStage, PatientProduct } from './patient-ordering';

/** A patient order as the clinic's Patient-ordered list and its sign-off and cancel commands answer it. */
export interface PatientListOrder {
  orderId: number;
  orderNumber: string;
  stage: PatientOrderStage;
  paymentStatus: PaymentStatus;
  paymentMethod: PaymentMethod | null;
}

/**
 * GET patient-orders/{orderId}/possible-match: a patient the account already has with the same
 * name and date of birth as the person who ordered (a self-order never joins an existing record by
 * itself: the signing physician says whether they are the same person).
 */
export interface PossiblePatientMatch {
  patientId: number;
  name: string;
  dateOfBirth: string;
  /** The contact details on file (the clinic's), kept if they are the same person. */
  email: string | null;
  phone: string | null;
  /** When the record was made. */
  since: string;
}

/** GET patient-orders/{orderId}/sign-off: what the signing physician reads before signing a patient's order off. */
export interface SignOffContext {
  /** A patient of the account with the same name and date of birth, or null. */
  match: PossiblePatientMatch | null;
  /** The patient's eligibility answers, question by question. */
  answers: { question: string; answer: string }[];
  /** The attestations this order asks for (they follow its payment: attestationsFor). */
  attestations: AttestationKey[];
}

/**
 * GET patient-orders/unpaid: a patient's own order naming the account that is not paid yet
 * (Awaiting Payment or Payment Failed, not cancelled). It has no sample and no kit yet, so the
 * Patient-ordered list (samples) does not hold it.
 */
export interface UnpaidPatientOrderRow extends PatientListOrder {
  product: PatientProduct;
  tests: TestName[];
  /** What the patient is to pay (null until they choose how to pay). */
  priceCents: number | null;
  /** A card payment was started (a payment intent exists): cancelling the order cancels it at Stripe. */
  cardPaymentStarted: boolean;
  mirakind: boolean;
  /** When the patient placed the order. */
  orderedAt: string;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string };
}

/** GET order/prostox/get-prp-accounts: the clinics a patient may name as their treating provider. */
export interface PrpAccountOption { id: number; name: string }

export interface InvitationPrefill {
  accountId: number;
  accountName: string;
  product: PatientProduct;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/** What the order pages and the complete page show of an order (no name, no date of birth). */
export interface PatientOrderSummary {
  orderNumber: string;
  product: PatientProduct;
  tests: TestName[];
  accountName: string;
  paymentMethod: PaymentMethod | null;
  paymentStatus: PaymentStatus;
  stage: PatientOrderStage;
  /** What the patient pays (null until a payment method is chosen; 0 when not charged). */
  priceCents: number | null;
  /** The tax-deductible donation part on the MiraKind path (20% of the price), else null. */
  donationCents: number | null;
  mirakind: boolean;
  insurancePlanName: string | null;
}

/** POST order/create answer: the summary, and the token this browser keeps to pay and read the order. */
export interface CreatedPatientOrder { order: PatientOrderSummary; orderToken: string }

/** POST stripe/create-payment-intent answer. `checkoutUrl` is set when the local Stripe stand-in serves the card page. */
export interface PaymentIntentAnswer {
  paymentIntentId: string;
  clientSecret: string;
  amountCents: number;
  currency: 'usd';
  publishableKey: string;
  checkoutUrl: string | null;
}

export interface PatientInvitationRow {
  id: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
  product: PatientProduct;
  status: string;
  expiresAt: string;
  lastSentAt: string | null;
  sendCount: number;
  orderNumber: string | null;
  createdBy: string | null;
  createdAt: string;
}
