import { Group, Text } from '@mantine/core';
import { BRAND } from '../brand';

/** The platform's mark (the favicon's helix) and, unless compact, the brand name. */
export function BrandMark({ size = 32, withName = true, inverted = false }: { size?: number; withName?: boolean; inverted?: boolean }) {
  return (
    <Group gap={8} wrap="nowrap" align="center">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill={inverted ? '#ffffff' : '#0b6e69'} />
        <g fill="none" stroke={inverted ? '#0b6e69' : '#ffffff'} strokeWidth="2.4" strokeLinecap="round">
          <path d="M11 5c0 6 10 5 10 11s-10 5-10 11" />
          <path d="M21 5c0 6-10 5-10 11s10 5 10 11" />
          <path d="M13 8.5h6M13 23.5h6" strokeWidth="2" />
        </g>
      </svg>
      {withName && (
        <Text component="span" fw={700} fz="lg" c={inverted ? 'white' : 'clinical.8'} lh={1.1}>
          {BRAND}
          <Text component="span" fw={400} c={inverted ? 'white' : 'dimmed'} inherit>
            {' '}
            Platform
          </Text>
        </Text>
      )}
    </Group>
  );
}
