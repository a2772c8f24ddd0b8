/**
 * The Lab Toolbox's endpoints (/api/lab-toolbox/…): intake, lab-ordered samples, PCR plates,
 * result-file uploads (raw body) and their jobs (polled while Pending), the review list and the
 * approve / reject / correct commands (approve and correct signed by the user's password), and the questions the lab asks a patient about a sample
 * (docs/registry-and-follow-ups.md; the clinic's side is in follow-ups.ts).
 */
import useSWR from 'swr';
import type {
  ApprovalGroup, ApproveResultsAnswer, ApproveResultsBody, CorrectedResult, CorrectResultBody, CovidPcrResult, FollowUpView, ImportCommitAccepted, ImportError, ImportJob,
  ImportJobResult, ImportReview, ImportUploadAccepted, IntakeKit, IntakeOutcome, LabImportKind, LabSampleCreateBody, LabSampleCreated, PcrPlateBody,
  NewSampleFollowUpBody, PlateSummary, PlateView, PlateWellView, QueuedSample, RejectResultsAnswer, RejectResultsBody, RejectionReason,
  ReleasedResultRow, ReviewListRow,
} from '@platform/domain';
import { API_PREFIX, ApiError, apiFetch, apiUpload, queryString } from './fetcher';
import { useApiPage, withErrorHeading, useApiQuery, useRefreshApi } from './query';

const BASE = '/lab-toolbox';
export const labApiPath = (path: string) => `${BASE}/${path}`;

const query = queryString;

// ---------------------------------------------------------------------------------------------
// Shapes the API answers
// ---------------------------------------------------------------------------------------------

// Declared once in domain/ (lab-views.ts, lab-schemas.ts): the API's services return them.
export type {
  ApproveResultsAnswer, CorrectedResult, ImportCommitAccepted, ImportError, ImportJob, ImportJobResult, ImportReview, ImportUploadAccepted,
  IntakeKit, IntakeOutcome, LabSampleCreated, PlateSummary, PlateView as Plate, PlateWellView as PlateWell, QueuedSample, RejectResultsAnswer,
  ReleasedResultRow, ReviewListRow,
};

// ---------------------------------------------------------------------------------------------
// Paginated lists: rows plus x-total-count
// ---------------------------------------------------------------------------------------------

function usePage<T>(path: string | null, errorHeading: string) {
  return useApiPage<T>(path, { errorHeading });
}

/** After a command: every cached Lab Toolbox read is stale. */
export const useRefreshLab = () => useRefreshApi(BASE);

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

/** The review list's filters (each left out when empty). */
export type ReviewFilters = {
  group?: ApprovalGroup | null;
  jobId?: number | null;
  plateId?: number | null;
  barcode?: string | null;
  test?: string | null;
  enteredBy?: number | null;
};

export const useReviewList = (params: { page: number; pageSize: number } & ReviewFilters) =>
  usePage<ReviewListRow>(labApiPath(`get-review-list?${query(params)}`), 'Error retrieving results for review');

export const useReleasedToxicityResults = (params: { page: number; pageSize: number; barcode?: string }) =>
  usePage<ReleasedResultRow>(labApiPath(`get-cancer-toxicity-results?${query(params)}`), 'Error retrieving released results');

export const usePcrQueue = (params: { page: number; pageSize: number }) =>
  usePage<QueuedSample>(labApiPath(`pcr/queue?${query(params)}`), 'Error retrieving samples waiting for PCR');

export const usePcrPlates = (params: { page: number; pageSize: number; status?: string }) =>
  usePage<PlateSummary>(labApiPath(`pcr/plates?${query(params)}`), 'Error retrieving PCR plates');

export const usePcrPlate = (plateId: number | null) =>
  useApiQuery<PlateView>(plateId ? labApiPath(`pcr/plates/${plateId}`) : null, { errorHeading: 'Error retrieving the PCR plate' });

export const useImportReview = (jobId: number | null) =>
  useApiQuery<ImportReview>(jobId ? labApiPath(`import-tests-review?${query({ jobId })}`) : null, { errorHeading: 'Error retrieving the import' });

/** Where a sample's follow-ups are read (every account's sample: the lab sees them all). */
export const sampleFollowUpsPath = (sampleId: number) => labApiPath(`sample/${sampleId}/follow-ups`);

/** The follow-ups of one sample (the questions asked of its patient, registry surveys), newest first. */
export const useSampleFollowUps = (sampleId: number | null) =>
  useApiQuery<FollowUpView[]>(sampleId ? sampleFollowUpsPath(sampleId) : null, { errorHeading: 'Error retrieving follow-ups' });

/** An import job, polled every second while it is Pending (the progress bar). */
export function useImportJob(jobId: number | null) {
  return useSWR<ImportJob, ApiError>(jobId ? labApiPath(`jobs/${jobId}`) : null, (p: string) => apiFetch<ImportJob>(p), withErrorHeading({
    dedupingInterval: 500,
    // Asked again while the job runs (not while it is unknown: a stale link's 404 is not asked again every second).
    refreshInterval: (job: ImportJob | undefined) => (job?.status === 'Pending' ? 1000 : 0),
    errorHeading: 'Error retrieving the import',
    // An import the link names but the lab does not have: the page says so (ImportToolPage).
    quietStatuses: [404],
  }));
}

/** Where the errors of a dry run download as CSV (a plain link: the session cookie goes with it). */
export const importErrorsCsvUrl = (jobId: number) => `${API_PREFIX}${labApiPath(`jobs/${jobId}/errors.csv`)}`;

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

/** GET intake/kits/{barcode}: the scanned kit as the technician checks it (its requisition's patient, the order's collection time). */
export const getIntakeKit = (barcode: string) => apiFetch<IntakeKit>(labApiPath(`intake/kits/${encodeURIComponent(barcode)}`));

/** What a scan sends: the kit, its condition and, to receive it, its collection time (ISO) and identity confirmation. */
export interface IntakeCheckInput {
  barcode: string;
  condition: string;
  conditionNote?: string;
  collectedAt?: string;
}

export const receiveKit = (body: IntakeCheckInput & { receivedAt?: string; identityConfirmed?: boolean }) =>
  apiFetch<IntakeOutcome>(labApiPath('intake/receive'), { method: 'POST', body });

export const rejectKit = (body: Partial<IntakeCheckInput> & { barcode: string; reason: RejectionReason }) =>
  apiFetch<IntakeOutcome>(labApiPath('intake/reject'), { method: 'POST', body });

export const createLabSample = (body: Omit<LabSampleCreateBody, 'collectedAt' | 'receivedAt'> & { collectedAt?: string }) =>
  apiFetch<LabSampleCreated>(labApiPath('samples/create'), { method: 'POST', body });

export const registerPlate = (body: PcrPlateBody) => apiFetch<PlateView>(labApiPath('pcr/plates'), { method: 'POST', body });

export const enterPlateResults = (plateId: number, results: { well: string; result: CovidPcrResult }[]) =>
  apiFetch<PlateView>(labApiPath(`pcr/plates/${plateId}/results`), { method: 'POST', body: { results } });

/** Uploads a result file as the raw request body; answers the dry run's job. */
export const uploadImportFile = (kind: LabImportKind, file: File) =>
  apiUpload<ImportUploadAccepted>(labApiPath(`import-files?${query({ kind, filename: file.name })}`), file);

export const commitImportFile = (fileId: number) => apiFetch<ImportCommitAccepted>(labApiPath(`import-files/${fileId}/commit`), { method: 'POST' });

/** Releases one approval group's results, signed by the approver's password (one signature for the batch). */
export const approveResults = (group: ApprovalGroup, resultIds: number[], password: string) =>
  apiFetch<ApproveResultsAnswer>(labApiPath(`approve-tests-${group}`), { method: 'POST', body: { resultIds, password } satisfies ApproveResultsBody });

export const rejectResults = (body: RejectResultsBody) =>
  apiFetch<RejectResultsAnswer>(labApiPath('import-tests-reject'), { method: 'POST', body });

/** A new version of a released result, signed by the password of the lab user who enters it. */
export const correctResult = (body: CorrectResultBody) =>
  apiFetch<CorrectedResult>(labApiPath('results/correct'), { method: 'POST', body });

/** The lab's question to a sample's patient: emailed now with a single-use link. */
export const askAboutSampleAsLab = (body: NewSampleFollowUpBody) =>
  apiFetch<FollowUpView>(labApiPath('sample-follow-up'), { method: 'POST', body });

