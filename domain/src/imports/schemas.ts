/** Request schemas of result-file imports: the upload's query and an import's review. */
import Joi from 'joi';
import { IMPORT_FILE_NAME_MAX_LENGTH, LAB_IMPORT_KINDS, type LabImportKind } from './imports';

const STRICT_KEYS = { allowUnknown: false } as const;
const id = () => Joi.number().integer().positive();

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

export interface ImportReviewQuery { jobId: number }
/** GET import-tests-review: one import job's results and their review state. */
export const importReviewQuery = /*#__PURE__*/ Joi.object<ImportReviewQuery>({ jobId: id().label('Import job').required() }).options(STRICT_KEYS).label('Query');
