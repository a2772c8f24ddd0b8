import type { ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { FormError } from './FormError';
import { AA_COLORS } from '../status-colors';

/** "Are you sure?" before a command that takes something away (or sends something again); its failure shows inside. */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onClose, busy, error, errorTitle = 'Not done', danger = true }: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  busy: boolean;
  /** The last failure (the server's words are shown). */
  error?: unknown;
  errorTitle?: string;
  danger?: boolean;
}) {
  return (
    <Modal opened onClose={onClose} title={title}>
      <Stack gap="md">
        {typeof children === 'string' ? <Text>{children}</Text> : children}
        <FormError title={errorTitle} error={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button color={danger ? AA_COLORS.red : undefined} onClick={onConfirm} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
