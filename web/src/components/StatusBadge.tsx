import { Badge } from '@mantine/core';
import { workStatusOf, type SampleStatus } from '@platform/domain';
import { statusColor } from '../status-colors';

/**
 * A sample's or shipment's status, in its colour (the words are always shown, never colour alone).
 * A sample the lab keeps In Storage reads as its work left it (Resulted, say), as the lab's plate
 * map does: storage is the lab's shelf, not a step of the clinic's order.
 */
export function StatusBadge({ status, statusBeforeStorage = null, size = 'md' }: { status: string; statusBeforeStorage?: string | null; size?: 'sm' | 'md' | 'lg' }) {
  const shown = workStatusOf({ status: status as SampleStatus, statusBeforeStorage: statusBeforeStorage as SampleStatus | null });
  return (
    // White text on the status colour: every colour of the map reads at WCAG AA (≥ 4.5:1).
    <Badge color={statusColor(shown)} variant="filled" size={size} radius="sm">
      {shown}
    </Badge>
  );
}
