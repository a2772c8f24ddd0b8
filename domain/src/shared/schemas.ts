/**
 * What every joi schema of the platform shares, and how a value is validated: email addresses, the
 * patient's language, list paging and sorting, field errors. Used by api (validation), worker and
 * web (forms). Every object schema rejects unknown keys; every field has a label so messages name
 * it, and no message ever repeats a password or token back.
 */
import Joi from 'joi';
import { LANGUAGES } from '../messages';
import { DEFAULT_PAGE_SIZE, EMAIL_MAX_LENGTH, MAX_PAGE_SIZE } from './constants';

/** Options every object schema here carries: unknown keys are an error, never silently kept or dropped. */
const STRICT_KEYS = { allowUnknown: false } as const;

/** The language of a patient's pages and emails (en, es). */
export const languageSchema = Joi.string().valid(...LANGUAGES).label('Language')
  .messages({ 'any.only': `{#label} must be one of ${LANGUAGES.join(', ')}` });

/**
 * An email address: surrounding spaces trimmed and lower-cased (the form of the stored address),
 * at most 254 characters, a domain of two or more labels; top-level domains are not checked
 * against a list, so lab-internal and test domains (.local, .test) work.
 */
export const emailSchema = Joi.string()
  .trim()
  .lowercase()
  .max(EMAIL_MAX_LENGTH)
  .email({ tlds: false })
  .label('Email');

export interface PaginationQuery { page: number; pageSize: number; sort?: string; order?: 'asc' | 'desc' }
/**
 * Query of a list endpoint. `sort` is a field name (letters, digits, `_` and `.`, starting with a
 * letter, at most 64 characters); each endpoint checks it against the fields it can sort by.
 */
export const paginationQuery = Joi.object<PaginationQuery>({
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
  sort: Joi.string()
    .max(64)
    .pattern(/^[A-Za-z][A-Za-z0-9_.]*$/)
    .label('Sort')
    .messages({ 'string.pattern.base': '{#label} must be a field name' }),
  order: Joi.string().valid('asc', 'desc').label('Order').messages({ 'any.only': '{#label} must be asc or desc' }),
}).options(STRICT_KEYS).label('Query');

export interface FieldError { field: string; message: string }
export type ValidationResult<T> = { value: T } | { fields: FieldError[] };

/** The options every validation runs with: all errors at once, unknown keys kept as errors, labels unquoted. */
export const VALIDATE_OPTIONS: Joi.ValidationOptions = {
  abortEarly: false,
  stripUnknown: false,
  convert: true,
  errors: { wrap: { label: false } },
};

/**
 * Validates a value: either the converted value (defaults applied) or every problem as
 * `{ field, message }` (identical pairs once), field being the dotted path ('' for the value as a whole).
 */
export function validate<T>(schema: Joi.Schema<T>, value: unknown): ValidationResult<T> {
  const result = schema.validate(value, VALIDATE_OPTIONS);
  const fields: FieldError[] = nulCharacters(value);
  if (result.error || fields.length) {
    for (const detail of result.error?.details ?? []) {
      const error = { field: detail.path.join('.'), message: detail.message };
      if (!fields.some((f) => f.field === error.field && f.message === error.message)) fields.push(error);
    }
    return { fields };
  }
  return { value: result.value as T };
}

/**
 * Every string (or key) holding U+0000, as a field error: no form has a use for it and PostgreSQL
 * text cannot store it, so it is refused here, naming the field, before it reaches a query.
 */
function nulCharacters(value: unknown): FieldError[] {
  // Iterative (a stack, not recursion), and each path built only for a value found: however deep a
  // body is, this neither overflows the stack nor copies a path per level.
  type Visit = { value: unknown; key: string | null; parent: Visit | null };
  const pathOf = (visit: Visit) => {
    const path: string[] = [];
    for (let at: Visit | null = visit; at?.key != null; at = at.parent) path.unshift(at.key);
    return path;
  };
  const found: FieldError[] = [];
  const stack: Visit[] = [{ value, key: null, parent: null }];
  while (stack.length) {
    const visit = stack.pop()!;
    if (typeof visit.value === 'string') {
      if (visit.value.includes('\u0000')) {
        const path = pathOf(visit);
        found.push({ field: path.join('.'), message: `${path.at(-1) ?? 'The value'} must not contain a NUL character` });
      }
    } else if (visit.value && typeof visit.value === 'object') {
      const entries = Object.entries(visit.value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i];
        stack.push({ value: key.includes('\u0000') ? key : item, key, parent: visit });
      }
    }
  }
  return found;
}

/** page and pageSize of a list query. */
export const pageFields = {
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
};
/** asc or desc: which way a list is sorted. */
export const orderField = Joi.string().valid('asc', 'desc').label('Order').messages({ 'any.only': '{#label} must be asc or desc' });
