/**
 * /admin/provider/hl7: the lab's admin connects an account's EHR over HL7 v2 (issue 28): where its
 * results go as ORU^R01 over MLLP, a test message with the receiver's answer, and the log of the
 * messages sent, each with its ACK and "Resend".
 */
import { useState } from 'react';
import { Badge, Button, Checkbox, Group, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { HL7_NAMESPACE_MAX_LENGTH, Hl7MessageStatus, type Hl7InterfaceBody } from '@platform/domain';
import {
  resendHl7Message, saveHl7Interface, sendHl7TestMessage, useHl7Interface, useHl7Messages, useRefreshHl7Messages,
  type Hl7InterfaceView, type Hl7MessageView,
} from '../../api/hl7';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { Notice } from '../../components/Notice';
import { RecordTable } from '../../components/RecordTable';
import { useCommand, useFormSubmit } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';
import { HL7_STATUS_COLORS } from '../../status-colors';
import { AccountSelect, type AccountOption } from './AccountSelect';
import { MllpListenerFields, ReceiverFields } from './Hl7Fields';
import { AdminPageFrame } from './AdminPageFrame';
import { formatDateTime } from '../../format';

export function Hl7InterfacesPage() {
  const [account, setAccount] = useState<AccountOption | null>(null);
  return (
    <AdminPageFrame title="HL7 interfaces">
      <Stack gap="lg">
        <Text maw={760}>
          An account&apos;s EHR can receive its results as HL7 v2.5.1 ORU^R01 messages over MLLP: each release, correction and rejection is sent and
          retried until the EHR acknowledges it.
        </Text>
        <AccountSelect label="Account" value={account} onChange={setAccount} w={420} />
        {account && <AccountHl7 key={account.id} account={account} />}
      </Stack>
    </AdminPageFrame>
  );
}

function AccountHl7({ account }: { account: AccountOption }) {
  const { data, isLoading } = useHl7Interface(account.id);
  if (isLoading || !data) return <Text c="dimmed">Loading the HL7 interface…</Text>;
  return (
    <Stack gap="xl">
      <InterfaceForm account={account} current={data} />
      <MessageLog accountId={account.id} />
    </Stack>
  );
}

interface InterfaceValues {
  enabled: boolean;
  host: string;
  port: number | string;
  receivingApplication: string;
  receivingFacility: string;
  sendingFacilityOfOrders: string;
}

const valuesOf = (v: Hl7InterfaceView): InterfaceValues => ({
  enabled: v.enabled, host: v.host, port: v.port ?? '', receivingApplication: v.receivingApplication, receivingFacility: v.receivingFacility,
  sendingFacilityOfOrders: v.sendingFacilityOfOrders ?? '',
});

const required = (label: string) => (v: string) => (v.trim() ? null : `${label} is required`);
const shownOnForm = (error: unknown) => error instanceof ApiError && [400, 404, 409, 422].includes(error.status);

function InterfaceForm({ account, current }: { account: AccountOption; current: Hl7InterfaceView }) {
  const refreshLog = useRefreshHl7Messages(account.id);
  const [saved, setSaved] = useState(current.configured);
  const [answer, setAnswer] = useState<Hl7MessageView | null>(null);
  const form = useForm<InterfaceValues, Hl7InterfaceBody>({
    initialValues: valuesOf(current),
    validate: {
      host: required('Host'),
      port: (v) => (Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= 65535 ? null : 'Port must be a whole number from 1 to 65535'),
      receivingApplication: required('Receiving application'),
      receivingFacility: required('Receiving facility'),
    },
    transformValues: (v) => ({
      enabled: v.enabled, host: v.host.trim(), port: Number(v.port), receivingApplication: v.receivingApplication.trim(),
      receivingFacility: v.receivingFacility.trim(), sendingFacilityOfOrders: v.sendingFacilityOfOrders.trim() || null,
    }),
  });
  const saving = useFormSubmit(form, (body) => saveHl7Interface(account.id, body), {
    onSuccess: (view) => {
      setSaved(true);
      form.resetDirty(valuesOf(view));
      showSuccessToast(`The HL7 interface of ${account.name} was saved${view.enabled ? ': its results are sent' : ' (not enabled)'}.`);
    },
    onError: (error) => {
      if (!shownOnForm(error)) reportError(error, 'Failed to save the HL7 interface');
    },
  });
  const test = useCommand(`hl7:test:${account.id}`, () => sendHl7TestMessage(account.id));
  const onTest = async () => {
    setAnswer(null);
    try {
      setAnswer(await test.trigger());
      await refreshLog();
    } catch (error) {
      reportError(error, 'The test message was not sent');
    }
  };
  return (
    <form onSubmit={saving.onSubmit} noValidate aria-label={`HL7 interface of ${account.name}`}>
      <Stack gap="md" maw={760}>
        <Title order={2} fz="h3">
          Connection
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <MllpListenerFields form={form} whose="The EHR's" />
          <ReceiverFields form={form} each="every message sent" />
          <TextInput
            label="Sending facility of orders"
            description="Optional: MSH-4 of the orders this EHR sends"
            maxLength={HL7_NAMESPACE_MAX_LENGTH}
            key={form.key('sendingFacilityOfOrders')}
            {...form.getInputProps('sendingFacilityOfOrders')}
          />
        </SimpleGrid>
        <Checkbox
          label="Enabled: send this account's results to its EHR"
          key={form.key('enabled')}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <FormError title="The HL7 interface was not saved" error={shownOnForm(saving.error) ? saving.error : undefined} />
        <Group gap="sm">
          <Button type="submit" loading={saving.submitting}>
            Save
          </Button>
          <Button variant="default" onClick={() => void onTest()} loading={test.isMutating} disabled={!saved || form.isDirty()}>
            Send test message
          </Button>
        </Group>
        {!saved && <Text fz="sm" c="dimmed">Save the connection to send a test message.</Text>}
        {answer && <TestAnswer message={answer} />}
      </Stack>
    </form>
  );
}

/** What the receiver said to the test message. */
function TestAnswer({ message }: { message: Hl7MessageView }) {
  const ok = message.status === Hl7MessageStatus.Acknowledged;
  return (
    <Notice color={ok ? 'green' : 'red'} title={ok ? `Acknowledged: ${message.ackCode}` : message.ackCode ? `Refused: ${message.ackCode}` : 'No acknowledgement'}>
      Test message {message.controlId}
      {message.ackText ? `: ${message.ackText}` : ''}
    </Notice>
  );
}

const REASON_TEXT: Record<Hl7MessageView['reason'], string> = { released: 'Released', corrected: 'Corrected', rejected: 'Rejected', test: 'Test message', order: 'Order received' };

/** The answer of the last attempt: the ACK code and text, or why none came. */
function lastAnswer(m: Hl7MessageView): string {
  if (!m.lastAttemptAt) return 'Not sent yet';
  return [m.ackCode, m.ackText].filter(Boolean).join(': ') || 'No answer';
}

function MessageLog({ accountId }: { accountId: number }) {
  const { data, isLoading, mutate } = useHl7Messages(accountId);
  const resend = useCommand(`hl7:resend:${accountId}`, (m: Hl7MessageView) => resendHl7Message(accountId, m.id));
  const [sending, setSending] = useState<number | null>(null);
  const onResend = async (m: Hl7MessageView) => {
    setSending(m.id);
    try {
      const copy = await resend.trigger(m);
      showSuccessToast(`The ${m.test ?? 'result'} of ${m.sample ?? 'the sample'} is being sent again as message ${copy.controlId}.`);
      await mutate();
    } catch (error) {
      reportError(error, 'Not resent');
    } finally {
      setSending(null);
    }
  };
  return (
    <Stack gap="sm">
      <Title order={2} fz="h3">
        Messages sent
      </Title>
      {isLoading ? (
        <Text c="dimmed">Loading messages…</Text>
      ) : !data?.length ? (
        <Text c="dimmed">No messages yet.</Text>
      ) : (
        <RecordTable label="HL7 messages" columns={['Control ID', 'Why', 'Sample', 'Test', 'Created', 'Status', 'Attempts', 'Last answer']} withActions minWidth={980}>
          {data.map((m) => (
            <Table.Tr key={m.id}>
              <Table.Td>{m.controlId}</Table.Td>
              <Table.Td>{REASON_TEXT[m.reason]}</Table.Td>
              <Table.Td>{m.sample ?? '—'}</Table.Td>
              <Table.Td>{m.test ?? '—'}</Table.Td>
              <Table.Td>{formatDateTime(m.createdAt)}</Table.Td>
              <Table.Td>
                <Badge color={HL7_STATUS_COLORS[m.status]}>{m.status}</Badge>
              </Table.Td>
              <Table.Td>{m.attempts}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{lastAnswer(m)}</Table.Td>
              <Table.Td>
                {m.reason !== 'test' && m.reason !== 'order' && m.status !== Hl7MessageStatus.Pending && (
                  <Button size="xs" variant="default" loading={sending === m.id} onClick={() => void onResend(m)} aria-label={`Resend message ${m.controlId}`}>
                    Resend
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
      )}
    </Stack>
  );
}
