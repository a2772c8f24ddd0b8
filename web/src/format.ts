/**
 * How pages show money and date inputs. Dates, names and counts read through @platform/domain
 * (formatDate…, fullName, listName, formatCount), as in PDFs and emails.
 */

export const formatCents = (cents: number | null) => (cents === null ? '—' : `$${(cents / 100).toFixed(2)}`);

/** A datetime-local input's value (local time) as an ISO instant, or undefined when empty. */
export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** Now as a datetime-local input's value (its max). */
export function nowLocalInput(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}
