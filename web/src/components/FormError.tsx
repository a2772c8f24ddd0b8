import type { ReactNode } from 'react';
import { formErrorMessage } from '../forms/server-errors';
import { Notice } from './Notice';

/**
 * A form's error box: what went wrong that no single field owns (a refusal the server explains,
 * a failure to reach it). Shows nothing when there is no error. `error` is a failure (worded by
 * formErrorMessage) or the words themselves; `message` replaces those words (a list, say);
 * `children` follow them (a link to try again, say).
 */
export function FormError({ title, error, message, onClose, children }: {
  title?: string;
  error: unknown;
  message?: ReactNode;
  onClose?: () => void;
  children?: ReactNode;
}) {
  if (error === undefined || error === null || error === false || error === '') return null;
  return (
    <Notice color="red" title={title} onClose={onClose}>
      {message ?? (typeof error === 'string' ? error : formErrorMessage(error))}
      {children}
    </Notice>
  );
}
