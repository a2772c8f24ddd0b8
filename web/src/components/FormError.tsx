import { Alert } from '@mantine/core';
import type { ReactNode } from 'react';
import { formErrorMessage } from '../forms/server-errors';

/**
 * A form's error line: what went wrong that no single field owns (a refusal the server explains,
 * a failure to reach it). Shows nothing when there is nothing to say. `error` is a failure (its
 * message is worded by formErrorMessage) or the words themselves.
 */
export function FormError({ title, error, onClose, children }: { title?: string; error: unknown; onClose?: () => void; children?: ReactNode }) {
  if (error === undefined || error === null || error === false || error === '') return null;
  return (
    <Alert color="red" variant="light" role="alert" title={title} withCloseButton={onClose !== undefined} onClose={onClose}>
      {typeof error === 'string' ? error : formErrorMessage(error)}
      {children}
    </Alert>
  );
}
