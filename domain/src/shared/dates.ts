/**
 * Calendar dates (YYYY-MM-DD, such as a date of birth): how they read (SPEC §9's MM/DD/YYYY) and
 * how they are checked. A calendar date is never shifted by a zone. Instants (a receipt, a
 * release) read in the lab's zone through lab-clock.ts beside this file.
 */

const DASH = '—';

/** A calendar date (YYYY-MM-DD, or a Date holding one at UTC midnight) as MM/DD/YYYY. */
export function formatCalendarDate(value: string | Date | null | undefined): string {
  if (!value) return DASH;
  const iso = typeof value === 'string' ? value : value.toISOString();
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[2]}/${m[3]}/${m[1]}` : DASH;
}

/** Date in data: YYYY-MM-DD (four-digit year, two-digit month and day). */
export const DATA_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Days in a month of the proleptic Gregorian calendar (month 1-12). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True when the value is YYYY-MM-DD and a real calendar date (2024-02-29 yes, 2026-02-30 no). */
export function isDataDate(value: string): boolean {
  const match = DATA_DATE_PATTERN.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Today as YYYY-MM-DD in the local time of whoever validates. */
export function todayDataDate(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
