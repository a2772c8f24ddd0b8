import { useEffect, useState } from 'react';
import { Button, Checkbox, Code, Group, Image, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { TOTP_DIGITS } from '@platform/domain';
import { confirmTotp, startTotpSetup, type EnrolDuring, type FactorEnrolled, type TotpSetup } from '../../api/two-factor';
import { useFormSubmit } from '../../forms/use-form-submit';
import { FormError } from '../FormError';

/** The secret in groups of four, easier to type into an app. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Setting up an authenticator app: the QR code to scan (or the secret to type), then a code from
 * the app to confirm it. `during` sign-in it also offers "Remember this device".
 */
export function TotpEnrolment({ during, onEnrolled }: { during: EnrolDuring; onEnrolled: (answer: FactorEnrolled) => void }) {
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    startTotpSetup(during).then((s) => live && setSetup(s), (e: unknown) => live && setProblem(e));
    return () => {
      live = false;
    };
  }, [during]);
  const form = useForm({
    initialValues: { code: '', rememberDevice: false },
    validate: { code: (v) => (new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(v.trim()) ? null : `Enter the ${TOTP_DIGITS} digits your app shows`) },
  });
  const sending = useFormSubmit(form, ({ code, rememberDevice }) => confirmTotp(during, { code: code.trim(), rememberDevice }), {
    onSuccess: (answer) => onEnrolled(answer),
    onError: () => form.setFieldValue('code', ''),
  });

  if (problem) return <FormError title="Could not start setting up the app" error={problem} />;
  if (!setup) return <Loader size="sm" aria-label="Preparing the QR code" />;
  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label="Set up an authenticator app">
      <Stack gap="sm">
        <Text fz="sm">1. Scan this QR code with your authenticator app (Google Authenticator, Microsoft Authenticator, 1Password …).</Text>
        <Image src={`data:image/svg+xml;utf8,${encodeURIComponent(setup.qrSvg)}`} alt="QR code for your authenticator app" w={180} h={180} />
        <Text fz="sm">
          Or type this key into the app: <Code data-testid="totp-secret" fz="sm">{grouped(setup.secret)}</Code>
        </Text>
        <Text fz="sm">2. Enter the {TOTP_DIGITS}-digit code the app shows.</Text>
        <FormError title="Could not confirm the app" error={sending.error} />
        <TextInput
          label="Code from your app"
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={TOTP_DIGITS}
          required
          key={form.key('code')}
          {...form.getInputProps('code')}
        />
        {during === 'sign-in' && <Checkbox label="Remember this device for 30 days" key={form.key('rememberDevice')} {...form.getInputProps('rememberDevice', { type: 'checkbox' })} />}
        <Group justify="flex-end">
          <Button type="submit" loading={sending.submitting}>
            Confirm
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
