import { useState, type FormEvent } from 'react';
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { SignInPortal } from '@platform/domain';
import { requestPasswordReset } from '../../api/auth';
import { ApiError } from '../../api/fetcher';
import { MessageModal, type MessageTone } from '../../components/MessageModal';
import { signInPath, SIGN_IN_PORTAL_INFO } from '../../portals';
import { AuthCard } from './AuthCard';

const SENT = 'If an account exists for that email, a reset link is on its way.';

/** Asks for a reset link by email; the answer never says whether the account exists. */
export function ForgotPasswordPage({ portal }: { portal: SignInPortal }) {
  const info = SIGN_IN_PORTAL_INFO[portal];
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const [message, setMessage] = useState<{ tone: MessageTone; title: string; text: string } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setEmailError('Enter your email address');
      return;
    }
    setEmailError(undefined);
    setSending(true);
    try {
      const answer = await requestPasswordReset({ email: email.trim(), portal });
      setMessage({ tone: 'success', title: 'Check your email', text: answer?.message ?? SENT });
    } catch (error) {
      if (error instanceof ApiError && error.fieldMessage('email')) {
        setEmailError(error.fieldMessage('email'));
      } else {
        const text = error instanceof ApiError && error.serverMessage && error.status < 500 ? error.serverMessage : (error as Error).message;
        setMessage({ tone: 'error', title: 'Could not send the reset link', text });
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <AuthCard info={info} title="Reset your password" intro="Enter the email you sign in with. We will send you a link to choose a new password.">
      <form onSubmit={submit} noValidate aria-label="Request a password reset link">
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            inputMode="email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={emailError}
          />
          <Group justify="space-between" align="center" mt={4}>
            <Anchor component={Link} to={signInPath(portal)} fz="sm">
              Back to sign-in
            </Anchor>
            <Button type="submit" loading={sending}>
              Send reset link
            </Button>
          </Group>
        </Stack>
      </form>
      <MessageModal
        opened={message !== null}
        onClose={() => setMessage(null)}
        title={message?.title ?? ''}
        message={message?.text ?? ''}
        tone={message?.tone ?? 'success'}
      />
    </AuthCard>
  );
}
