/** What the patient endpoints answer, as JSON: timestamps are ISO strings and dates of birth YYYY-MM-DD. Types only. */
import type { TimelineEntry } from '../samples/views';

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

/** POST sfpatient/search: a patient of any account, with their samples. */
export interface CrossAccountPatientRow extends PatientSummary {
  /** Null for a patient who orders for themselves (or one the lab registered). */
  account: { id: number; name: string } | null;
  samples: { id: number; barcode: string; status: string }[];
}

export interface CrossAccountPatientSearchAnswer {
  rows: CrossAccountPatientRow[];
  total: number;
}

/** POST admin/patients/search (at most 20). */
export interface AdminPatientOption {
  id: number;
  name: string;
  dateOfBirth: string;
  email: string | null;
  /** Null for a patient who orders for themselves. */
  accountName: string | null;
}
