/**
 * Patients: sex, names, dates of birth (the rule in words, without joi: the API's schema and the
 * SPA's forms say the same thing about the same date), contact details, radiation treatments, and
 * how a patient or research participant reads in lists. Plain values, no joi.
 */
import { isDataDate, todayDataDate } from '../shared/dates';
import { valuesOf } from '../shared/values';

/** Sex as recorded on a patient (HL7 administrative sex codes) and how it is shown. */
export const PatientSex = { Male: 'M', Female: 'F', Other: 'O', Unknown: 'U' } as const;
export type PatientSex = (typeof PatientSex)[keyof typeof PatientSex];
export const PATIENT_SEXES: PatientSex[] = Object.values(PatientSex);
export const PATIENT_SEX_LABELS: Record<PatientSex, string> = { M: 'Male', F: 'Female', O: 'Other', U: 'Unknown' };

/** How a stored sex value is shown ('M' -> 'Male'; anything unknown as stored). */
export function patientSexLabel(value: string | null | undefined): string {
  if (!value) return '';
  return (PATIENT_SEX_LABELS as Record<string, string>)[value] ?? value;
}

/** The earliest date of birth accepted. */
export const EARLIEST_DATE_OF_BIRTH = '1900-01-01';
export const PATIENT_NAME_MAX_LENGTH = 100;

/** What is wrong with a date of birth, by joi error code ({#label} is the field's name). */
export const DATE_OF_BIRTH_MESSAGES = {
  'date.format': '{#label} must be a real date written YYYY-MM-DD',
  'date.early': `{#label} must not be before ${EARLIEST_DATE_OF_BIRTH}`,
  'date.future': '{#label} must not be in the future',
} as const;
export type DateOfBirthProblem = keyof typeof DATE_OF_BIRTH_MESSAGES;

/** The problem with a (trimmed) YYYY-MM-DD date of birth, or null when it is a real, past date from 1900 on. */
export function dateOfBirthProblem(value: string): DateOfBirthProblem | null {
  if (!isDataDate(value)) return 'date.format';
  if (value < EARLIEST_DATE_OF_BIRTH) return 'date.early';
  if (value > todayDataDate()) return 'date.future';
  return null;
}

export const PATIENT_SEARCH_MAX_LENGTH = 100;

/** How a patient or participant reads: their name, or "Study ID …" for a research participant (no name is kept). */
export function patientLabel(p: { firstName: string | null; lastName: string | null; studyId?: string | null }): string {
  const name = `${p.firstName ?? ''} ${p.lastName ?? ''}`.trim();
  if (name) return name;
  return p.studyId ? `Study ID ${p.studyId}` : 'Unnamed patient';
}

/** "John C.": what intake and review show of a patient; a research participant shows as "Study ID …". */
export function patientShortName(p: { firstName: string | null; lastName: string | null; studyId?: string | null }): string {
  if (!p.firstName) return patientLabel(p);
  const initial = (p.lastName ?? '').trim().charAt(0).toUpperCase();
  return initial ? `${p.firstName.trim()} ${initial}.` : p.firstName.trim();
}

export const RadiationTreatment = {
  Protons: 'Protons',
  Photons: 'Photons',
  BrachytherapyLdr: 'Brachytherapy LDR',
  BrachytherapyHdr: 'Brachytherapy HDR',
} as const;
export type RadiationTreatment = (typeof RadiationTreatment)[keyof typeof RadiationTreatment];
export const RADIATION_TREATMENTS = valuesOf(RadiationTreatment);
