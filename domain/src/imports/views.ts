/** What the import endpoints of the Lab Toolbox answer (/api/lab-toolbox/…), as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { ExtractionCommitResult, ExtractionDryRunResult } from '../extractions/dna-extraction';
import { JOB_STATUSES } from '../jobs/jobs';
import { TEST_RESULT_STATUSES } from '../results/result-values';
import { ImportCommitResult, ImportDryRunResult, LAB_IMPORT_KINDS, LAB_IMPORT_MODES } from './imports';

/** POST import-files: the stored file and its dry run's job. */
export const ImportUploadAccepted = s.object({ jobId: s.integer, fileId: s.integer });
export type ImportUploadAccepted = s.Infer<typeof ImportUploadAccepted>;

/** POST import-files/{fileId}/commit: the commit's job. */
export const ImportCommitAccepted = s.object({ jobId: s.integer });
export type ImportCommitAccepted = s.Infer<typeof ImportCommitAccepted>;

/** A finished import job's result; a dry run's errors are cut to IMPORT_ERRORS_INLINE (errorsTruncated). */
const truncated = { errorsTruncated: s.optional(s.boolean) };
export const ImportJobResult = s.union(
  s.extend(ImportDryRunResult, truncated),
  s.extend(ExtractionDryRunResult, truncated),
  s.extend(ImportCommitResult, truncated),
  s.extend(ExtractionCommitResult, truncated),
);
export type ImportJobResult = s.Infer<typeof ImportJobResult>;

/** GET jobs/{jobId}: an import job as the SPA polls it. */
export const ImportJob = s.object({
  id: s.integer,
  name: s.string,
  status: s.oneOf(JOB_STATUSES),
  progress: s.number,
  error: s.nullable(s.string),
  result: s.nullable(ImportJobResult),
  kind: s.oneOf(LAB_IMPORT_KINDS),
  mode: s.oneOf(LAB_IMPORT_MODES),
  file: s.nullable(s.object({ id: s.integer, name: s.string, sizeBytes: s.integer, uploadedByUserId: s.nullable(s.integer) })),
  createdBy: s.nullable(s.object({ id: s.integer, name: s.string })),
  createdAt: s.string,
  finishedAt: s.nullable(s.string),
});
export type ImportJob = s.Infer<typeof ImportJob>;

/** GET import-tests-review?jobId=: one committed import, and where its results stand in review. */
export const ImportReview = s.object({
  jobId: s.integer,
  mode: s.string,
  kind: s.string,
  status: s.oneOf(JOB_STATUSES),
  file: s.nullable(s.object({ id: s.integer, name: s.string })),
  importedBy: s.nullable(s.object({ id: s.integer, name: s.string })),
  importedAt: s.nullable(s.string),
  /** How many of the import's result versions are in each status. */
  results: s.record(TEST_RESULT_STATUSES, s.integer),
  total: s.integer,
});
export type ImportReview = s.Infer<typeof ImportReview>;
