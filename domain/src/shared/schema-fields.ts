/**
 * Field schemas the request schemas of several capabilities build on (ids, names, optional text,
 * dates, paging, search). Inside domain only: the barrel does not export this file.
 */
import Joi from 'joi';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PERSON_NAME_MAX_LENGTH } from './constants';
import { isDataDate } from './dates';

export const id = (label: string) => Joi.number().integer().positive().label(label);
export const text = (label: string, max: number) => Joi.string().trim().min(1).max(max).label(label);
/** An optional text field: '' or null means "not given" (stored as null). */
export const optionalText = (label: string, max: number) => Joi.string().trim().max(max).allow('', null).empty(['', null]).default(null).label(label);
export const personName = (label: string) =>
  text(label, PERSON_NAME_MAX_LENGTH)
    .pattern(/^[\p{L}\p{M}' .,-]+$/u, 'name')
    .messages({ 'string.pattern.name': '{#label} may contain letters, spaces, apostrophes, hyphens and periods only' });
export const dataDate = (label: string) =>
  Joi.string()
    .trim()
    .custom((v: string, h) => (isDataDate(v) ? v : h.error('date.format')))
    .label(label)
    .messages({ 'date.format': '{#label} must be a real date written YYYY-MM-DD' });
export const paging = {
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
};
export const search = Joi.string().trim().max(PERSON_NAME_MAX_LENGTH).allow('').default('').label('Search');
