import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { PASSWORD_MIN_LENGTH, RESET_TOKEN_HEX_LENGTH, type SignInPortal } from '@platform/domain';
import { resetPassword } from '../../api/auth';
import { ApiError } from '../../api/fetcher';
import { forgotPasswordPath, signInPath, SIGN_IN_PORTAL_INFO } from '../../portals';
import { AuthCard } from './AuthCard';

const INVALID_LINK = 'This reset link is invalid or has expired.';
/** The emailed link carries a hex token of a fixed length; anything else cannot be one. */
const TOKEN_SHAPE = new RegExp(`^[0-9a-f]{${RESET_TOKEN_HEX_LENGTH}}$`, 'i');

/** Choose a new password from the emailed link (…/reset-password?token=…). */
export function ResetPasswordPage({ portal }: { portal: SignInPortal }) {
  const info = SIGN_IN_PORTAL_INFO[portal];
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({});
  const [problem, setProblem] = useState<string | null>(TOKEN_SHAPE.test(token) ? null : INVALID_LINK);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = {
      password: password.length < PASSWORD_MIN_LENGTH ? `Use at least ${PASSWORD_MIN_LENGTH} characters` : undefined,
      confirmation: confirmation !== password ? 'The two passwords do not match' : undefined,
    };
    setErrors(next);
    if (next.password || next.confirmation) return;
    setSaving(true);
    try {
      await resetPassword({ token, password });
      setDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.fieldMessage('password')) {
        setErrors({ password: error.fieldMessage('password') });
      } else if (error instanceof ApiError && error.status < 500 && error.serverMessage) {
        setProblem(error.serverMessage);
      } else {
        setProblem(`Your password was not changed (${(error as Error).message}). Please try again.`);
      }
    } finally {
      setSaving(false);
    }
  };

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

  const linkUnusable = problem === INVALID_LINK || !TOKEN_SHAPE.test(token);
  return (
    <AuthCard info={info} title="Choose a new password" intro={`Use at least ${PASSWORD_MIN_LENGTH} characters, with at least one letter and one digit.`}>
      {problem && (
        <Alert color="red" variant="light" role="alert" title="Password not changed">
          {problem}{' '}
          {linkUnusable && (
            <Anchor component={Link} to={forgotPasswordPath(portal)} fz="sm">
              Request a new link
            </Anchor>
          )}
        </Alert>
      )}
      {!linkUnusable && (
        <form onSubmit={submit} noValidate aria-label="Choose a new password">
          <Stack gap="md">
            <PasswordInput
              label="New password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={errors.password}
              />
            <PasswordInput
              label="New password again"
              autoComplete="new-password"
              required
              value={confirmation}
              onChange={(e) => setConfirmation(e.currentTarget.value)}
              error={errors.confirmation}
            />
            <Group justify="space-between" align="center" mt={4}>
              <Anchor component={Link} to={signInPath(portal)} fz="sm">
                Back to sign-in
              </Anchor>
              <Button type="submit" loading={saving}>
                Save password
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
