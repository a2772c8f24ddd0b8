/** What the sample endpoints answer, as JSON (intake, lab-ordered samples, the LIMS sample calls): answer shapes (shared/shapes.ts), each a type too. The timeline is timeline.ts. */
import * as s from '../shared/shapes';
import { PatientSummary } from '../patients/views';
import { LIMS_CORRECTABLE_FIELDS } from './schemas';
import { SAMPLE_STATUSES } from './statuses';
import { TimelineEntry } from './timeline';

const status = s.oneOf(SAMPLE_STATUSES);
const Person = s.object({ id: s.integer, name: s.string });
const Account = s.object({ id: s.integer, name: s.string });

/** What intake answers for a kit it received or rejected. */
export const IntakeOutcome = s.object({
  sampleId: s.integer,
  barcode: s.string,
  tests: s.array(s.string),
  account: s.nullable(s.string),
  /** First name and last initial only ("John C."). */
  patient: s.string,
  previousStatus: status,
  status,
  receivedAt: s.nullable(s.string),
  rejectionReason: s.nullable(s.string),
  /** What intake recorded of the specimen (null for a sample rejected after intake without one). */
  condition: s.nullable(s.string),
  collectedAt: s.nullable(s.string),
  message: s.string,
});
export type IntakeOutcome = s.Infer<typeof IntakeOutcome>;

/**
 * GET intake/kits/{barcode}: a scanned kit as the technician checks it before receiving it: its
 * tests, account, status, the requisition's patient (name and date of birth, or a study id) and
 * the collection time the order gave. The lab's own screen: the full name is shown.
 */
export const IntakeKit = s.object({
  sampleId: s.integer,
  barcode: s.string,
  tests: s.array(s.string),
  account: s.nullable(s.string),
  status,
  /** True when intake may receive or reject it now (In Transit or Pending Shipment). */
  receivable: s.boolean,
  /** Why it cannot be received now (null when it can). */
  problem: s.nullable(s.string),
  sampleType: s.nullable(s.string),
  /** When the order was placed: no collection before it (see collectionTimeProblem). */
  orderedAt: s.string,
  /** The collection time the order gave (null: intake asks for it). */
  collectedAt: s.nullable(s.string),
  /** The requisition's patient, to confirm against the tube; null for a kit without a requisition. */
  requisition: s.nullable(s.object({
    firstName: s.nullable(s.string),
    lastName: s.nullable(s.string),
    dateOfBirth: s.nullable(s.string),
    studyId: s.nullable(s.string),
  })),
});
export type IntakeKit = s.Infer<typeof IntakeKit>;

/** POST samples/create: the sample the lab registered (In Queue). */
export const LabSampleCreated = s.object({
  sampleId: s.integer,
  barcode: s.string,
  orderNumber: s.string,
  test: s.string,
  status,
  patientId: s.integer,
  /** First name and last initial only. */
  patient: s.string,
  receivedAt: s.string,
});
export type LabSampleCreated = s.Infer<typeof LabSampleCreated>;

/** A test of a sample and its newest result version (null before any). */
export const LimsSampleTest = s.object({
  id: s.integer,
  name: s.string,
  status: s.string,
  result: s.nullable(s.object({ id: s.integer, version: s.integer, value: s.string, status: s.string, enteredAt: s.string, releasedAt: s.nullable(s.string) })),
});
export type LimsSampleTest = s.Infer<typeof LimsSampleTest>;

/** GET lims/sample/{id}: one sample, found by its id or its barcode. */
export const LimsSampleView = s.object({
  id: s.integer,
  barcode: s.string,
  status,
  /** While In Storage: the status it goes back to. */
  statusBeforeStorage: s.nullable(s.string),
  sampleType: s.nullable(s.string),
  specimenSource: s.nullable(s.string),
  collectedAt: s.nullable(s.string),
  receivedAt: s.nullable(s.string),
  receivedBy: s.nullable(Person),
  rejectionReason: s.nullable(s.string),
  order: s.object({ id: s.integer, orderNumber: s.string, origin: s.string, portal: s.string, orderedAt: s.string }),
  /** Null for a sample of a patient who ordered for themselves, or a lab-ordered one. */
  account: s.nullable(Account),
  physician: s.nullable(s.object({ id: s.integer, name: s.string, npi: s.nullable(s.string) })),
  /** A research participant has a study id and no name or date of birth. */
  patient: s.extend(s.pick(PatientSummary, ['id', 'sex']), {
    firstName: s.nullable(s.string),
    lastName: s.nullable(s.string),
    dateOfBirth: s.nullable(s.string),
    studyId: s.nullable(s.string),
  }),
  tests: s.array(LimsSampleTest),
  timeline: s.array(TimelineEntry),
});
export type LimsSampleView = s.Infer<typeof LimsSampleView>;

/** POST lims/sample/update: the sample as it is now, and what changed (old and new values). */
export const LimsSampleUpdated = s.object({
  sample: LimsSampleView,
  changes: s.array(s.object({ field: s.oneOf(LIMS_CORRECTABLE_FIELDS), from: s.nullable(s.string), to: s.nullable(s.string) })),
});
export type LimsSampleUpdated = s.Infer<typeof LimsSampleUpdated>;

/** GET lims/sample/auth/{barcode}: before intake, is this a kit the lab issued, to whom, in which status. */
export const LimsKitAuth = s.object({
  barcode: s.string,
  issued: s.boolean,
  sampleId: s.nullable(s.integer),
  account: s.nullable(Account),
  status: s.nullable(status),
  tests: s.array(s.string),
  /** True when intake may receive it now (In Transit or Pending Shipment). */
  receivable: s.boolean,
  message: s.string,
});
export type LimsKitAuth = s.Infer<typeof LimsKitAuth>;
