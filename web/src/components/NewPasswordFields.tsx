import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { newPasswordProblem, PASSWORD_RULE_TEXT } from '@platform/domain';

export const PASSWORDS_DIFFER = 'The two passwords do not match';

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
