/** Request schemas of an order's diagnosis codes and of the ICD-10-CM search (docs/clinical-orders.md). */
import Joi from 'joi';
import { MAX_PAGE_SIZE } from '../shared/constants';
import {
  DIAGNOSIS_CODE_SYSTEM, DIAGNOSIS_SEARCH_DEFAULT_PAGE_SIZE, DIAGNOSIS_SEARCH_MAX_LENGTH, DIAGNOSIS_SEARCH_MIN_LENGTH, isDiagnosisCodeShape, normalizeDiagnosisCode,
  ORDER_MAX_DIAGNOSES,
} from './diagnoses';

/** The diagnosis codes of an order: each shaped like an ICD-10-CM code (normalized: no dot, upper case), each once. */
export const diagnosisCodesSchema = Joi.array()
  .items(
    Joi.string()
      .max(10)
      .custom((value: string, helpers) => {
        const code = normalizeDiagnosisCode(value);
        return isDiagnosisCodeShape(code) ? code : helpers.error('diagnosis.shape');
      })
      .label('Diagnosis code')
      .messages({ 'diagnosis.shape': `{#value} is not written as an ${DIAGNOSIS_CODE_SYSTEM} code (a letter, two letters or digits, then up to four more, e.g. C61 or Z85.46)` }),
  )
  .max(ORDER_MAX_DIAGNOSES)
  .unique()
  .label('Diagnosis codes')
  .messages({ 'array.unique': 'Each diagnosis code may be given once', 'array.max': `An order carries at most ${ORDER_MAX_DIAGNOSES} diagnosis codes` });


export interface DiagnosisSearchQuery { q: string; page: number; pageSize: number }
/** GET provider-clinic/{accountId}/diagnosis-codes?q=&page=&pageSize=: q is a code (or its start) or words of the description. */
export const diagnosisSearchQuery = Joi.object<DiagnosisSearchQuery>({
  q: Joi.string().trim().min(DIAGNOSIS_SEARCH_MIN_LENGTH).max(DIAGNOSIS_SEARCH_MAX_LENGTH).label('Search').required(),
  page: Joi.number().integer().min(1).max(1000).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DIAGNOSIS_SEARCH_DEFAULT_PAGE_SIZE).label('Page size'),
}).options({ allowUnknown: false }).label('Query');

