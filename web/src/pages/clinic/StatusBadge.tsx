import { Badge } from '@mantine/core';
import { statusColor } from '../../status-colors';

/** A sample's or shipment's status, in its colour (the words are always shown, never colour alone). */
export function StatusBadge({ status, size = 'md' }: { status: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    // White text on the status colour: every colour of the map reads at WCAG AA (≥ 4.5:1).
    <Badge color={statusColor(status)} variant="filled" size={size} radius="sm" style={{ textTransform: 'none' }}>
      {status}
    </Badge>
  );
}
