/** How every page shows dates (SPEC §9: MM/DD/YYYY, with time variants), names and counts. */
const dateFormat = new Intl.DateTimeFormat('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { month: '2-digit', day: '2-digit', year: 'numeric', hour: 'numeric', minute: '2-digit' });
const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** An instant (ISO string) as MM/DD/YYYY in the viewer's time zone. */
export const formatDate = (iso: string | null | undefined) => (iso ? dateFormat.format(new Date(iso)) : '—');
/** An instant as MM/DD/YYYY h:mm AM. */
export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTimeFormat.format(new Date(iso)).replace(',', '') : '—');
/** A time of day with seconds (a scan log). */
export const formatTime = (date: Date) => timeFormat.format(date);
export const formatCount = (n: number) => n.toLocaleString('en-US');

/** A calendar date (YYYY-MM-DD, e.g. a date of birth) as MM/DD/YYYY: no time zone may shift it. */
export function formatDataDate(value: string | null | undefined): string {
  const m = value ? /^(\d{4})-(\d{2})-(\d{2})/.exec(value) : null;
  return m ? `${m[2]}/${m[3]}/${m[1]}` : '—';
}

export const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;
/** "Carter, John": how lists of patients read. */
export const listName = (p: { firstName: string; lastName: string }) => `${p.lastName}, ${p.firstName}`;
