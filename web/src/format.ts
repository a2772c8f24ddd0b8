/**
 * How pages show money, instants and date-time inputs. Instants read on the lab's clock
 * (LAB_TIME_ZONE, docs/lab-time-zone.md) through @platform/domain's lab-clock, as in PDFs and
 * emails, a time followed by the zone's abbreviation; names, calendar dates (a date of birth) and
 * counts read through @platform/domain directly (fullName, formatCalendarDate, formatCount).
 *
 * The SPA learns the zone from the page the API sends: index.html carries
 * <meta name="lab-time-zone" content="America/New_York"> (api/src/web/index-html.ts), read before
 * anything renders, so a first paint needs no extra request. A page without it (Vite's dev
 * server) reads in the browser's own zone, still with the abbreviation beside every time.
 */
import {
  formatDate as dateIn, formatDateTime as dateTimeIn, formatLongDate as longDateIn, formatShortDate as shortDateIn, formatTime as timeIn,
  isLabTimeZone, labInputToIso, labInputValue, type Instant,
} from '@platform/domain';

export const formatCents = (cents: number | null) => (cents === null ? '—' : `$${(cents / 100).toFixed(2)}`);

/** The meta tag of index.html that names the lab's zone. */
export const LAB_TIME_ZONE_META = 'lab-time-zone';

let known: { content: string | null; zone: string } | null = null;

/** The lab's zone, as the page names it (else the browser's). */
export function labTimeZone(): string {
  const content = typeof document === 'undefined' ? null : document.querySelector<HTMLMetaElement>(`meta[name="${LAB_TIME_ZONE_META}"]`)?.content ?? null;
  if (known?.content !== content) {
    known = { content, zone: content && isLabTimeZone(content) ? content : Intl.DateTimeFormat().resolvedOptions().timeZone };
  }
  return known.zone;
}

/** An instant as MM/DD/YYYY, the lab's day. */
export const formatDate = (value: Instant) => dateIn(value, labTimeZone());
/** An instant as MM/DD/YYYY h:mm AM and the zone's abbreviation ("11/28/2026 2:05 PM EST"). */
export const formatDateTime = (value: Instant) => dateTimeIn(value, labTimeZone());
/** An instant as MM/DD. */
export const formatShortDate = (value: Instant) => shortDateIn(value, labTimeZone());
/** An instant as MMM D, YYYY. */
export const formatLongDate = (value: Instant) => longDateIn(value, labTimeZone());
/** A time of day with seconds and the zone's abbreviation (a scan log). */
export const formatTime = (value: Instant) => timeIn(value, labTimeZone());

/** A datetime-local input's value (the lab's wall clock, whatever the browser's zone) as an ISO instant, or undefined when empty. */
export const localInputToIso = (value: string): string | undefined => labInputToIso(value, labTimeZone());

/** An ISO instant as a datetime-local input's value on the lab's wall clock ('' for none). */
export const isoToLocalInput = (iso: string | null): string => (iso ? labInputValue(new Date(iso), labTimeZone()) : '');

/** Now as a datetime-local input's value on the lab's wall clock (its max). */
export const nowLocalInput = (): string => labInputValue(new Date(), labTimeZone());
