/**
 * The one way a form sends: @mantine/form validates, useSWRMutation runs the command (its busy and
 * error state, no hand-kept flags), and the server's field errors land on the form's fields.
 */
import { useId } from 'react';
import type { UseFormReturnType } from '@mantine/form';
import useSWRMutation from 'swr/mutation';
import { useFocusBack } from '../shell/focus-back';
import { defaultFieldOf, serverFieldErrors, type FieldOf } from './server-errors';

export interface FormSubmitOptions<Values, Result> {
  /** Maps a server field path to a form field; by default the form's own top-level fields. */
  fieldOf?: FieldOf;
  onSuccess?: (result: Result, values: Values) => void | Promise<void>;
  /**
   * After a failure, once the field messages are on the form. `placed` says whether they covered
   * the error (every server field found a form field); otherwise the form shows `error` itself.
   */
  onError?: (error: unknown, placed: boolean) => void;
}

export interface FormSubmit {
  /** The form's onSubmit handler (validation first). */
  onSubmit: (event?: React.FormEvent<HTMLElement>) => void;
  /** The same, for a button outside a <form>. */
  submit: () => void;
  submitting: boolean;
  /** The last failure that no field took (cleared by the next attempt), for the form's error line. */
  error: unknown;
  /** The last failure, whether or not fields took it. */
  lastError: unknown;
  /** Forgets the last outcome. */
  reset: () => void;
  /**
   * Wraps the handler that takes the outcome away (a message's or a refusal's close): after it,
   * the focus goes back to what sent the form (shell/focus-back.ts).
   */
  returnFocusAfter: <A extends unknown[]>(handler: (...args: A) => void) => (...args: A) => void;
}

const quiet = () => {};

/**
 * A command through useSWRMutation, its failures left to the caller: a mutation would otherwise
 * inherit the shell's query handlers (SWRConfig onError opens the error modal).
 */
export function useCommand<Arg, Result>(key: string, command: (arg: Arg) => Promise<Result>) {
  return useSWRMutation<Result, unknown, string, Arg>(key, (_key: string, { arg }: { arg: Arg }) => command(arg), {
    populateCache: false,
    revalidate: false,
    onError: quiet,
    onSuccess: quiet,
  });
}

/**
 * Sends a @mantine/form form: validation first (its rules), then `action` with the (transformed)
 * values. A refusal naming fields puts each message on its field (`fieldOf` maps the server's
 * paths); `error` is what no field took, for the form's FormError. Busy and error state are the
 * mutation's: nothing kept by hand.
 */
export function useFormSubmit<Values extends object, Submitted, Result>(
  form: UseFormReturnType<Values, Submitted>,
  action: (values: Submitted) => Promise<Result>,
  options: FormSubmitOptions<Submitted, Result> = {},
): FormSubmit {
  const key = `form:${useId()}`;
  const mutation = useCommand<Submitted, Result>(key, action);
  const fieldOf = options.fieldOf ?? defaultFieldOf(Object.keys(form.getValues()));
  const placed = serverFieldErrors(mutation.error, fieldOf).allPlaced;

  // While the command runs its button is busy (disabled), and a browser drops the focus from a
  // disabled control to <body>: once it has settled, the focus goes back to what sent the form
  // (the button, or the field Enter was pressed in), or with that gone to the page's heading,
  // unless the page has put it somewhere meanwhile (useFocusBack acts only on a lost focus). The
  // same goes when the page takes the outcome away (returnFocusAfter).
  const focusBack = useFocusBack();
  const settled = focusBack.after(() => undefined);
  const send = async (values: Submitted) => {
    focusBack.remember();
    mutation.reset(); // a new attempt: the last outcome goes
    let result: Result;
    try {
      result = await (mutation.trigger as (arg: Submitted) => Promise<Result>)(values);
    } catch (error) {
      const { errors, allPlaced } = serverFieldErrors(error, fieldOf);
      if (Object.keys(errors).length > 0) form.setErrors(errors);
      options.onError?.(error, allPlaced);
      settled();
      return;
    }
    await options.onSuccess?.(result, values);
    settled();
  };
  // A form refused by its own checks: the focus goes to the first field in error, brought into view
  // (below a sticky header on a phone), so the error is seen and its description read out.
  let sentFrom: HTMLElement | null = null;
  const showFirstError = () => {
    const formElement = sentFrom;
    requestAnimationFrame(() => {
      const field = formElement?.querySelector<HTMLElement>('[aria-invalid="true"]');
      if (!field) return;
      field.focus({ preventScroll: true });
      field.scrollIntoView?.({ block: 'center' });
    });
  };
  const handleSubmit = form.onSubmit((values) => send(values), () => {
    mutation.reset();
    showFirstError();
  });
  const onSubmit = (event?: React.FormEvent<HTMLElement>) => {
    sentFrom = event?.currentTarget ?? null;
    return handleSubmit(event as React.FormEvent<HTMLFormElement> | undefined);
  };
  return {
    onSubmit,
    submit: () => onSubmit(),
    submitting: mutation.isMutating,
    error: placed ? undefined : mutation.error,
    lastError: mutation.error,
    reset: mutation.reset,
    returnFocusAfter: focusBack.after,
  };
}
