/** What the result endpoints answer, as JSON: the clinic's lists, the review list, approvals and corrections, the patient's result page. Types only. */
import type { DnaQc } from '../extractions/dna-extraction';
import type { PatientListOrder } from '../patient-orders/views';
import type { SampleStatus } from '../samples/statuses';
import type { DemographicField } from './result-links';
import type { TestResultStatus } from './result-values';
import type { ApprovalGroup } from './review';

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

/** One row of the review list. */
export interface ReviewListRow {
  id: number;
  version: number;
  value: string;
  interpretation: string | null;
  status: string;
  test: string;
  approvalGroup: ApprovalGroup | null;
  sampleId: number;
  barcode: string;
  sampleStatus: string;
  patient: string;
  account: string | null;
  enteredBy: { id: number; name: string };
  enteredAt: string;
  importJobId: number | null;
  importFile: { id: number; name: string } | null;
  plate: { id: number; name: string; well: string; controlsPassed: boolean; controlProblems: string[] } | null;
  correctionReason: string | null;
  releasedValue: string | null;
  /** The sample's DNA state by its newest extraction; null for a DNA extraction's own result. */
  dna: { qc: DnaQc; label: string | null; text: string } | null;
  canApprove: boolean;
  /** Why the caller may not approve it (the release rule's words); null when they may. */
  cannotApprove: string | null;
}

/** One row of the released results list. */
export interface ReleasedResultRow {
  id: number;
  version: number;
  value: string;
  test: string;
  sampleId: number;
  barcode: string;
  sampleStatus: string;
  patient: string;
  account: string | null;
  enteredBy: { id: number; name: string };
  releasedBy: { id: number; name: string } | null;
  releasedAt: string | null;
  correctionReason: string | null;
}

export interface ApprovedResult { resultId: number; barcode: string; test: string; value: string; correction: boolean; sampleStatus: SampleStatus }
/** POST approve-tests-{group} */
export interface ApproveResultsAnswer { approved: ApprovedResult[] }

export interface RejectedResult { resultId: number; barcode: string; test: string; sampleStatus: SampleStatus }
/** POST import-tests-reject */
export interface RejectResultsAnswer { rejected: RejectedResult[] }

/** POST results/correct: the new In Review version of a released result. */
export interface CorrectedResult {
  resultId: number;
  version: number;
  barcode: string;
  test: string;
  value: string;
  releasedValue: string;
  status: TestResultStatus;
}

/** The patient's result as the result page shows it (answered only to a verified session). */
export interface PatientResultView {
  patientName: string;
  barcode: string;
  sampleType: string | null;
  collectedAt: string | null;
  receivedAt: string | null;
  results: {
    testName: string;
    /** The stored value (a risk level, a genotype, a COVID result). */
    value: string;
    /** The value in words for the patient (the COVID result text; otherwise the value). */
    valueText: string;
    releasedAt: string | null;
    corrected: boolean;
    correctionReason: string | null;
    /** The value the correction replaced, when corrected. */
    previousValue: string | null;
  }[];
  reportAvailable: boolean;
  contact: Record<DemographicField, string | null>;
  /** Whom to ask about the result. */
  contacts: ResultContacts;
}

/** Whom a patient asks about a result: the laboratory, and the clinic that ordered the test. */
export interface ResultContacts {
  lab: { name: string; phone: string; email: string };
  /** The ordering clinic, its physician and how to reach them (null when the order has no account). */
  clinic: { name: string; physician: string | null; phone: string | null; email: string | null } | null;
}

/** GET patient-result answer: only first name and last initial until the browser verified the date of birth. */
export interface PatientResultGreeting {
  firstName: string;
  lastInitial: string;
  locked: boolean;
  verified: boolean;
  result?: PatientResultView;
}
