/**
 * The date-of-birth rule in words, without joi: the API's schema (provider-schemas.ts,
 * patientDateOfBirthSchema) and the SPA's forms say the same thing about the same date.
 */
import { isDataDate } from './identifiers';
import { EARLIEST_DATE_OF_BIRTH, todayDataDate } from './orders';

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

/** The sentence for a date of birth's problem (as the API says it), or null. */
export function dateOfBirthMessage(value: string, label = 'Date of birth'): string | null {
  const problem = dateOfBirthProblem(value.trim());
  return problem ? DATE_OF_BIRTH_MESSAGES[problem].replace('{#label}', label) : null;
}
