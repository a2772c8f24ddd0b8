import { useState } from 'react';
import { useForm } from '@mantine/form';
import { Anchor, Button, Group, Stack, TextInput } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { SignInPortal } from '@platform/domain';
import { requestPasswordReset } from '../../api/auth';
import { MessageModal, type MessageTone } from '../../components/MessageModal';
import { formErrorMessage } from '../../forms/server-errors';
import { useFormSubmit } from '../../forms/use-form-submit';
import { signInPath, SIGN_IN_PORTAL_INFO } from '../../portals';
import { AuthCard } from './AuthCard';

const SENT = 'If an account exists for that email, a reset link is on its way.';

/** Asks for a reset link by email; the answer never says whether the account exists. */
export function ForgotPasswordPage({ portal }: { portal: SignInPortal }) {
  const info = SIGN_IN_PORTAL_INFO[portal];
  const [message, setMessage] = useState<{ tone: MessageTone; title: string; text: string } | null>(null);
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (value) => (value.trim() ? null : 'Enter your email address') },
  });
  const sending = useFormSubmit(form, ({ email }) => requestPasswordReset({ email: email.trim(), portal }), {
    onSuccess: (answer) => setMessage({ tone: 'success', title: 'Check your email', text: answer?.message ?? SENT }),
    onError: (error, placed) => {
      if (!placed) setMessage({ tone: 'error', title: 'Could not send the reset link', text: formErrorMessage(error) });
    },
  });

  return (
    <AuthCard info={info} title="Reset your password" intro="Enter the email you sign in with. We will send you a link to choose a new password.">
      <form onSubmit={sending.onSubmit} noValidate aria-label="Request a password reset link">
        <Stack gap="md">
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            inputMode="email"
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <Group justify="space-between" align="center" mt={4}>
            <Anchor component={Link} to={signInPath(portal)} fz="sm">
              Back to sign-in
            </Anchor>
            <Button type="submit" loading={sending.submitting}>
              Send reset link
            </Button>
          </Group>
        </Stack>
      </form>
      <MessageModal
        opened={message !== null}
        onClose={sending.returnFocusAfter(() => setMessage(null))}
        title={message?.title ?? ''}
        message={message?.text ?? ''}
        tone={message?.tone ?? 'success'}
      />
    </AuthCard>
  );
}
