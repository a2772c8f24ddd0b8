/** What the import endpoints of the Lab Toolbox answer (/api/lab-toolbox/…), as JSON. Types only. */
import type { JobStatus } from '../jobs/jobs';
import type { TestResultStatus } from '../results/result-values';
import type { ImportCommitResult, ImportDryRunResult, LabImportKind, LabImportMode } from './imports';

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
