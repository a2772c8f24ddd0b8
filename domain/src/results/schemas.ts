/** Request schemas of results: the clinic's result lists, and review, approval, rejection and correction in the Lab Toolbox. */
import Joi from 'joi';
import { TestName } from '../catalogue/tests';
import { REJECTION_REASONS, type RejectionReason } from '../samples/statuses';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, SCANNED_MAX_LENGTH } from '../shared/constants';
import { orderField, pageFields } from '../shared/schemas';
import { RESULT_LIST_CATEGORIES, RESULT_LIST_SORT_FIELDS, RESULT_SEARCH_MIN_LENGTH, RESULT_SEARCH_PATTERN, type ResultListCategory, type ResultListSortField } from './result-lists';
import { PATIENT_SEARCH_MAX_LENGTH } from '../patients/patients';
import { APPROVAL_GROUPS, type ApprovalGroup, REVIEW_BATCH_MAX, REVIEW_REASON_MAX_LENGTH, SAMPLE_OUTCOMES, type SampleOutcome } from './review';
import { signingPassword } from '../signatures/schemas';

const STRICT_KEYS = { allowUnknown: false } as const;

const id = () => Joi.number().integer().positive();

export interface ResultListQuery {
  category: ResultListCategory;
  page: number;
  pageSize: number;
  sort?: ResultListSortField;
  order?: 'asc' | 'desc';
  /** Only the tests this physician of the account ordered (SPEC §7 tests by physicians). */
  physicianId?: number;
}

/** The fields of a result list's query (the list, its page, its order, its physician). */
const resultListFields = {
  category: Joi.string()
    .valid(...RESULT_LIST_CATEGORIES)
    .label('Category')
    .messages({ 'any.only': `{#label} must be one of ${RESULT_LIST_CATEGORIES.join(', ')}` })
    .required(),
  ...pageFields,
  sort: Joi.string()
    .valid(...RESULT_LIST_SORT_FIELDS)
    .label('Sort')
    .messages({ 'any.only': `{#label} must be one of ${RESULT_LIST_SORT_FIELDS.join(', ')}` }),
  order: orderField,
  physicianId: Joi.number().integer().positive().label('Physician'),
};

/** GET provider-clinic/{accountId}/tests?category=&page=&pageSize=&sort=&order= */
export const resultListQuery = Joi.object<ResultListQuery>(resultListFields).options(STRICT_KEYS).label('Query');

export interface ResultSearchBody extends ResultListQuery {
  /** Words of the patient's name, or part of a sample barcode or an order id. */
  q: string;
}

/**
 * POST provider-clinic/{accountId}/tests/search: one of the result lists, only the samples whose
 * patient's name, barcode or order id holds the words searched. A POST, like the patient search:
 * a patient's name never goes into a URL.
 */
export const resultSearchBody = Joi.object<ResultSearchBody>({
  ...resultListFields,
  q: Joi.string().trim().min(RESULT_SEARCH_MIN_LENGTH).max(PATIENT_SEARCH_MAX_LENGTH).pattern(RESULT_SEARCH_PATTERN).label('Search').required()
    .messages({
      'string.min': `{#label} must be at least ${RESULT_SEARCH_MIN_LENGTH} characters`,
      'string.pattern.base': "{#label} may hold letters, digits, spaces and . , ' - _ @ / only",
    }),
}).options(STRICT_KEYS).label('Request body');

const resultIds = () => Joi.array().items(id().label('Result id')).min(1).max(REVIEW_BATCH_MAX).unique()
  .label('Results')
  .messages({ 'array.unique': '{#label} lists one result twice', 'array.min': 'Choose at least one result', 'array.max': `At most ${REVIEW_BATCH_MAX} results at a time` });

export interface ApproveResultsBody { resultIds: number[]; password: string }
/** POST approve-tests-<group>: signed by the approver's password (one signature for the batch). */
export const approveResultsBody = /*#__PURE__*/ Joi.object<ApproveResultsBody>({
  resultIds: resultIds().required(),
  password: signingPassword().required(),
}).options(STRICT_KEYS).label('Request body');

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

export interface CorrectResultBody { sampleBarcode: string; testName?: TestName; value: string; reason: string; password: string }
/** POST results/correct: a new version of a released result, with the reason (then approved like any result). */
export const correctResultBody = /*#__PURE__*/ Joi.object<CorrectResultBody>({
  sampleBarcode: Joi.string().trim().min(1).max(SCANNED_MAX_LENGTH).label('Sample barcode').required(),
  testName: Joi.string().valid(...Object.values(TestName)).label('Test'),
  value: Joi.string().trim().min(1).max(100).label('Value').required(),
  reason: Joi.string().trim().min(1).max(REVIEW_REASON_MAX_LENGTH).label('Reason').required(),
  password: signingPassword().required(),
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
