/** Request schemas of the PCR register: the queue, plates, and their results. */
import Joi from 'joi';
import { COVID_PCR_RESULTS, type CovidPcrResult } from '../results/result-values';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, SCANNED_MAX_LENGTH } from '../shared/constants';
import { PCR_PLATE_NAME_MAX_LENGTH, PCR_PLATE_STATUSES, PCR_WELL_PATTERN, PCR_WELLS, type PcrPlateStatus } from './plates';

const STRICT_KEYS = { allowUnknown: false } as const;

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

export interface QueueQuery { page: number; pageSize: number }
export const labQueueQuery = /*#__PURE__*/ Joi.object<QueueQuery>({
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
}).options(STRICT_KEYS).label('Query');
