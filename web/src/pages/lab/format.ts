/** How the Lab Toolbox shows sample statuses; dates come from the shared web/src/format.ts. */
import { SampleStatus } from '@platform/domain';

export { formatCount, formatDate, formatDateTime, formatTime } from '../../format';

/** Colours dark enough for white text on a filled badge or button (WCAG AA, 4.5:1). */
export const AA_COLORS = { green: '#1e7b34', orange: '#a3470f', red: 'red.9', gray: 'gray.7', blue: 'blue.9' } as const;

const STATUS_COLORS: Record<string, string> = {
  [SampleStatus.OrderPlaced]: 'gray.7',
  [SampleStatus.PendingShipment]: '#7a5200',
  [SampleStatus.InTransit]: 'blue.9',
  [SampleStatus.InQueue]: 'indigo.9',
  [SampleStatus.InTesting]: 'violet.9',
  [SampleStatus.Resulted]: AA_COLORS.green,
  [SampleStatus.Completed]: 'teal.9',
  [SampleStatus.Rejected]: 'red.9',
  [SampleStatus.InStorage]: 'cyan.9',
  [SampleStatus.Discarded]: 'dark.6',
};
/** A sample status's colour, for a filled badge. */
export const statusColor = (status: string) => STATUS_COLORS[status] ?? 'gray.7';

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
