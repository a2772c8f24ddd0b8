import { useState } from 'react';
import { useForm } from '@mantine/form';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { isSecondFactorChallenge, type Me, type SecondFactorChallenge, type SignInPortal } from '@platform/domain';
import { signIn, signOut } from '../../api/auth';
import { ApiError } from '../../api/fetcher';
import { forgotPasswordPath, PROVIDER_INFO_LINKS, REQUEST_ACCESS_PATH, safeReturnPath, SIGN_IN_PORTAL_INFO } from '../../portals';
import { homePathAfterSignIn } from '../../session/home-path';
import { INACTIVITY_SIGN_OUT_MESSAGE, INACTIVITY_SIGN_OUT_TITLE, wasSignedOutForInactivity } from '../../session/idle-timeout';
import { forgetIdleSignOut, signedOutForInactivityJustNow } from '../../session/last-api-activity';
import { clearStoredUser, storeSignedInUser } from '../../session/stored-user';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { AuthCard } from './AuthCard';
import { SecondStepForm } from '../../components/two-factor/SecondStepForm';
import { EnrolmentScreen } from '../../components/two-factor/EnrolmentScreen';

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
  // The reason travels in the address, or (when another tab or a 401 got here first) in the tabs' shared marker.
  const [signedOutIdle] = useState(() => wasSignedOutForInactivity(params) || signedOutForInactivityJustNow());
  const [noAccess, setNoAccess] = useState<string | null>(null);
  // The password was right and a second step follows (or, enrol, the first factor's setup).
  const [secondStep, setSecondStep] = useState<SecondFactorChallenge['secondFactor'] | null>(null);
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (value.trim() ? null : 'Enter your email address'),
      password: (value) => (value ? null : 'Enter your password'),
    },
  });
  /** Signed in (by the password alone, or after the second step): to the portal's home, or back. */
  const finish = async (me: Me) => {
    forgetIdleSignOut();
    const destination = safeReturnPath(params.get('next'), portal) ?? homePathAfterSignIn(portal, me);
    if (!destination) {
      await signOut().catch(() => undefined);
      clearStoredUser();
      setSecondStep(null);
      setNoAccess(`None of your accounts has ${info.title} access yet. Please contact your account's super admin.`);
      return;
    }
    storeSignedInUser(me, portal);
    navigate(destination, { replace: true });
  };
  const sending = useFormSubmit(
    form,
    async ({ email, password }) => {
      setNoAccess(null);
      const answer = await signIn({ email: email.trim(), password, portal });
      if (isSecondFactorChallenge(answer)) {
        form.setFieldValue('password', '');
        setSecondStep(answer.secondFactor);
        return;
      }
      await finish(answer);
    },
    { onError: () => form.setFieldValue('password', '') },
  );
  // A refusal shows in the alert even when it also names a field (the field says which).
  const problem = noAccess ?? (sending.lastError !== undefined ? problemOf(sending.lastError) : null);

  if (secondStep?.enrol) {
    return (
      <AuthCard info={info} title="Set up two-factor sign-in">
        <EnrolmentScreen onSignedIn={(me) => void finish(me)} />
      </AuthCard>
    );
  }
  if (secondStep) {
    return (
      <AuthCard info={info} title="Two-factor sign-in">
        <SecondStepForm methods={secondStep.methods} onSignedIn={(me) => void finish(me)} onCancel={() => setSecondStep(null)} />
      </AuthCard>
    );
  }

  return (
    <AuthCard info={info} title="Sign in" intro={info.audience}>
      <form onSubmit={sending.onSubmit} noValidate aria-label={`Sign in to ${info.title}`}>
        <Stack gap="md">
          {signedOutIdle && !problem && (
            <Alert color="clinical" variant="light" title={INACTIVITY_SIGN_OUT_TITLE} role="status" styles={{ title: { color: 'var(--mantine-color-clinical-9)' } }}>
              {INACTIVITY_SIGN_OUT_MESSAGE}
            </Alert>
          )}
          <FormError title="Could not sign you in" error={problem} />
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            inputMode="email"
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Group justify="space-between" align="center" mt={4}>
            <Anchor component={Link} to={forgotPasswordPath(portal)} fz="sm">
              Forgot password?
            </Anchor>
            <Button type="submit" loading={sending.submitting} miw={120}>
              Sign in
            </Button>
          </Group>
        </Stack>
      </form>
      {portal === 'provider' && (
        <Text fz="sm" ta="center">
          No account yet?{' '}
          <Anchor component={Link} to={REQUEST_ACCESS_PATH} inherit>
            Request access
          </Anchor>
        </Text>
      )}
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
