/**
 * The request schemas of the DNA extraction endpoints (/api/lab-toolbox/dna-extractions…): the
 * list of imported extractions and the decision on a flagged one. The rules are in dna-extraction.ts.
 */
import Joi from 'joi';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, SCANNED_MAX_LENGTH } from '../shared/constants';
import { EXTRACTION_OUTCOME_LABELS, EXTRACTION_OUTCOMES, type ExtractionOutcome } from './dna-extraction';

const STRICT_KEYS = { allowUnknown: false } as const;

export interface ExtractionListQuery {
  page: number;
  pageSize: number;
  /** The commit job of one import. */
  jobId?: number;
  /** Only extractions outside the acceptance range. */
  flagged?: boolean;
  /** Only flagged extractions still waiting for a decision (re-extraction or rejection). */
  awaitingDecision?: boolean;
  /** Only samples whose barcode holds this text (the review page's barcode filter). */
  barcode?: string;
}

/** GET dna-extractions: imported extractions, oldest first. */
export const extractionListQuery = /*#__PURE__*/ Joi.object<ExtractionListQuery>({
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
  jobId: Joi.number().integer().positive().label('Import job'),
  flagged: Joi.boolean().label('Flagged'),
  awaitingDecision: Joi.boolean().label('Awaiting decision'),
  barcode: Joi.string().trim().max(SCANNED_MAX_LENGTH).empty('').label('Barcode'),
}).options(STRICT_KEYS).label('Query');

export interface ExtractionDecisionBody { outcome: ExtractionOutcome }

/** POST dna-extractions/{id}/decide: send the flagged sample to re-extraction, or reject it (quantity not sufficient). */
export const extractionDecisionBody = /*#__PURE__*/ Joi.object<ExtractionDecisionBody>({
  outcome: Joi.string().valid(...EXTRACTION_OUTCOMES).label('Outcome')
    .messages({ 'any.only': `{#label} must be one of: ${EXTRACTION_OUTCOMES.map((o) => `${o} (${EXTRACTION_OUTCOME_LABELS[o]})`).join(', ')}` })
    .required(),
}).options(STRICT_KEYS).label('Request body');
