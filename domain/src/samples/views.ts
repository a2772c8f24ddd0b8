/** What the sample endpoints answer, as JSON: intake, lab-ordered samples, the LIMS sample calls, a sample's timeline. Types only. */
import type { PatientSummary } from '../patients/views';
import type { LimsCorrectableField } from './schemas';
import type { SampleStatus } from './statuses';

/** One step of a sample's timeline (a status change). */
export interface TimelineEntry {
  id: number;
  at: string;
  from: string | null;
  to: string;
  reason: string | null;
  actor: { kind: string; name: string };
}

/** What intake answers for a kit it received or rejected. */
export interface IntakeOutcome {
  sampleId: number;
  barcode: string;
  tests: string[];
  account: string | null;
  /** First name and last initial only ("John C."). */
  patient: string;
  previousStatus: SampleStatus;
  status: SampleStatus;
  receivedAt: string | null;
  rejectionReason: string | null;
  message: string;
}

/** POST samples/create: the sample the lab registered (In Queue). */
export interface LabSampleCreated {
  sampleId: number;
  barcode: string;
  orderNumber: string;
  test: string;
  status: SampleStatus;
  patientId: number;
  /** First name and last initial only. */
  patient: string;
  receivedAt: string;
}

/** A test of a sample and its newest result version (null before any). */
export interface LimsSampleTest {
  id: number;
  name: string;
  status: string;
  result: { id: number; version: number; value: string; status: string; enteredAt: string; releasedAt: string | null } | null;
}

/** GET lims/sample/{id}: one sample, found by its id or its barcode. */
export interface LimsSampleView {
  id: number;
  barcode: string;
  status: SampleStatus;
  /** While In Storage: the status it goes back to. */
  statusBeforeStorage: string | null;
  sampleType: string | null;
  specimenSource: string | null;
  collectedAt: string | null;
  receivedAt: string | null;
  receivedBy: { id: number; name: string } | null;
  rejectionReason: string | null;
  order: { id: number; orderNumber: string; origin: string; portal: string; orderedAt: string };
  /** Null for a sample of a patient who ordered for themselves, or a lab-ordered one. */
  account: { id: number; name: string } | null;
  physician: { id: number; name: string; npi: string | null } | null;
  /** A research participant has a study id and no name or date of birth. */
  patient: Pick<PatientSummary, 'id' | 'sex'> & { firstName: string | null; lastName: string | null; dateOfBirth: string | null; studyId: string | null };
  tests: LimsSampleTest[];
  timeline: TimelineEntry[];
}

/** POST lims/sample/update: the sample as it is now, and what changed (old and new values). */
export interface LimsSampleUpdated {
  sample: LimsSampleView;
  changes: { field: LimsCorrectableField; from: string | null; to: string | null }[];
}

/** GET lims/sample/auth/{barcode}: before intake, is this a kit the lab issued, to whom, in which status. */
export interface LimsKitAuth {
  barcode: string;
  issued: boolean;
  sampleId: number | null;
  account: { id: number; name: string } | null;
  status: SampleStatus | null;
  tests: string[];
  /** True when intake may receive it now (In Transit or Pending Shipment). */
  receivable: boolean;
  message: string;
}
