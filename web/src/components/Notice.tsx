import type { ReactNode } from 'react';
import { Alert } from '@mantine/core';

const BORDER: Record<string, string> = { green: 'green', red: 'red', orange: 'orange', blue: 'blue' };

/** A message box: coloured border and background, its title and text in the body colour (readable on the tint). */
export function Notice({ color, title, children, onClose }: { color: 'green' | 'red' | 'orange' | 'blue'; title?: ReactNode; children?: ReactNode; onClose?: () => void }) {
  return (
    <Alert
      color={BORDER[color]}
      variant="light"
      title={title}
      withCloseButton={Boolean(onClose)}
      onClose={onClose}
      closeButtonLabel="Dismiss"
      styles={{ title: { color: 'var(--mantine-color-text)' }, message: { color: 'var(--mantine-color-text)', whiteSpace: 'pre-line' } }}
      style={{ borderLeft: `4px solid var(--mantine-color-${BORDER[color]}-7)` }}
    >
      {children}
    </Alert>
  );
}
