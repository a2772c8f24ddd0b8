/**
 * What the Lab Toolbox's endpoints answer (/api/lab-toolbox/…), as JSON: timestamps are ISO
 * strings. The API's services return these shapes and the SPA reads them; types only (no runtime
 * code, no joi). The request schemas, and the answers that sit beside their rules (IntakeOutcome,
 * ReviewListRow, ReleasedResultRow, the import results), are in lab-schemas.ts.
 */
import type { JobStatus, SampleStatus } from './enums';
import type { LabImportKind, LabImportMode } from './jobs';
import type { ImportCommitResult, ImportDryRunResult } from './lab-schemas';
import type { PcrControlKind } from './pcr-plates';
import type { TestResultStatus } from './record-values';

// ---------------------------------------------------------------------------------------------
// Lab-ordered samples
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// PCR register and resulting
// ---------------------------------------------------------------------------------------------

/** GET pcr/queue: a sample of a plate test (COVID-19 PCR or Rapid) In Queue, waiting for a plate. */
export interface QueuedSample {
  sampleId: number;
  barcode: string;
  sampleType: string | null;
  /** Its plate test (COVID-19 PCR, COVID-19 Rapid). */
  test: string | null;
  receivedAt: string | null;
  collectedAt: string | null;
  /** First name and last initial only ('' when the sample has no patient). */
  patient: string;
}

/** GET pcr/plates: one plate of the list. */
export interface PlateSummary {
  id: number;
  name: string;
  status: string;
  createdBy: { id: number; name: string };
  createdAt: string;
  resultedAt: string | null;
  sampleCount: number;
  controlCount: number;
}

/** One well of a plate: a sample, a re-extraction or a control, and its result once entered. */
export interface PlateWellView {
  well: string;
  label: string;
  kind: 'sample' | PcrControlKind;
  reextraction: boolean;
  sampleId: number | null;
  barcode: string | null;
  patient: string | null;
  /** The plate test its sample is for (COVID-19 PCR, COVID-19 Rapid); null for a control. */
  test: string | null;
  result: string | null;
  resultId: number | null;
  resultStatus: string | null;
}

/** GET pcr/plates/{plateId}, and the answer to registering a plate or entering its results: the list's fields but controlCount, and more. */
export interface PlateView extends Omit<PlateSummary, 'controlCount'> {
  resultedBy: { id: number; name: string } | null;
  /** Only once resulted: whether the controls passed, and what failed. */
  controls: { passed: boolean; problems: string[] } | null;
  wells: PlateWellView[];
}

// ---------------------------------------------------------------------------------------------
// Result-file imports
// ---------------------------------------------------------------------------------------------

/** POST import-files: the stored file and its dry run's job. */
export interface ImportUploadAccepted {
  jobId: number;
  fileId: number;
}

/** POST import-files/{fileId}/commit: the commit's job. */
export interface ImportCommitAccepted {
  jobId: number;
}

/** A finished import job's result; a dry run's errors are cut to IMPORT_ERRORS_INLINE (errorsTruncated). */
export type ImportJobResult = (ImportDryRunResult | ImportCommitResult) & { errorsTruncated?: boolean };

/** GET jobs/{jobId}: an import job as the SPA polls it. */
export interface ImportJob {
  id: number;
  name: string;
  status: JobStatus;
  progress: number;
  error: string | null;
  result: ImportJobResult | null;
  kind: LabImportKind;
  mode: LabImportMode;
  file: { id: number; name: string; sizeBytes: number; uploadedByUserId: number | null } | null;
  createdBy: { id: number; name: string } | null;
  createdAt: string;
  finishedAt: string | null;
}

/** GET import-tests-review?jobId=: one committed import, and where its results stand in review. */
export interface ImportReview {
  jobId: number;
  mode: string;
  kind: string;
  status: JobStatus;
  file: { id: number; name: string } | null;
  importedBy: { id: number; name: string } | null;
  importedAt: string | null;
  /** How many of the import's result versions are in each status. */
  results: Record<TestResultStatus, number>;
  total: number;
}

// ---------------------------------------------------------------------------------------------
// Approve, reject, correct
// ---------------------------------------------------------------------------------------------

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
