/**
 * The lab's clock (issue 30, item 6): how an instant reads, and how days, weeks and months are
 * counted, in the lab's own time zone (LAB_TIME_ZONE, an IANA name such as America/New_York).
 * Every layer takes the zone from one place: the server and the worker from their config
 * (server/src/config.ts), the SPA from the page the server sends (web/src/format.ts). Nothing here
 * reads the machine's zone: a container in UTC and a browser in Tokyo print the same time as the lab.
 *
 * Formats (SPEC §9): MM/DD/YYYY, MM/DD, MMM D, YYYY, and the time variants, a time always followed
 * by the zone's abbreviation ("11/28/2026 2:05 PM EST"), so a reader never guesses the zone.
 * Calendar arithmetic is luxon's in the zone: "3 months after" and "N days after" keep the wall
 * clock time across a daylight-saving change (a day is then 23 or 25 hours), and a week starts on
 * the zone's Monday at midnight.
 */
import { DateTime, IANAZone } from 'luxon';

/** An instant as the layers carry it: a Date, an ISO string from JSON, or nothing. */
export type Instant = Date | string | null | undefined;

const DASH = '—';
const LOCALE = 'en-US';

/** True when `zone` is an IANA time zone name this runtime knows (America/New_York yes, EST5 or Mars/Olympus no). */
export function isLabTimeZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/** The instant as luxon's DateTime in `zone`, or null when there is none or it is not a time. */
function inZone(value: Instant, zone: string): DateTime | null {
  if (!value) return null;
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return null;
  return DateTime.fromJSDate(date, { zone }).setLocale(LOCALE);
}

const formatted = (value: Instant, zone: string, format: string) => inZone(value, zone)?.toFormat(format) ?? DASH;

/** An instant as MM/DD/YYYY, the lab's day. */
export const formatDate = (value: Instant, zone: string) => formatted(value, zone, 'MM/dd/yyyy');

/** An instant as MM/DD/YYYY h:mm AM and the zone's abbreviation ("11/28/2026 2:05 PM EST"). */
export const formatDateTime = (value: Instant, zone: string) => formatted(value, zone, 'MM/dd/yyyy h:mm a ZZZZ');

/** An instant as MM/DD (SPEC §9's short date: where the year goes without saying). */
export const formatShortDate = (value: Instant, zone: string) => formatted(value, zone, 'MM/dd');

/** An instant as MMM D, YYYY (SPEC §9's long date: a date read as words, a deadline or a letter). */
export const formatLongDate = (value: Instant, zone: string) => formatted(value, zone, 'LLL d, yyyy');

/** A time of day with seconds and the zone's abbreviation (a scan log: "2:05:09 PM EST"). */
export const formatTime = (value: Instant, zone: string) => formatted(value, zone, 'h:mm:ss a ZZZZ');

/** The zone's abbreviation at an instant ("EST" in January, "EDT" in July for America/New_York). */
export const zoneAbbreviation = (zone: string, at: Date = new Date()) => formatted(at, zone, 'ZZZZ');

// ---------------------------------------------------------------------------------------------
// The lab's calendar
// ---------------------------------------------------------------------------------------------

function required(value: Date, zone: string): DateTime {
  const at = inZone(value, zone);
  if (!at) throw new RangeError('Not an instant');
  return at;
}

/** The lab's day of an instant, as a date in data (YYYY-MM-DD). */
export const labDayOf = (at: Date, zone: string): string => required(at, zone).toFormat('yyyy-MM-dd');

/** The instant the lab's day of `at` began (midnight in the zone). */
export const startOfLabDay = (at: Date, zone: string): Date => required(at, zone).startOf('day').toJSDate();

/** The Monday (YYYY-MM-DD) of the lab's week holding `at`: the turnaround dashboard's week. */
export const labWeekOf = (at: Date, zone: string): string => required(at, zone).startOf('week').toFormat('yyyy-MM-dd');

/** `days` calendar days after `at` in the zone: the same wall-clock time, 23 or 25 hours for a day across a daylight-saving change. */
export const addLabDays = (at: Date, days: number, zone: string): Date => required(at, zone).plus({ days }).toJSDate();

/** `months` calendar months after `at` in the zone, same wall-clock time; the 31st of a shorter month becomes its last day. */
export const addLabMonths = (at: Date, months: number, zone: string): Date => required(at, zone).plus({ months }).toJSDate();

// ---------------------------------------------------------------------------------------------
// Date-time inputs: what a person types is the lab's wall clock
// ---------------------------------------------------------------------------------------------

/** A datetime-local input's value (YYYY-MM-DDTHH:mm, the lab's wall clock) as an ISO instant, or undefined when empty or not a time. */
export function labInputToIso(value: string, zone: string): string | undefined {
  if (!value) return undefined;
  const at = DateTime.fromISO(value, { zone });
  return at.isValid ? at.toUTC().toISO() ?? undefined : undefined;
}

/** An instant as a datetime-local input's value on the lab's wall clock (now: the input's max). */
export const labInputValue = (at: Date, zone: string): string => required(at, zone).toFormat("yyyy-MM-dd'T'HH:mm");
