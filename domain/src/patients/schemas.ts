/** Request schemas of patients: a new patient, the exists-check and the searches. */
import Joi from 'joi';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, PERSON_NAME_MAX_LENGTH } from '../shared/constants';
import { optionalAddressFields, phoneSchema } from '../shared/addresses';
import { emailSchema } from '../shared/schemas';
import { optionalText } from '../shared/schema-fields';
import {
  DATE_OF_BIRTH_MESSAGES, dateOfBirthProblem, PATIENT_NAME_MAX_LENGTH, PATIENT_SEARCH_MAX_LENGTH,
  PATIENT_SEX_LABELS, PATIENT_SEXES, type PatientSex,
} from './patients';
import type { PatientRecordDetails } from './views';

const STRICT_KEYS = { allowUnknown: false } as const;

/** A date of birth: YYYY-MM-DD, a real calendar date, not before 1900 and not in the future. */
export const patientDateOfBirthSchema = Joi.string()
  .trim()
  .custom((value: string, helpers) => {
    const problem = dateOfBirthProblem(value);
    return problem ? helpers.error(problem) : value;
  })
  .label('Date of birth')
  .messages(DATE_OF_BIRTH_MESSAGES);

const nameSchema = (label: string) =>
  Joi.string()
    .trim()
    .min(1)
    .max(PATIENT_NAME_MAX_LENGTH)
    .pattern(/^[\p{L}\p{M}' .,-]+$/u, 'name')
    .label(label)
    .messages({ 'string.pattern.name': '{#label} may contain letters, spaces, apostrophes, hyphens and periods only' });

/** A patient's first or last name, as a new patient and a correction (LIMS sample update) give it. */
export const patientNameSchema = nameSchema;

/** A new patient as validated (optional fields given as '' or left out are null). */
export interface NewPatientBody extends PatientRecordDetails {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: PatientSex;
  email: string | null;
  phone: string | null;
}

/** POST provider-clinic/{accountId}/patient: a new patient of the account. */
export const newPatientBody = Joi.object<NewPatientBody>({
  firstName: nameSchema('First name').required(),
  lastName: nameSchema('Last name').required(),
  dateOfBirth: patientDateOfBirthSchema.required(),
  sex: Joi.string()
    .valid(...PATIENT_SEXES)
    .label('Sex')
    .messages({ 'any.only': `{#label} must be one of ${PATIENT_SEXES.map((s) => `${s} (${PATIENT_SEX_LABELS[s]})`).join(', ')}` })
    .required(),
  email: emailSchema.allow('', null).empty(['', null]).default(null),
  phone: phoneSchema,
  ...optionalAddressFields,
  medicalRecordNumber: optionalText('Medical record number', 64),
}).options(STRICT_KEYS).label('Request body');

/*
 * The patient exists-check and search are read with POST and a JSON body, not GET and a query
 * string: a patient's name and date of birth stay out of URLs (proxy access logs, browser history).
 */

export interface PatientExistsBody { firstName: string; lastName: string; dateOfBirth: string }
/** POST provider-clinic/{accountId}/patient/exists { firstName, lastName, dateOfBirth } */
export const patientExistsBody = Joi.object<PatientExistsBody>({
  firstName: nameSchema('First name').required(),
  lastName: nameSchema('Last name').required(),
  dateOfBirth: patientDateOfBirthSchema.required(),
}).options(STRICT_KEYS).label('Request body');

export interface PatientSearchBody { q: string; page: number; pageSize: number }
/** POST provider-clinic/{accountId}/patient/search { q, page?, pageSize? }: q is a name, part of a name, or a date of birth. */
export const patientSearchBody = Joi.object<PatientSearchBody>({
  q: Joi.string().trim().min(1).max(PATIENT_SEARCH_MAX_LENGTH).label('Search').required(),
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
}).options(STRICT_KEYS).label('Request body');

export interface AdminPatientSearchBody { q: string }
/** POST admin/patients/search { q }: patients of every account (and self-ordering ones) by name, email or date of birth. */
export const adminPatientSearchBody = Joi.object<AdminPatientSearchBody>({
  q: Joi.string().trim().min(1).max(PERSON_NAME_MAX_LENGTH).label('Search').required(),
}).options(STRICT_KEYS).label('Request body');
