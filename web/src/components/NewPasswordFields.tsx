import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { PASSWORD_MIN_LENGTH } from '@platform/domain';

/** The rule a new password meets (the API's passwordSchema says the same): length, a letter, a digit. */
export const PASSWORD_RULE_TEXT = `Use at least ${PASSWORD_MIN_LENGTH} characters, with at least one letter and one digit.`;
export const PASSWORDS_DIFFER = 'The two passwords do not match';

/** What is wrong with a new password, or null. */
export function newPasswordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters`;
  if (!/\p{L}/u.test(password)) return 'Use at least one letter';
  if (!/\p{Nd}/u.test(password)) return 'Use at least one digit';
  return null;
}

interface NewPasswordValues {
  newPassword: string;
  confirmation: string;
}

/** The form rules of the two fields: the password rule, and the second typing matching the first. */
export const newPasswordRules = {
  newPassword: (value: string) => newPasswordProblem(value),
  confirmation: (value: string, values: NewPasswordValues) => (value !== values.newPassword ? PASSWORDS_DIFFER : null),
};

/** A new password typed twice ('New password', 'New password again'), for any form holding newPassword and confirmation. */
export function NewPasswordFields<V extends NewPasswordValues>({ form, withRuleText = false }: { form: UseFormReturnType<V, any>; withRuleText?: boolean }) {
  return (
    <>
      <PasswordInput
        label="New password"
        description={withRuleText ? PASSWORD_RULE_TEXT : undefined}
        autoComplete="new-password"
        required
        key={form.key('newPassword')}
        {...form.getInputProps('newPassword')}
      />
      <PasswordInput label="New password again" autoComplete="new-password" required key={form.key('confirmation')} {...form.getInputProps('confirmation')} />
    </>
  );
}
