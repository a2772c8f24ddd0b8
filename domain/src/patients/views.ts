/** What the patient endpoints answer, as JSON (timestamps are ISO strings and dates of birth YYYY-MM-DD): answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { TimelineEntry } from '../samples/timeline';
import { ShipmentTracking } from '../shipments/views';
import { DiagnosisCodeView } from '../orders/diagnoses';
import { PatientCorrectionView } from './corrections';

/** A patient in search results, and the answer to creating one. */
export const PatientSummary = s.object({
  id: s.integer,
  firstName: s.string,
  lastName: s.string,
  /** YYYY-MM-DD */
  dateOfBirth: s.string,
  sex: s.nullable(s.string),
  email: s.nullable(s.string),
  phone: s.nullable(s.string),
});
export type PatientSummary = s.Infer<typeof PatientSummary>;

/** The optional details of a patient's record (null when not given): what the patient page shows and a new patient may carry. */
export const PatientRecordDetails = s.object({
  addressLine1: s.nullable(s.string),
  addressLine2: s.nullable(s.string),
  city: s.nullable(s.string),
  state: s.nullable(s.string),
  postalCode: s.nullable(s.string),
  country: s.nullable(s.string),
  medicalRecordNumber: s.nullable(s.string),
});
export type PatientRecordDetails = s.Infer<typeof PatientRecordDetails>;

/** POST patient/exists: whether the account already has this person (and which patient). */
export const PatientExistsAnswer = s.object({
  exists: s.boolean,
  patientId: s.optional(s.integer),
});
export type PatientExistsAnswer = s.Infer<typeof PatientExistsAnswer>;

/** POST patient/search: one page of matching patients and how many match in all (also sent as x-total-count). */
export const PatientSearchAnswer = s.object({
  rows: s.array(PatientSummary),
  total: s.integer,
});
export type PatientSearchAnswer = s.Infer<typeof PatientSearchAnswer>;

/** One sample on the patient page, with its tests, timeline and documents. */
export const PatientSampleView = s.object({
  id: s.integer,
  barcode: s.string,
  status: s.string,
  /** While the sample is In Storage: the status its work left it in (what the clinic is shown). */
  statusBeforeStorage: s.nullable(s.string),
  sampleType: s.nullable(s.string),
  rejectionReason: s.nullable(s.string),
  orderNumber: s.string,
  origin: s.string,
  orderedAt: s.string,
  physician: s.nullable(s.object({ id: s.integer, name: s.string, npi: s.nullable(s.string) })),
  tests: s.array(s.object({ id: s.integer, name: s.string, status: s.string })),
  timeline: s.array(TimelineEntry),
  /** The live shipment carrying the sample's kit, with its tracking (null before one is created). */
  shipment: s.nullable(ShipmentTracking),
  documents: s.object({ requisitionForm: s.boolean, labReport: s.boolean }),
  /** A patient's own order not signed off yet: its requisition form comes with the physician's sign-off. */
  requisitionAwaitsSignOff: s.boolean,
  /** The order's ICD-10-CM codes, with the descriptions they had when it was placed. */
  diagnoses: s.array(DiagnosisCodeView),
  /** The clinic may cancel this order now (its own order, not cancelled, the sample not received by the lab). */
  cancellable: s.boolean,
  cancelledAt: s.nullable(s.string),
  cancellationReason: s.nullable(s.string),
});
export type PatientSampleView = s.Infer<typeof PatientSampleView>;

/** GET patient/{patientId}: the patient page. */
export const PatientDetail = s.object({
  patient: s.extend(s.extend(PatientSummary, PatientRecordDetails.props), { createdAt: s.string }),
  samples: s.array(PatientSampleView),
  /** The corrections of the patient's details, newest first (the values before each one are kept there). */
  corrections: s.array(PatientCorrectionView),
});
export type PatientDetail = s.Infer<typeof PatientDetail>;

/** POST sfpatient/search: a patient of any account, with their samples. */
export const CrossAccountPatientRow = s.extend(PatientSummary, {
  /** Null for a patient who orders for themselves (or one the lab registered). */
  account: s.nullable(s.object({ id: s.integer, name: s.string })),
  samples: s.array(s.object({ id: s.integer, barcode: s.string, status: s.string })),
});
export type CrossAccountPatientRow = s.Infer<typeof CrossAccountPatientRow>;

export const CrossAccountPatientSearchAnswer = s.object({
  rows: s.array(CrossAccountPatientRow),
  total: s.integer,
});
export type CrossAccountPatientSearchAnswer = s.Infer<typeof CrossAccountPatientSearchAnswer>;

/** POST admin/patients/search (at most 20). */
export const AdminPatientOption = s.object({
  id: s.integer,
  name: s.string,
  dateOfBirth: s.string,
  email: s.nullable(s.string),
  /** Null for a patient who orders for themselves. */
  accountName: s.nullable(s.string),
});
export type AdminPatientOption = s.Infer<typeof AdminPatientOption>;
