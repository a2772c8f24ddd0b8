import { useState } from 'react';
import { Anchor, Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { RECOVERY_CODE_PATTERN, TOTP_DIGITS, type Me, type SecondFactorMethod } from '@platform/domain';
import { answerSecondFactor } from '../../api/two-factor';
import { useFormSubmit } from '../../forms/use-form-submit';
import { FormError } from '../FormError';
import { passkeyProblem, passkeysSupported, signInWithPasskey } from './passkeys';

/**
 * The second step of a sign-in: the code of the authenticator app, or a recovery code, or a
 * passkey; "Remember this device for 30 days" skips it next time on this browser.
 */
export function SecondStepForm({ methods, onSignedIn, onCancel }: { methods: SecondFactorMethod[]; onSignedIn: (me: Me) => void; onCancel: () => void }) {
  const hasTotp = methods.includes('totp');
  const [method, setMethod] = useState<'totp' | 'recovery'>(hasTotp ? 'totp' : 'recovery');
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  const [usingPasskey, setUsingPasskey] = useState(false);
  const form = useForm({
    initialValues: { code: '', rememberDevice: false },
    validate: {
      code: (v) => method === 'totp'
        ? (new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(v.trim()) ? null : `Enter the ${TOTP_DIGITS} digits your app shows`)
        : (RECOVERY_CODE_PATTERN.test(v.trim()) ? null : 'Enter one of your recovery codes (xxxxx-xxxxx)'),
    },
  });
  const sending = useFormSubmit(form, ({ code, rememberDevice }) => answerSecondFactor({ method, code: code.trim(), rememberDevice }), {
    onSuccess: (me) => onSignedIn(me),
    onError: () => form.setFieldValue('code', ''),
  });
  const switchTo = (next: 'totp' | 'recovery') => {
    setMethod(next);
    form.setFieldValue('code', '');
    form.clearErrors();
  };
  const usePasskey = async () => {
    setPasskeyError(null);
    setUsingPasskey(true);
    try {
      onSignedIn(await signInWithPasskey(form.getValues().rememberDevice));
    } catch (error) {
      setPasskeyError(passkeyProblem(error));
    } finally {
      setUsingPasskey(false);
    }
  };

  return (
    <Stack gap="md">
      <Text fz="sm">
        {method === 'totp' ? 'Enter the code from your authenticator app.' : 'Enter one of your recovery codes. Each works once.'}
      </Text>
      <form onSubmit={sending.onSubmit} noValidate aria-label="Second step of sign-in">
        <Stack gap="md">
          <FormError title="Could not sign you in" error={sending.error ?? passkeyError} />
          {(hasTotp || methods.includes('recovery')) && (
            <TextInput
              label={method === 'totp' ? 'Authentication code' : 'Recovery code'}
              autoComplete="one-time-code"
              inputMode={method === 'totp' ? 'numeric' : 'text'}
              maxLength={method === 'totp' ? TOTP_DIGITS : 11}
              required
              data-autofocus
              key={`${method}-${form.key('code')}`}
              {...form.getInputProps('code')}
            />
          )}
          <Checkbox label="Remember this device for 30 days" key={form.key('rememberDevice')} {...form.getInputProps('rememberDevice', { type: 'checkbox' })} />
          <Group justify="space-between">
            <Button variant="subtle" onClick={onCancel}>
              Cancel
            </Button>
            {(hasTotp || methods.includes('recovery')) && (
              <Button type="submit" loading={sending.submitting}>
                Verify
              </Button>
            )}
          </Group>
        </Stack>
      </form>
      <Stack gap={4}>
        {method === 'totp' && methods.includes('recovery') && (
          <Anchor component="button" type="button" fz="sm" onClick={() => switchTo('recovery')}>
            Use a recovery code
          </Anchor>
        )}
        {method === 'recovery' && hasTotp && (
          <Anchor component="button" type="button" fz="sm" onClick={() => switchTo('totp')}>
            Use your authenticator app
          </Anchor>
        )}
        {methods.includes('passkey') && passkeysSupported() && (
          <Button variant="default" onClick={() => void usePasskey()} loading={usingPasskey}>
            Use a passkey
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
