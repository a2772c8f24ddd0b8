import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { SignInPortal } from '@platform/domain';
import { signIn, signOut } from '../../api/auth';
import { ApiError } from '../../api/fetcher';
import { forgotPasswordPath, safeReturnPath, SIGN_IN_PORTAL_INFO } from '../../portals';
import { homePathAfterSignIn } from '../../session/home-path';
import { INACTIVITY_SIGN_OUT_MESSAGE, INACTIVITY_SIGN_OUT_TITLE, wasSignedOutForInactivity } from '../../session/idle-timeout';
import { forgetIdleSignOut, signedOutForInactivityJustNow } from '../../session/last-api-activity';
import { clearStoredUser, storeSignedInUser } from '../../session/stored-user';
import { PROVIDER_INFO_LINKS } from '../provider/paths';
import { AuthCard } from './AuthCard';

function problemOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return error.message;
    if (error.serverMessage && error.status < 500) return error.serverMessage;
    return `Sign-in is not available right now (${error.message}). Please try again in a moment.`;
  }
  return 'Sign-in failed. Please try again.';
}

/** Sign-in of one portal (admin, provider, research, lab); afterwards to its home, or back. */
export function SignInPage({ portal }: { portal: SignInPortal }) {
  const info = SIGN_IN_PORTAL_INFO[portal];
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [signingIn, setSigningIn] = useState(false);
  // The reason travels in the address, or (when another tab or a 401 got here first) in the tabs' shared marker.
  const [signedOutIdle] = useState(() => wasSignedOutForInactivity(params) || signedOutForInactivityJustNow());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const errors = {
      email: email.trim() ? undefined : 'Enter your email address',
      password: password ? undefined : 'Enter your password',
    };
    setFieldErrors(errors);
    setProblem(null);
    if (errors.email || errors.password) return;
    setSigningIn(true);
    try {
      const me = await signIn({ email: email.trim(), password, portal });
      forgetIdleSignOut();
      const destination = safeReturnPath(params.get('next'), portal) ?? homePathAfterSignIn(portal, me);
      if (!destination) {
        await signOut().catch(() => undefined);
        clearStoredUser();
        setProblem(`None of your accounts has ${info.title} access yet. Please contact your account's super admin.`);
        return;
      }
      storeSignedInUser(me, portal);
      navigate(destination, { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.fields.length > 0) {
        setFieldErrors({ email: error.fieldMessage('email'), password: error.fieldMessage('password') });
      }
      setProblem(problemOf(error));
      setPassword('');
    } finally {
      setSigningIn(false);
    }
  };

  return (
    <AuthCard info={info} title="Sign in" intro={info.audience}>
      <form onSubmit={submit} noValidate aria-label={`Sign in to ${info.title}`}>
        <Stack gap="md">
          {signedOutIdle && !problem && (
            <Alert color="clinical" variant="light" title={INACTIVITY_SIGN_OUT_TITLE} role="status" styles={{ title: { color: 'var(--mantine-color-clinical-9)' } }}>
              {INACTIVITY_SIGN_OUT_MESSAGE}
            </Alert>
          )}
          {problem && (
            <Alert color="red" variant="light" title="Could not sign you in" role="alert">
              {problem}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            inputMode="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={fieldErrors.email}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldErrors.password}
          />
          <Group justify="space-between" align="center" mt={4}>
            <Anchor component={Link} to={forgotPasswordPath(portal)} fz="sm">
              Forgot password?
            </Anchor>
            <Button type="submit" loading={signingIn} miw={120}>
              Sign in
            </Button>
          </Group>
        </Stack>
      </form>
      {portal === 'provider' && (
        <Stack component="nav" aria-label="Information for physicians" gap={4} pt="md" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
          <Text fz="sm" c="dimmed">
            Information for physicians
          </Text>
          {PROVIDER_INFO_LINKS.map((page) => (
            <Anchor key={page.to} component={Link} to={page.to} fz="sm">
              {page.label}
            </Anchor>
          ))}
        </Stack>
      )}
    </AuthCard>
  );
}
