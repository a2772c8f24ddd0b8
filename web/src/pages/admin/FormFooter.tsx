import { Button, Group } from '@mantine/core';
import { FormError } from '../../components/FormError';
import { commandError } from '../../forms/server-errors';
import type { FormSubmit } from '../../forms/use-form-submit';

/**
 * The end of an admin form: the refusal no field took, in the server's words (closing it forgets
 * it and gives the focus back to what sent the form, unless not `dismissible`), then the buttons
 * on the right: Cancel (given `onCancel`) and the submit button, busy while the form is sent.
 */
export function FormFooter({ sending, errorTitle, submitLabel, error = sending.error, onCancel, color, dismissible = true }: {
  sending: FormSubmit;
  errorTitle: string;
  submitLabel: string;
  /** The failure shown; by default the one no field took. */
  error?: unknown;
  onCancel?: () => void;
  /** The submit button's colour. */
  color?: string;
  dismissible?: boolean;
}) {
  return (
    <>
      <FormError
        title={errorTitle}
        error={error}
        message={error === undefined ? undefined : commandError(error)}
        onClose={dismissible ? sending.returnFocusAfter(sending.reset) : undefined}
      />
      <Group justify="flex-end">
        {onCancel && (
          <Button variant="default" onClick={onCancel} disabled={sending.submitting}>
            Cancel
          </Button>
        )}
        <Button type="submit" color={color} loading={sending.submitting}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}
