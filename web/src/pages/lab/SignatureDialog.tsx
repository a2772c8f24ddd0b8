/**
 * Electronic signatures in the Lab Toolbox (issue 29, part 2; 21 CFR 11.50, 11.70, 11.200): approving
 * results for release and entering a correction are signed by re-entering one's password. Before
 * signing the person sees what they sign, the signature's meaning (domain's SignatureMeaning, as the
 * report prints it), their own name as the signer, and that the signature binds them as a
 * handwritten one does (11.100(c)). The password lives in the form's state only: it goes with the
 * command, is forgotten after a refusal, and goes with the dialog when it closes (unmounted).
 *
 * `SignatureDialog` is the one signing dialog (a batch approval); `SignatureFields` are its signing
 * part, for a form that signs inline (the correction).
 */
import { useId, useRef, type ReactNode, type Ref } from 'react';
import { Button, Fieldset, Group, List, Modal, PasswordInput, Stack, Text, type PasswordInputProps } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { countOf, type SignatureMeaning } from '@platform/domain';
import { useMe } from '../../api/auth';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';

/** Listed one by one up to this many; a longer batch is given by its count. */
const LISTED_AT_MOST = 6;

export const ENTER_PASSWORD = 'Enter your password to sign';

/** The server refused the signature itself (a wrong or missing password, too many wrong ones): nothing was signed. */
export const isSignatureRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError && (error.status === 429 || error.fieldMessage('password') !== undefined);

/** A form that signs: its `password` value, required before anything is sent. */
export const signingPasswordRule = (password: string) => (password ? null : ENTER_PASSWORD);

/**
 * After a refused signature the password typed is forgotten (its message stays on the field) and the
 * field takes the focus, ready for the password again.
 */
export function forgetRefusedPassword<V extends { password: string }>(form: UseFormReturnType<V>, error: unknown, field: HTMLInputElement | null): void {
  if (!isSignatureRefusal(error)) return;
  const message = error.fieldMessage('password');
  form.setFieldValue('password' as never, '' as never);
  if (message) form.setFieldError('password', message);
  field?.focus();
}

/**
 * What a signature means and who signs, then the password field: the signing part of a form.
 * `passwordProps` come from the form (getInputProps('password')); `autoFocus` when the field is the
 * first thing to fill (the dialog's).
 */
export function SignatureFields({ meaning, passwordProps, autoFocus = false, ref }: {
  meaning: SignatureMeaning;
  passwordProps: PasswordInputProps;
  autoFocus?: boolean;
  ref?: Ref<HTMLInputElement>;
}) {
  const { data: me } = useMe();
  // Mantine's PasswordInput leaves its description and error unnamed on the input: said here, so a
  // screen reader reads a refusal with the field.
  const id = useId();
  const signer = me ? `${me.user.firstName} ${me.user.lastName}`.trim() : '';
  return (
    <Fieldset legend="Electronic signature" variant="filled">
      <Stack gap="xs">
        <Text fw={700}>Meaning of this signature: {meaning}</Text>
        <Text fz="sm">Signed by: <b>{signer}</b>{me ? ` (${me.user.email})` : ''}</Text>
        <Text fz="sm">
          Signing with your password is the legally binding equivalent of your handwritten signature. Your name, the date and time and this meaning are recorded with each result signed, and the lab report prints them.
        </Text>
        <PasswordInput
          ref={ref}
          label="Your password"
          description="The password you sign in with"
          autoComplete="current-password"
          required
          {...(autoFocus ? { 'data-autofocus': true } : {})}
          {...passwordProps}
          id={id}
          aria-invalid={passwordProps.error ? true : undefined}
          aria-describedby={passwordProps.error ? `${id}-description ${id}-error` : `${id}-description`}
        />
      </Stack>
    </Fieldset>
  );
}

/** One signed item as the dialog lists it ("61000000001234 · PROSTOX ultra: High Risk"). */
export interface SignedItem {
  key: string | number;
  text: string;
}

/**
 * The signing dialog: "You are signing N results" (each listed when few), what signing does
 * (`children`), the meaning, the signer and the password. `onSign` sends the command with the
 * password; a refusal of the password stays in the dialog, on the password field (a throttle's
 * refusal above the buttons), and nothing closes. Its answer goes to `onSigned`, whose caller closes
 * the dialog. Cancel sends nothing.
 */
export function SignatureDialog<Result>({ title, meaning, items, children, signLabel, onSign, onSigned, onCancel }: {
  title: string;
  meaning: SignatureMeaning;
  items: SignedItem[];
  children?: ReactNode;
  signLabel: string;
  onSign: (password: string) => Promise<Result>;
  onSigned: (result: Result) => void;
  onCancel: () => void;
}) {
  const form = useForm<{ password: string }>({ initialValues: { password: '' }, validate: { password: signingPasswordRule } });
  const passwordField = useRef<HTMLInputElement>(null);
  const sending = useFormSubmit(form, ({ password }) => onSign(password), {
    onSuccess: (result) => {
      form.reset();
      onSigned(result);
    },
    onError: (error) => forgetRefusedPassword(form, error, passwordField.current),
  });
  // While the command runs the dialog stays: what it signs is being signed.
  const close = () => {
    if (!sending.submitting) onCancel();
  };
  return (
    <Modal opened onClose={close} title={title} size="lg">
      <form onSubmit={sending.onSubmit} noValidate>
        <Stack gap="sm">
          <Text fw={600}>You are signing {countOf(items.length, 'result', 'results')}{items.length <= LISTED_AT_MOST ? ':' : '.'}</Text>
          {items.length <= LISTED_AT_MOST && (
            <List size="sm" spacing={2} aria-label="What you sign">
              {items.map((item) => <List.Item key={item.key}>{item.text}</List.Item>)}
            </List>
          )}
          {children}
          <SignatureFields ref={passwordField} meaning={meaning} autoFocus passwordProps={form.getInputProps('password')} />
          <FormError title="Nothing was signed" error={sending.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={sending.submitting}>Cancel</Button>
            <Button type="submit" loading={sending.submitting}>{signLabel}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
