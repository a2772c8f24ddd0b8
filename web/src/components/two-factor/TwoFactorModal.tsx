import { useState } from 'react';
import { Badge, Button, Group, Loader, Modal, PasswordInput, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useForm } from '@mantine/form';
import { newRecoveryCodes, removeFactor, useTwoFactorStatus, type FactorEnrolled } from '../../api/two-factor';
import { useFormSubmit } from '../../forms/use-form-submit';
import { FormError } from '../FormError';
import { formatDate } from '../../format';
import { enrolPasskey, passkeyProblem, passkeysSupported } from './passkeys';
import { RecoveryCodesPanel } from './RecoveryCodesPanel';
import { TotpEnrolment } from './TotpEnrolment';

type Asking = { kind: 'remove'; factorId: number; label: string } | { kind: 'codes' };

/** The password again, before removing a factor or making new recovery codes. */
function PasswordAgain({ asking, onDone, onCancel }: { asking: Asking; onDone: (codes: string[] | null) => void; onCancel: () => void }) {
  const form = useForm({ initialValues: { password: '' }, validate: { password: (v) => (v ? null : 'Enter your password') } });
  const sending = useFormSubmit(form, async ({ password }) => {
    if (asking.kind === 'remove') {
      await removeFactor(asking.factorId, password);
      return null;
    }
    return (await newRecoveryCodes(password)).recoveryCodes;
  }, { onSuccess: (codes) => onDone(codes) });
  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label={asking.kind === 'remove' ? `Remove ${asking.label}` : 'New recovery codes'}>
      <Stack gap="sm">
        <Text fz="sm">
          {asking.kind === 'remove' ? `Enter your password to remove ${asking.label}. Remembered devices will ask again.` : 'Enter your password to make ten new recovery codes. The old ones stop working.'}
        </Text>
        <FormError error={sending.error} />
        <PasswordInput label="Your password" autoComplete="current-password" required data-autofocus key={form.key('password')} {...form.getInputProps('password')} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" color={asking.kind === 'remove' ? 'red' : undefined} loading={sending.submitting}>
            {asking.kind === 'remove' ? 'Remove' : 'Make new codes'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The user's menu → "Two-factor sign-in": the factors, adding an app or a passkey, removing one, recovery codes. */
export function TwoFactorModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { data: status, isLoading, mutate } = useTwoFactorStatus(opened);
  const [adding, setAdding] = useState<'totp' | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const refresh = () => mutate();
  const enrolled = (answer: FactorEnrolled) => {
    setAdding(null);
    if (answer.recoveryCodes) setCodes(answer.recoveryCodes);
    void refresh();
  };
  const addPasskey = async () => {
    setProblem(null);
    setCreating(true);
    try {
      enrolled(await enrolPasskey('menu', null, false));
    } catch (error) {
      setProblem(passkeyProblem(error));
    } finally {
      setCreating(false);
    }
  };
  const close = () => {
    setAdding(null);
    setAsking(null);
    setCodes(null);
    setProblem(null);
    onClose();
  };
  const hasTotp = status?.factors.some((f) => f.kind === 'totp') ?? false;

  let body;
  if (codes) body = <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />;
  else if (asking) body = <PasswordAgain asking={asking} onCancel={() => setAsking(null)} onDone={(c) => { setAsking(null); if (c) setCodes(c); void refresh(); }} />;
  else if (adding === 'totp') body = <TotpEnrolment during="menu" onEnrolled={enrolled} />;
  else if (isLoading || !status) body = <Loader size="sm" aria-label="Loading" />;
  else {
    body = (
      <Stack gap="md">
        <Text fz="sm">
          A second step after your password: a code from an authenticator app, or a passkey or security key.{' '}
          {status.required ? <Badge color="clinical" variant="light">Required for your account</Badge> : 'Optional for your account.'}
        </Text>
        {status.factors.length ? (
          <Table aria-label="Your second factors">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Factor</Table.Th>
                <Table.Th>Added</Table.Th>
                <Table.Th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {status.factors.map((f) => (
                <Table.Tr key={f.id}>
                  <Table.Td>{f.label}</Table.Td>
                  <Table.Td>{formatDate(f.createdAt)}</Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="subtle" color="red" onClick={() => setAsking({ kind: 'remove', factorId: f.id, label: f.label })} aria-label={`Remove ${f.label}`}>
                      Remove
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text fz="sm">No second factor yet.</Text>
        )}
        <FormError title="Could not add the passkey" error={problem} />
        <Group>
          {!hasTotp && <Button onClick={() => setAdding('totp')}>Set up an authenticator app</Button>}
          {passkeysSupported() && (
            <Button variant="default" onClick={() => void addPasskey()} loading={creating}>
              Add a passkey or security key
            </Button>
          )}
        </Group>
        {status.factors.length > 0 && (
          <Group justify="space-between">
            <Text fz="sm">{status.recoveryCodesLeft} recovery codes left · {status.rememberedDevices} remembered devices</Text>
            <Button size="xs" variant="default" onClick={() => setAsking({ kind: 'codes' })}>
              New recovery codes
            </Button>
          </Group>
        )}
      </Stack>
    );
  }
  return (
    <Modal opened={opened} onClose={close} title="Two-factor sign-in" centered size="lg">
      {body}
    </Modal>
  );
}
