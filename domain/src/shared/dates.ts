/**
 * How dates read everywhere: pages, PDFs and emails (SPEC §9: MM/DD/YYYY, with a time variant; MM/DD
 * where the year goes without saying, as in a list of this year's events; MMM D, YYYY where a date is
 * read as words, as in a letter or a deadline), and dates in data (YYYY-MM-DD).
 * Pure Intl, no library, so the SPA imports it too. Instants take the viewer's time zone unless one
 * is given (the server passes none: the lab's own zone); calendar dates (YYYY-MM-DD, such as a date
 * of birth) are never shifted by a zone.
 */

type Instant = Date | string | null | undefined;

const DASH = '—';
const formats = new Map<string, Intl.DateTimeFormat>();

type Kind = 'date' | 'dateTime' | 'time' | 'short' | 'long';

const OPTIONS: Record<Kind, Intl.DateTimeFormatOptions> = {
  date: { month: '2-digit', day: '2-digit', year: 'numeric' },
  dateTime: { month: '2-digit', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit' },
  time: { hour: 'numeric', minute: '2-digit', second: '2-digit' },
  short: { month: '2-digit', day: '2-digit' },
  long: { month: 'short', day: 'numeric', year: 'numeric' },
};

function formatter(kind: Kind, timeZone?: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone ?? ''}`;
  let f = formats.get(key);
  if (!f) {
    const options = OPTIONS[kind];
    f = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    formats.set(key, f);
  }
  return f;
}

const toDate = (value: Date | string) => (typeof value === 'string' ? new Date(value) : value);

/** An instant as MM/DD/YYYY. */
export function formatDate(value: Instant, timeZone?: string): string {
  return value ? formatter('date', timeZone).format(toDate(value)) : DASH;
}

/** An instant as MM/DD/YYYY h:mm AM. */
export function formatDateTime(value: Instant, timeZone?: string): string {
  return value ? formatter('dateTime', timeZone).format(toDate(value)).replace(',', '') : DASH;
}

/** An instant as MM/DD (SPEC §9's short date: where the year goes without saying). */
export function formatShortDate(value: Instant, timeZone?: string): string {
  return value ? formatter('short', timeZone).format(toDate(value)) : DASH;
}

/** An instant as MMM D, YYYY (SPEC §9's long date: a date read as words, a deadline or a letter). */
export function formatLongDate(value: Instant, timeZone?: string): string {
  return value ? formatter('long', timeZone).format(toDate(value)) : DASH;
}

/** A time of day with seconds (a scan log). */
export function formatTime(value: Date | string, timeZone?: string): string {
  return formatter('time', timeZone).format(toDate(value));
}

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
