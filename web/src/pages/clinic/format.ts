/** How the Clinical Portal shows statuses; dates and names come from the shared web/src/format.ts. */
import { SampleStatus, ShipmentStatus } from '@platform/domain';

export { formatDataDate, formatDate, formatDateTime, fullName, listName } from '../../format';

const STATUS_COLORS: Record<string, string> = {
  [SampleStatus.OrderPlaced]: 'gray',
  [SampleStatus.PendingShipment]: 'yellow',
  [SampleStatus.InTransit]: 'blue',
  [SampleStatus.InQueue]: 'indigo',
  [SampleStatus.InTesting]: 'violet',
  [SampleStatus.Resulted]: 'green',
  [SampleStatus.Completed]: 'teal',
  [SampleStatus.Rejected]: 'red',
  [SampleStatus.InStorage]: 'cyan',
  [SampleStatus.Discarded]: 'dark',
  [ShipmentStatus.NotReadyToShip]: 'gray',
  [ShipmentStatus.ReadyToShip]: 'yellow',
  [ShipmentStatus.Shipped]: 'blue',
  [ShipmentStatus.Cancelled]: 'red',
  [ShipmentStatus.OnHold]: 'orange',
};

export const statusColor = (status: string) => STATUS_COLORS[status] ?? 'gray';

export const formatCents = (cents: number | null) => (cents === null ? '—' : `$${(cents / 100).toFixed(2)}`);
