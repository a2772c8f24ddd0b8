/**
 * Request schemas of storage plates (/api/lab-toolbox/storage/… and import-samples-storage-plates).
 * They check shape and size only: what a plate name, a well or a sample id must look like is
 * said by the readers of storage-plates.ts (readPlateName, readWell, readStorageContent), so a
 * scan and a file row get the same sentence. Strings are never trimmed here.
 */
import Joi from 'joi';
import { IMPORT_FILE_NAME_MAX_LENGTH } from '../imports/imports';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/constants';
import { STORAGE_IMPORT_MAX_BYTES, STORAGE_PLATE_NAME_MAX_LENGTH, type StorageImportMode } from './storage-plates';

const STRICT_KEYS = { allowUnknown: false } as const;
/** A scanned or typed value: any text up to 64 characters, even empty, so the answer can say what is wrong with it. */
const scanned = (label: string, max = 64) => Joi.string().allow('').max(max).label(label);

export interface StoragePlateCreateBody { name: string }
/** POST storage/plates */
export const storagePlateCreateBody = /*#__PURE__*/ Joi.object<StoragePlateCreateBody>({
  name: scanned('Plate name', STORAGE_PLATE_NAME_MAX_LENGTH * 4).required(),
}).options(STRICT_KEYS).label('Request body');

export interface StoragePlacementBody { well: string; sampleId: string }
/** POST storage/plates/:plateId/wells: a scanned sample id (or control, or re-extraction) into a well. */
export const storagePlacementBody = /*#__PURE__*/ Joi.object<StoragePlacementBody>({
  well: scanned('Well', 16).required(),
  sampleId: scanned('Sample id').required(),
}).options(STRICT_KEYS).label('Request body');

export interface StorageDiscardBody { sampleId: string; reason?: string }
/** POST storage/discard: a Completed sample's specimen is discarded (taken off its plate on the way). */
export const storageDiscardBody = /*#__PURE__*/ Joi.object<StorageDiscardBody>({
  sampleId: scanned('Sample id').required(),
  reason: Joi.string().trim().max(500).allow('').label('Reason'),
}).options(STRICT_KEYS).label('Request body');

export interface StorageFindQuery { sampleId: string }
/** GET storage/find?sampleId=… */
export const storageFindQuery = /*#__PURE__*/ Joi.object<StorageFindQuery>({
  sampleId: scanned('Sample id').required(),
}).options(STRICT_KEYS).label('Query');

export interface StoragePlatesQuery { page: number; pageSize: number; name?: string }
/** GET storage/plates: newest first; `name` keeps the plates whose name contains it. */
export const storagePlatesQuery = /*#__PURE__*/ Joi.object<StoragePlatesQuery>({
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
  name: Joi.string().max(STORAGE_PLATE_NAME_MAX_LENGTH).allow('').label('Name'),
}).options(STRICT_KEYS).label('Query');

/** The longest base64 text of a file of STORAGE_IMPORT_MAX_BYTES. */
const BASE64_MAX_LENGTH = Math.ceil(STORAGE_IMPORT_MAX_BYTES / 3) * 4;

export interface StorageImportBody { fileName: string; content: string; mode: StorageImportMode }
/** POST import-samples-storage-plates: the file (CSV or XLSX, base64) and whether to check it or commit it. */
export const storageImportBody = /*#__PURE__*/ Joi.object<StorageImportBody>({
  fileName: Joi.string().min(1).max(IMPORT_FILE_NAME_MAX_LENGTH)
    .pattern(/^[^/\\\x00-\x1f\x7f]+$/).label('File name')
    .messages({ 'string.pattern.base': '{#label} must not contain slashes or control characters' })
    .required(),
  content: Joi.string().base64().max(BASE64_MAX_LENGTH).label('File')
    .messages({
      'string.base64': '{#label} must be sent base64-encoded',
      'string.max': `{#label} is too large (the limit is ${Math.round(STORAGE_IMPORT_MAX_BYTES / 1024)} KB)`,
      'string.empty': 'The file is empty',
    })
    .required(),
  mode: Joi.string().valid('dry-run', 'commit').label('Mode')
    .messages({ 'any.only': '{#label} must be dry-run or commit' }).required(),
}).options(STRICT_KEYS).label('Request body');
