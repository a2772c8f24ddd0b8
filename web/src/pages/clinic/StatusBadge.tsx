import { Badge } from '@mantine/core';
import { statusColor } from '../../status-colors';

/** A sample's or shipment's status, in its colour (the words are always shown, never colour alone). */
export function StatusBadge({ status, size = 'md' }: { status: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    // A light fill in the status colour with dark text: readable (WCAG AA) whatever the colour.
    <Badge color={statusColor(status)} c="dark.8" variant="light" size={size} radius="sm" style={{ textTransform: 'none' }}>
      {status}
    </Badge>
  );
}
