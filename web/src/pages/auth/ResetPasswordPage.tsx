import { useState } from 'react';
import { Alert, Anchor, Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link, useSearchParams } from 'react-router-dom';
import { PASSWORD_RULE_TEXT, RESET_TOKEN_HEX_LENGTH, type SignInPortal } from '@platform/domain';
import { resetPassword } from '../../api/auth';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { NewPasswordFields, newPasswordRules } from '../../components/NewPasswordFields';
import { useFormSubmit } from '../../forms/use-form-submit';
import { forgotPasswordPath, signInPath, SIGN_IN_PORTAL_INFO } from '../../portals';
import { AuthCard } from './AuthCard';

const INVALID_LINK = 'This reset link is invalid or has expired.';
/** The emailed link carries a hex token of a fixed length; anything else cannot be one. */
const TOKEN_SHAPE = new RegExp(`^[0-9a-f]{${RESET_TOKEN_HEX_LENGTH}}$`, 'i');

/** What the alert says when the server refused without naming a field. */
function problemOf(error: unknown): string | undefined {
  if (error === undefined) return undefined;
  if (error instanceof ApiError && error.status > 0 && error.status < 500 && error.serverMessage) return error.serverMessage;
  return `Your password was not changed (${(error as Error).message}). Please try again.`;
}

/** Choose a new password from the emailed link (…/reset-password?token=…). */
export function ResetPasswordPage({ portal }: { portal: SignInPortal }) {
  const info = SIGN_IN_PORTAL_INFO[portal];
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  const form = useForm({ initialValues: { newPassword: '', confirmation: '' }, validate: newPasswordRules });
  const sending = useFormSubmit(form, ({ newPassword }) => resetPassword({ token, password: newPassword }), {
    fieldOf: (field) => (field === 'password' ? 'newPassword' : undefined),
    onSuccess: () => setDone(true),
  });

  if (done) {
    return (
      <AuthCard info={info} title="Password changed">
        <Alert color="green" variant="light" role="status" title="All set">
          Your password has been changed. Sign in with your new password.
        </Alert>
        <Button component={Link} to={signInPath(portal)} fullWidth>
          Go to sign-in
        </Button>
      </AuthCard>
    );
  }

  const problem = TOKEN_SHAPE.test(token) ? problemOf(sending.error) : INVALID_LINK;
  const linkUnusable = problem === INVALID_LINK || !TOKEN_SHAPE.test(token);
  return (
    <AuthCard info={info} title="Choose a new password" intro={PASSWORD_RULE_TEXT}>
      <FormError title="Password not changed" error={problem}>
        {linkUnusable && (
          <>
            {' '}
            <Anchor component={Link} to={forgotPasswordPath(portal)} fz="sm">
              Request a new link
            </Anchor>
          </>
        )}
      </FormError>
      {!linkUnusable && (
        <form onSubmit={sending.onSubmit} noValidate aria-label="Choose a new password">
          <Stack gap="md">
            <NewPasswordFields form={form} />
            <Group justify="space-between" align="center" mt={4}>
              <Anchor component={Link} to={signInPath(portal)} fz="sm">
                Back to sign-in
              </Anchor>
              <Button type="submit" loading={sending.submitting}>
                Save password
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
