import { Badge } from '@mantine/core';
import { statusColor } from './format';

/** A sample's or shipment's status, in its colour (the words are always shown, never colour alone). */
export function StatusBadge({ status, size = 'md' }: { status: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <Badge color={statusColor(status)} variant="light" size={size} radius="sm" style={{ textTransform: 'none' }}>
      {status}
    </Badge>
  );
}
