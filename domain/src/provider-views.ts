/**
 * What the Clinical Portal's endpoints answer (/api/provider-clinic/{accountId}/…), as JSON:
 * timestamps are ISO strings and dates of birth YYYY-MM-DD. The API's services return these
 * shapes and the SPA reads them; types only (no runtime code, no joi). The request schemas are
 * in provider-schemas.ts.
 */
import type { ParentTestType, TestName } from './enums';
import type { PatientOrderStage, PatientProduct, PaymentMethod, PaymentStatus } from './patient-ordering';
import type { AttestationKey } from './orders';

// ---------------------------------------------------------------------------------------------
// Patients
// ---------------------------------------------------------------------------------------------

/** A patient in search results, and the answer to creating one. */
export interface PatientSummary {
  id: number;
  firstName: string;
  lastName: string;
  /** YYYY-MM-DD */
  dateOfBirth: string;
  sex: string | null;
  email: string | null;
  phone: string | null;
}

/** The optional details of a patient's record (null when not given): what the patient page shows and a new patient may carry. */
export interface PatientRecordDetails {
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  state: string | null;
  postalCode: string | null;
  country: string | null;
  medicalRecordNumber: string | null;
}

/** POST patient/exists: whether the account already has this person (and which patient). */
export interface PatientExistsAnswer {
  exists: boolean;
  patientId?: number;
}

/** POST patient/search: one page of matching patients and how many match in all (also sent as x-total-count). */
export interface PatientSearchAnswer {
  rows: PatientSummary[];
  total: number;
}

/** One step of a sample's timeline (a status change). */
export interface TimelineEntry {
  id: number;
  at: string;
  from: string | null;
  to: string;
  reason: string | null;
  actor: { kind: string; name: string };
}

/** One sample on the patient page, with its tests, timeline and documents. */
export interface PatientSampleView {
  id: number;
  barcode: string;
  status: string;
  /** While the sample is In Storage: the status its work left it in (what the clinic is shown). */
  statusBeforeStorage: string | null;
  sampleType: string | null;
  rejectionReason: string | null;
  orderNumber: string;
  origin: string;
  orderedAt: string;
  physician: { id: number; name: string; npi: string | null } | null;
  tests: { id: number; name: string; status: string }[];
  timeline: TimelineEntry[];
  documents: { requisitionForm: boolean; labReport: boolean };
  /** A patient's own order not signed off yet: its requisition form comes with the physician's sign-off. */
  requisitionAwaitsSignOff: boolean;
}

/** GET patient/{patientId}: the patient page. */
export interface PatientDetail {
  patient: PatientSummary & PatientRecordDetails & { createdAt: string };
  samples: PatientSampleView[];
}

// ---------------------------------------------------------------------------------------------
// Ordering
// ---------------------------------------------------------------------------------------------

/** GET physicians: the account's physicians. */
export interface PhysicianOption {
  id: number;
  firstName: string;
  lastName: string;
  name: string;
  npi: string | null;
  specialty: string | null;
  /** This physician is the signed-in user (their physician record): the order form pre-selects them. */
  isCaller: boolean;
}

/** GET tests/catalogue: a test the Clinical Portal may order. */
export interface CatalogueOption {
  name: TestName;
  parentType: ParentTestType | null;
  research: boolean;
}

/** POST order: the order placed, its sample (a new kit) and the requisition form being rendered. */
export interface CreatedOrder {
  order: { id: number; orderNumber: string; createdAt: string; origin: string; portal: string };
  sample: { id: number; barcode: string; status: string; sampleType: string };
  tests: { id: number; name: string }[];
  patientId: number;
  physicianId: number;
  requisitionForm: { url: string; jobId: number };
}

// ---------------------------------------------------------------------------------------------
// Result lists, samples and shipments
// ---------------------------------------------------------------------------------------------

/** GET tests?category=…: one row of a result list. */
export interface ResultListRow {
  sampleId: number;
  barcode: string;
  status: string;
  /** For a sample In Storage: the status it had before. */
  statusBeforeStorage: string | null;
  rejectionReason: string | null;
  sampleType: string | null;
  tests: string[];
  orderId: number;
  orderNumber: string;
  origin: string;
  orderedAt: string;
  /** When the result was released (Resulted) or the sample rejected; null before. */
  resultedAt: string | null;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string };
  physician: { id: number; name: string } | null;
  /** A released lab report can be downloaded. */
  reportAvailable: boolean;
  /** A patient's own order (origin Patient Ordered): where it stands; null for clinic orders. */
  patientOrder: PatientListOrder | null;
}

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

/** GET samples: one of the account's samples. */
export interface SampleRow {
  sampleId: number;
  barcode: string;
  status: string;
  sampleType: string | null;
  tests: string[];
  orderNumber: string;
  orderedAt: string;
  patient: { id: number; firstName: string; lastName: string; dateOfBirth: string };
  physician: { id: number; name: string } | null;
  requisitionForm: boolean;
  /** The live (not cancelled) shipment carrying the sample, if any. */
  shipment: { id: number; externalOrderId: string | null; status: string } | null;
}

/** GET shipments, POST shipments/create: a kit shipment and what it carries. */
export interface ShipmentView {
  id: number;
  externalOrderId: string | null;
  status: string;
  carrier: string | null;
  trackingNumber: string | null;
  rateCents: number | null;
  shippedAt: string | null;
  createdAt: string;
  createdBy: string | null;
  samples: { id: number; barcode: string; status: string }[];
  /** How many document items (requisition forms) the shipment carries. */
  documents: number;
}
