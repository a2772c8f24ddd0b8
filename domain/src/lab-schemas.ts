/**
 * The Lab Toolbox's rules and request schemas: intake (receive, reject), lab-ordered COVID
 * samples, PCR plates (wells, controls, results), result-file imports (kinds, columns, file
 * formats), review and approval (which tests each approval covers), rejection and correction.
 * Shared by api (validation), worker (the import) and web (forms, labels and messages).
 */
import Joi from 'joi';
import { patientLabel } from './research';
import { DEFAULT_PAGE_SIZE, EARLIEST_EVENT_DATE, MAX_PAGE_SIZE } from './constants';
import {
  COVID_PCR_RESULTS,
  CovidPcrResult,
  REJECTION_REASONS,
  SampleStatus,
  SampleType,
  TestName,
  type RejectionReason,
} from './enums';
import { KIT_BARCODE_PATTERN, KIT_BARCODE_RULE, isDataDate } from './identifiers';
import { LAB_IMPORT_KINDS, type LabImportKind } from './jobs';
import {
  APPROVAL_GROUPS, IMPORT_FILE_NAME_MAX_LENGTH, REVIEW_BATCH_MAX, REVIEW_REASON_MAX_LENGTH, SAMPLE_OUTCOMES, type ApprovalGroup, type SampleOutcome,
} from './lab-values';
import { EARLIEST_DATE_OF_BIRTH, PATIENT_NAME_MAX_LENGTH } from './orders';
import { LAB_ORDERABLE_TESTS, LAB_SAMPLE_TYPES, PCR_PLATE_NAME_MAX_LENGTH, PCR_PLATE_STATUSES, PCR_WELL_PATTERN, PCR_WELLS, type PcrPlateStatus } from './pcr-plates';
import type { DnaQc } from './dna-extraction';

const STRICT_KEYS = { allowUnknown: false } as const;
const id = () => Joi.number().integer().positive();


// ---------------------------------------------------------------------------------------------
// Intake
// ---------------------------------------------------------------------------------------------

/** What a scanner or keyboard may send as a barcode (the pattern itself is checked by describeBarcodeProblem). */
/** The longest scanned text a filter or a scan field takes. */
export const SCANNED_MAX_LENGTH = 64;
/** How far in the future a typed receipt time may be (clock differences between machines). */
export const RECEIPT_CLOCK_SKEW_MS = 5 * 60_000;

/** A scanned barcode: any text up to 64 characters, even empty, so the answer can say what is wrong with it. */
const scannedBarcode = (label: string) => Joi.string().allow('').max(SCANNED_MAX_LENGTH).label(label);

export interface IntakeReceiveBody { barcode: string; receivedAt?: Date }
/** POST intake/receive: a scanned kit; receivedAt when the kit arrived earlier than it is scanned. */
export const intakeReceiveBody = /*#__PURE__*/ Joi.object<IntakeReceiveBody>({
  barcode: scannedBarcode('Barcode').required(),
  receivedAt: Joi.date().iso().min(EARLIEST_EVENT_DATE).label('Receipt time').messages({ 'date.format': '{#label} must be a date and time', 'date.min': '{#label} must be after 01/01/2000' }),
}).options(STRICT_KEYS).label('Request body');

export interface IntakeRejectBody { barcode: string; reason: RejectionReason }
/** POST intake/reject: a kit that cannot be tested, with one of the spec's rejection reasons. */
export const intakeRejectBody = /*#__PURE__*/ Joi.object<IntakeRejectBody>({
  barcode: scannedBarcode('Barcode').required(),
  reason: Joi.string().valid(...REJECTION_REASONS).label('Reason')
    .messages({ 'any.only': `{#label} must be one of: ${REJECTION_REASONS.join('; ')}` }).required(),
}).options(STRICT_KEYS).label('Request body');

/** The statuses from which the lab receives a kit (Pending Shipment: a kit that was never tracked). */
export const RECEIVABLE_STATUSES: readonly SampleStatus[] = [SampleStatus.InTransit, SampleStatus.PendingShipment];
/** The statuses of a kit the lab already has. */
export const RECEIVED_STATUSES: readonly SampleStatus[] = [
  SampleStatus.InQueue, SampleStatus.InTesting, SampleStatus.Resulted, SampleStatus.Completed, SampleStatus.InStorage, SampleStatus.Discarded,
];

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

/** "John C.": what intake and review show of a patient; a research participant shows as "Study ID …". */
export function patientShortName(p: { firstName: string | null; lastName: string | null; studyId?: string | null }): string {
  if (!p.firstName) return patientLabel(p);
  const initial = (p.lastName ?? '').trim().charAt(0).toUpperCase();
  return initial ? `${p.firstName.trim()} ${initial}.` : p.firstName.trim();
}

// ---------------------------------------------------------------------------------------------
// Lab-ordered samples (samples/create): COVID-19 PCR swabs the lab registers itself
// ---------------------------------------------------------------------------------------------


const personName = (label: string) => Joi.string().trim().min(1).max(PATIENT_NAME_MAX_LENGTH).label(label);

export interface LabNewPatient { firstName: string; lastName: string; dateOfBirth: string; email?: string; phone?: string }
export interface LabSampleCreateBody {
  barcode: string;
  test: TestName;
  sampleType: SampleType;
  collectedAt?: Date;
  receivedAt?: Date;
  /** An existing patient (the sample belongs to the patient's account), or … */
  patientId?: number;
  /** … a new patient, with no account (a lab-ordered test). */
  patient?: LabNewPatient;
}
/** POST samples/create: a lab-ordered sample (origin Lab Ordered), received at once (In Queue). */
export const labSampleCreateBody = /*#__PURE__*/ Joi.object<LabSampleCreateBody>({
  barcode: Joi.string().pattern(KIT_BARCODE_PATTERN).label('Barcode')
    .messages({ 'string.pattern.base': KIT_BARCODE_RULE })
    .required(),
  test: Joi.string().valid(...LAB_ORDERABLE_TESTS).default(TestName.CovidPcr).label('Test')
    .messages({ 'any.only': `{#label} must be one of: ${LAB_ORDERABLE_TESTS.join(', ')}` }),
  sampleType: Joi.string().valid(...LAB_SAMPLE_TYPES).label('Sample type')
    .messages({ 'any.only': `{#label} must be one of: ${LAB_SAMPLE_TYPES.join(', ')}` }).required(),
  collectedAt: Joi.date().iso().min(EARLIEST_EVENT_DATE).max('now').label('Collection time')
    .messages({ 'date.max': '{#label} cannot be in the future', 'date.min': '{#label} must be after 01/01/2000', 'date.format': '{#label} must be a date and time' }),
  receivedAt: Joi.date().iso().min(EARLIEST_EVENT_DATE).max('now').label('Receipt time')
    .messages({ 'date.max': '{#label} cannot be in the future', 'date.min': '{#label} must be after 01/01/2000', 'date.format': '{#label} must be a date and time' }),
  patientId: id().label('Patient'),
  patient: Joi.object<LabNewPatient>({
    firstName: personName('First name').required(),
    lastName: personName('Last name').required(),
    dateOfBirth: Joi.string()
      .custom((value: string, helpers) => {
        if (!isDataDate(value)) return helpers.error('date.data');
        const today = new Date().toISOString().slice(0, 10);
        if (value < EARLIEST_DATE_OF_BIRTH || value > today) return helpers.error('date.range');
        return value;
      })
      .label('Date of birth')
      .messages({
        'date.data': '{#label} must be a real date written YYYY-MM-DD',
        'date.range': `{#label} must be between ${EARLIEST_DATE_OF_BIRTH} and today`,
      })
      .required(),
    email: Joi.string().trim().lowercase().max(254).email({ tlds: false }).allow('').label('Email'),
    phone: Joi.string().trim().pattern(/^\+?[0-9 ().-]{7,20}$/).allow('').label('Phone')
      .messages({ 'string.pattern.base': '{#label} must be a phone number' }),
  }).options(STRICT_KEYS).label('Patient'),
})
  .xor('patientId', 'patient')
  .messages({
    'object.missing': 'Give either an existing patient (patientId) or a new patient (patient)',
    'object.xor': 'Give either an existing patient (patientId) or a new patient (patient), not both',
  })
  .options(STRICT_KEYS)
  .label('Request body');

export interface PcrWellInput { well: string; barcode: string }
export interface PcrPlateBody { name: string; wells: PcrWellInput[] }
/** POST pcr/plates: a plate's name and what was put in each well (sample barcodes and controls). */
export const pcrPlateBody = /*#__PURE__*/ Joi.object<PcrPlateBody>({
  name: Joi.string().trim().min(1).max(PCR_PLATE_NAME_MAX_LENGTH).pattern(/^[\w .\-/#]+$/).label('Plate name')
    .messages({ 'string.pattern.base': '{#label} may use letters, digits, spaces and . - _ / #' }).required(),
  wells: Joi.array()
    .items(Joi.object<PcrWellInput>({
      well: Joi.string().trim().uppercase().pattern(PCR_WELL_PATTERN).label('Well')
        .messages({ 'string.pattern.base': '{#label} must be A1 to H12' }).required(),
      barcode: Joi.string().trim().min(1).max(SCANNED_MAX_LENGTH).label('Sample or control').required(),
    }).options(STRICT_KEYS))
    .min(1).max(PCR_WELLS.length)
    .unique('well')
    .label('Wells')
    .messages({ 'array.unique': 'Each well can hold only one sample or control ({#value.well} is used twice)' })
    .required(),
}).options(STRICT_KEYS).label('Request body');

export interface PcrWellResultInput { well: string; result: CovidPcrResult }
export interface PcrResultsBody { results: PcrWellResultInput[] }
/** POST pcr/plates/:plateId/results: the run's result of every well. */
export const pcrResultsBody = /*#__PURE__*/ Joi.object<PcrResultsBody>({
  results: Joi.array()
    .items(Joi.object<PcrWellResultInput>({
      well: Joi.string().trim().uppercase().pattern(PCR_WELL_PATTERN).label('Well')
        .messages({ 'string.pattern.base': '{#label} must be A1 to H12' }).required(),
      result: Joi.string().valid(...COVID_PCR_RESULTS).label('Result')
        .messages({ 'any.only': `{#label} must be one of: ${COVID_PCR_RESULTS.join(', ')}` }).required(),
    }).options(STRICT_KEYS))
    .min(1).max(PCR_WELLS.length)
    .unique('well')
    .label('Results')
    .messages({ 'array.unique': 'Each well has one result ({#value.well} is given twice)' })
    .required(),
}).options(STRICT_KEYS).label('Request body');

export const pcrPlatesQuery = /*#__PURE__*/ Joi.object<{ page: number; pageSize: number; status?: PcrPlateStatus }>({
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
  status: Joi.string().valid(...PCR_PLATE_STATUSES).label('Status'),
}).options(STRICT_KEYS).label('Query');

// ---------------------------------------------------------------------------------------------
// Result-file imports
// ---------------------------------------------------------------------------------------------

export interface ImportFileQuery { kind: LabImportKind; filename: string }
/** The query of an upload (the file is the raw body). */
export const importFileQuery = /*#__PURE__*/ Joi.object<ImportFileQuery>({
  kind: Joi.string().valid(...LAB_IMPORT_KINDS).label('Kind')
    .messages({ 'any.only': `{#label} must be one of: ${LAB_IMPORT_KINDS.join(', ')}` }).required(),
  filename: Joi.string().trim().min(1).max(IMPORT_FILE_NAME_MAX_LENGTH)
    .pattern(/^[^/\\\x00-\x1f\x7f]+$/).label('File name')
    .messages({ 'string.pattern.base': '{#label} must not contain slashes or control characters' })
    .required(),
}).options(STRICT_KEYS).label('Query');

export type ImportFormat = 'csv' | 'xlsx';
export type ImportSniff = { ok: true; format: ImportFormat; contentType: string } | { ok: false; error: string };

export const NOT_CSV_OR_XLSX = 'The file is neither a CSV file nor an Excel workbook (.xlsx)';

/**
 * What an uploaded file is, from its first bytes and its name: an Excel workbook (a ZIP
 * container), or CSV text (UTF-8, no NUL bytes). Anything else is refused with one sentence.
 */
export function sniffImportFile(bytes: Uint8Array, fileName: string): ImportSniff {
  const name = fileName.toLowerCase();
  if (bytes.length === 0) return { ok: false, error: 'The file is empty' };
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x50, 0x4b, 0x03, 0x04)) {
    if (name.endsWith('.csv')) return { ok: false, error: 'The file is named .csv but is an Excel workbook or another ZIP file: name it .xlsx' };
    return { ok: true, format: 'xlsx', contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
  }
  if (starts(0xd0, 0xcf, 0x11, 0xe0)) return { ok: false, error: 'Old Excel files (.xls) cannot be read: save the sheet as .xlsx or CSV' };
  if (name.endsWith('.xlsx')) return { ok: false, error: 'The file is named .xlsx but is not an Excel workbook' };
  if (bytes.includes(0)) return { ok: false, error: NOT_CSV_OR_XLSX };
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: `${NOT_CSV_OR_XLSX} (CSV files must be UTF-8 text)` };
  }
  return { ok: true, format: 'csv', contentType: 'text/csv' };
}

/** One problem with one cell of an import file; row is the spreadsheet row (the header is row 1). */
export interface ImportError { row: number | null; column: string; value: string; message: string }
/** One data row as the dry run read it. */
export interface ImportPreviewRow { row: number; barcode: string; value: string; test: string | null; sampleStatus: string | null; ok: boolean }

export interface ImportDryRunResult {
  mode: 'dry-run';
  kind: LabImportKind;
  fileId: number;
  fileName: string;
  format: ImportFormat;
  rowCount: number;
  rows: ImportPreviewRow[];
  errorCount: number;
  errors: ImportError[];
}
export interface ImportCommitResult {
  mode: 'commit';
  kind: LabImportKind;
  fileId: number;
  fileName: string;
  rowCount: number;
  resultsWritten: number;
  samplesMovedToTesting: number;
  alreadyCommitted?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Review, approval, rejection, correction
// ---------------------------------------------------------------------------------------------

const resultIds = () => Joi.array().items(id().label('Result id')).min(1).max(REVIEW_BATCH_MAX).unique()
  .label('Results')
  .messages({ 'array.unique': '{#label} lists one result twice', 'array.min': 'Choose at least one result', 'array.max': `At most ${REVIEW_BATCH_MAX} results at a time` });

export interface ResultIdsBody { resultIds: number[] }
/** POST approve-tests-<group>. */
export const resultIdsBody = /*#__PURE__*/ Joi.object<ResultIdsBody>({ resultIds: resultIds().required() }).options(STRICT_KEYS).label('Request body');

export interface RejectResultsBody { resultIds: number[]; reason: string; sampleOutcome: SampleOutcome; rejectionReason?: RejectionReason }
/** POST import-tests-reject: the versions are Rejected; the sample is tested again or rejected. */
export const rejectResultsBody = /*#__PURE__*/ Joi.object<RejectResultsBody>({
  resultIds: resultIds().required(),
  reason: Joi.string().trim().min(1).max(REVIEW_REASON_MAX_LENGTH).label('Reason').required(),
  sampleOutcome: Joi.string().valid(...SAMPLE_OUTCOMES).label('Sample outcome')
    .messages({ 'any.only': '{#label} must be retest or reject-sample' }).required(),
  rejectionReason: Joi.string().valid(...REJECTION_REASONS).label('Sample rejection reason')
    .messages({ 'any.only': `{#label} must be one of: ${REJECTION_REASONS.join('; ')}`, 'any.required': '{#label} is required to reject the sample', 'any.unknown': '{#label} is given only when the sample is rejected' })
    .when('sampleOutcome', { is: 'reject-sample', then: Joi.required(), otherwise: Joi.forbidden() }),
}).options(STRICT_KEYS).label('Request body');

export interface CorrectResultBody { sampleBarcode: string; testName?: TestName; value: string; reason: string }
/** POST results/correct: a new version of a released result, with the reason (then approved like any result). */
export const correctResultBody = /*#__PURE__*/ Joi.object<CorrectResultBody>({
  sampleBarcode: Joi.string().trim().min(1).max(SCANNED_MAX_LENGTH).label('Sample barcode').required(),
  testName: Joi.string().valid(...Object.values(TestName)).label('Test'),
  value: Joi.string().trim().min(1).max(100).label('Value').required(),
  reason: Joi.string().trim().min(1).max(REVIEW_REASON_MAX_LENGTH).label('Reason').required(),
}).options(STRICT_KEYS).label('Request body');

export interface ReviewListQuery {
  page: number;
  pageSize: number;
  group?: ApprovalGroup;
  jobId?: number;
  plateId?: number;
  /** Part of a sample barcode (a whole one when scanned). */
  barcode?: string;
  test?: TestName;
  /** The lab user who entered or imported the results. */
  enteredBy?: number;
}
/** GET get-review-list: results In Review, oldest first; every filter narrows the list (an empty one is no filter). */
export const reviewListQuery = /*#__PURE__*/ Joi.object<ReviewListQuery>({
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
  group: Joi.string().valid(...APPROVAL_GROUPS).empty('').label('Group'),
  jobId: id().empty('').label('Import job'),
  plateId: id().empty('').label('Plate'),
  barcode: Joi.string().trim().max(SCANNED_MAX_LENGTH).empty('').label('Barcode'),
  test: Joi.string().valid(...Object.values(TestName)).empty('').label('Test')
    .messages({ 'any.only': `{#label} must be one of: ${Object.values(TestName).join(', ')}` }),
  enteredBy: id().empty('').label('Entered by'),
}).options(STRICT_KEYS).label('Query');

export interface ReleasedResultsQuery { page: number; pageSize: number; barcode?: string }
/** GET get-cancer-toxicity-results: released results, newest first. */
export const releasedResultsQuery = /*#__PURE__*/ Joi.object<ReleasedResultsQuery>({
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
  barcode: Joi.string().trim().max(SCANNED_MAX_LENGTH).allow('').label('Barcode'),
}).options(STRICT_KEYS).label('Query');

export interface ImportReviewQuery { jobId: number }
/** GET import-tests-review: one import job's results and their review state. */
export const importReviewQuery = /*#__PURE__*/ Joi.object<ImportReviewQuery>({ jobId: id().label('Import job').required() }).options(STRICT_KEYS).label('Query');

export interface QueueQuery { page: number; pageSize: number }
export const labQueueQuery = /*#__PURE__*/ Joi.object<QueueQuery>({
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
}).options(STRICT_KEYS).label('Query');

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
