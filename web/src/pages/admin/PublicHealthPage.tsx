/**
 * /admin/provider/public-health: the lab's admin sets where every released, corrected or rejected
 * COVID-19 result is reported to public health (HL7 v2.5.1 ELR, issue 28 item 4): over MLLP, one
 * message at a time, or in a daily batch file; and sees per day what was sent and acknowledged, the
 * batch files, and the latest messages, a failed one with "Resend".
 */
import { useState } from 'react';
import { Badge, Button, Group, Radio, SimpleGrid, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  ELR_REPORT_DAYS, ElrMode, formatCalendarDate, formatCount, Hl7MessageStatus, type ElrSettingsBody,
} from '@platform/domain';
import {
  resendElrMessage, saveElrSettings, useElrReport, useElrSettings, useRefreshElrReport, writeElrBatch,
  type ElrBatchView, type ElrDayView, type ElrSettingsView, type Hl7MessageView,
} from '../../api/public-health';
import { ApiError } from '../../api/fetcher';
import { FormError } from '../../components/FormError';
import { RecordTable } from '../../components/RecordTable';
import { commandError } from '../../forms/server-errors';
import { useCommand, useFormSubmit } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS, HL7_STATUS_COLORS } from '../../status-colors';
import { MllpListenerFields, ReceiverFields } from './Hl7Fields';
import { AdminPageFrame } from './AdminPageFrame';
import { QueryState, queryFlags } from './QueryState';
import { formatDateTime } from '../../format';

export function PublicHealthPage() {
  const settings = useElrSettings();
  return (
    <AdminPageFrame title="Public health reporting">
      <Stack gap="xl">
        <Text maw={760}>
          Every released, corrected or rejected COVID-19 result of a named patient is reported to public health as an HL7 v2.5.1 ELR message
          (ORU^R01): over MLLP, each message retried until it is acknowledged, or in a daily batch file written to a folder.
        </Text>
        <QueryState what="public health reporting settings" {...queryFlags(settings, () => false)} emptyText="" onRetry={() => void settings.mutate()}>
          {settings.data && <SettingsForm current={settings.data} onSaved={(view) => void settings.mutate(view, { revalidate: false })} />}
        </QueryState>
        <Report mode={settings.data?.configured ? settings.data.mode : null} />
      </Stack>
    </AdminPageFrame>
  );
}

interface SettingsValues {
  enabled: boolean;
  mode: ElrMode;
  host: string;
  port: number | string;
  folder: string;
  receivingApplication: string;
  receivingFacility: string;
}

const valuesOf = (v: ElrSettingsView): SettingsValues => ({
  enabled: v.enabled, mode: v.mode, host: v.host ?? '', port: v.port ?? '', folder: v.folder ?? '',
  receivingApplication: v.receivingApplication, receivingFacility: v.receivingFacility,
});

const MODE_TEXT: Record<ElrMode, string> = { [ElrMode.Mllp]: 'MLLP', [ElrMode.BatchFile]: 'Daily batch file' };

const required = (label: string) => (v: string) => (v.trim() ? null : `${label} is required`);
const shownOnForm = (error: unknown) => error instanceof ApiError && [400, 404, 409, 422].includes(error.status);

function SettingsForm({ current, onSaved }: { current: ElrSettingsView; onSaved: (view: ElrSettingsView) => void }) {
  const form = useForm<SettingsValues, ElrSettingsBody>({
    initialValues: valuesOf(current),
    validate: {
      host: (v, values) => (values.mode === ElrMode.Mllp ? required('Host')(v) : null),
      port: (v, values) =>
        values.mode !== ElrMode.Mllp || (v !== '' && Number.isInteger(Number(v)) && Number(v) >= 1 && Number(v) <= 65535)
          ? null
          : 'Port must be a whole number from 1 to 65535',
      folder: (v, values) => (values.mode === ElrMode.BatchFile ? required('Folder')(v) : null),
      receivingApplication: required('Receiving application'),
      receivingFacility: required('Receiving facility'),
    },
    // Only what the chosen mode uses is sent: the other mode's fields go as null.
    transformValues: (v) => {
      const mllp = v.mode === ElrMode.Mllp;
      return {
        enabled: v.enabled, mode: v.mode, host: mllp ? v.host.trim() : null, port: mllp ? Number(v.port) : null,
        folder: mllp ? null : v.folder.trim(), receivingApplication: v.receivingApplication.trim(), receivingFacility: v.receivingFacility.trim(),
      };
    },
  });
  const saving = useFormSubmit(form, saveElrSettings, {
    onSuccess: (view) => {
      form.resetDirty(valuesOf(view));
      onSaved(view);
      showSuccessToast(
        `Public health reporting saved${view.enabled ? `: COVID-19 results are reported ${view.mode === ElrMode.Mllp ? 'over MLLP' : 'in a daily batch file'}` : ' (not enabled)'}.`,
      );
    },
    onError: (error) => {
      if (!shownOnForm(error)) reportError(error, 'Failed to save public health reporting');
    },
  });
  const mode = form.getValues().mode;
  return (
    <form onSubmit={saving.onSubmit} noValidate aria-label="Public health reporting settings">
      <Stack gap="md" maw={760}>
        <Title order={2} fz="h3">
          Destination
        </Title>
        {!current.configured && <Text c="dimmed">Not configured yet: no results are reported.</Text>}
        <Radio.Group
          label="Mode"
          key={form.key('mode')}
          {...form.getInputProps('mode')}
          onChange={(value) => {
            form.setFieldValue('mode', value as ElrMode);
            form.clearFieldError('host');
            form.clearFieldError('port');
            form.clearFieldError('folder');
          }}
        >
          <Group gap="lg" mt={6}>
            <Radio value={ElrMode.Mllp} label={MODE_TEXT[ElrMode.Mllp]} />
            <Radio value={ElrMode.BatchFile} label={MODE_TEXT[ElrMode.BatchFile]} />
          </Group>
        </Radio.Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {mode === ElrMode.Mllp ? (
            <MllpListenerFields form={form} whose="Public health's" />
          ) : (
            <TextInput
              label="Folder"
              description="A folder inside the server's ELR batch root"
              withAsterisk
              maxLength={200}
              key={form.key('folder')}
              {...form.getInputProps('folder')}
            />
          )}
          <ReceiverFields form={form} each="every report" />
        </SimpleGrid>
        <Switch
          label="Enabled: report COVID-19 results to public health"
          key={form.key('enabled')}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <FormError title="Public health reporting was not saved" error={shownOnForm(saving.error) ? saving.error : undefined} />
        <Group gap="sm">
          <Button type="submit" loading={saving.submitting}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The report: per day, the batch files (batch-file mode), the latest messages. `mode` is the saved one (null before the first save). */
function Report({ mode }: { mode: ElrMode | null }) {
  const report = useElrReport();
  const data = report.data;
  const showBatches = mode === ElrMode.BatchFile || Boolean(data?.batches.length);
  return (
    <QueryState what="public health report" {...queryFlags(report, () => false)} emptyText="" onRetry={() => void report.mutate()}>
      {data && (
        <Stack gap="xl">
          <DayTable days={data.days} />
          {showBatches && <BatchFiles batches={data.batches} canWrite={mode === ElrMode.BatchFile} />}
          <LatestMessages messages={data.messages} />
        </Stack>
      )}
    </QueryState>
  );
}

const newestFirst = (a: ElrDayView, b: ElrDayView) => b.day.localeCompare(a.day);

function DayTable({ days }: { days: ElrDayView[] }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="elr-days-title">
      <Title order={2} fz="h3" id="elr-days-title">
        Reports by day
      </Title>
      {days.length === 0 ? (
        <Text c="dimmed">No COVID-19 results reported in the last {ELR_REPORT_DAYS} days.</Text>
      ) : (
        <RecordTable label="Reports by day" columns={['Day', 'Reported', 'Sent', 'Acknowledged', 'Batched', 'Failed', 'Pending']} minWidth={640}>
          {[...days].sort(newestFirst).map((d) => (
            <Table.Tr key={d.day}>
              <Table.Td>{formatCalendarDate(d.day)}</Table.Td>
              <Table.Td>{formatCount(d.reported)}</Table.Td>
              <Table.Td>{formatCount(d.sent)}</Table.Td>
              <Table.Td>{formatCount(d.acknowledged)}</Table.Td>
              <Table.Td>{formatCount(d.batched)}</Table.Td>
              <Table.Td c={d.failed > 0 ? 'red.9' : undefined} fw={d.failed > 0 ? 700 : undefined}>
                {formatCount(d.failed)}
              </Table.Td>
              <Table.Td>{formatCount(d.pending)}</Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
      )}
    </Stack>
  );
}

function BatchFiles({ batches, canWrite }: { batches: ElrBatchView[]; canWrite: boolean }) {
  const refresh = useRefreshElrReport();
  const write = useCommand('elr:write-batch', () => writeElrBatch());
  const [refusal, setRefusal] = useState<unknown>(undefined);
  const onWrite = async () => {
    setRefusal(undefined);
    try {
      const batch = await write.trigger();
      const count = `${formatCount(batch.messages)} ${batch.messages === 1 ? 'report' : 'reports'}`;
      showSuccessToast(batch.writtenAt ? `Batch file ${batch.fileName} written with ${count}.` : `Batch file ${batch.fileName} holds ${count}; it waits to be written to the folder.`);
      await refresh();
    } catch (error) {
      if (shownOnForm(error)) setRefusal(error);
      else reportError(error, 'The batch file was not written');
    }
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="elr-batches-title">
      <Group justify="space-between" wrap="wrap">
        <Title order={2} fz="h3" id="elr-batches-title">
          Batch files
        </Title>
        {canWrite && (
          <Button variant="default" onClick={() => void onWrite()} loading={write.isMutating}>
            Write the batch file now
          </Button>
        )}
      </Group>
      <FormError title="No batch file was written" error={refusal === undefined ? undefined : commandError(refusal)} onClose={() => setRefusal(undefined)} />
      {batches.length === 0 ? (
        <Text c="dimmed">No batch files yet.</Text>
      ) : (
        <RecordTable label="Batch files" columns={['File name', 'Reports', 'Created', 'Written']} minWidth={640}>
          {batches.map((b) => (
            <Table.Tr key={b.id}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{b.fileName}</Table.Td>
              <Table.Td>{formatCount(b.messages)}</Table.Td>
              <Table.Td>{formatDateTime(b.createdAt)}</Table.Td>
              <Table.Td>{b.writtenAt ? formatDateTime(b.writtenAt) : <Badge color={AA_COLORS.orange}>Waiting</Badge>}</Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
      )}
    </Stack>
  );
}

const REASON_TEXT: Record<Hl7MessageView['reason'], string> = { released: 'Released', corrected: 'Corrected', rejected: 'Rejected', test: 'Test message', order: 'Order received' };

/** The answer of the last attempt: the ACK code and text, or why none came (a batch file is not answered message by message). */
function lastAnswer(m: Hl7MessageView): string {
  const answer = [m.ackCode, m.ackText].filter(Boolean).join(': ');
  if (answer) return answer;
  if (m.status === Hl7MessageStatus.Batched) return 'In a batch file';
  return m.lastAttemptAt ? 'No answer' : 'Not sent yet';
}

function LatestMessages({ messages }: { messages: Hl7MessageView[] }) {
  const refresh = useRefreshElrReport();
  const resend = useCommand('elr:resend', (m: Hl7MessageView) => resendElrMessage(m.id));
  const [sending, setSending] = useState<number | null>(null);
  const onResend = async (m: Hl7MessageView) => {
    setSending(m.id);
    try {
      const copy = await resend.trigger(m);
      showSuccessToast(`The ${m.test ?? 'result'} of ${m.sample ?? 'the sample'} is being reported again as message ${copy.controlId}.`);
      await refresh();
    } catch (error) {
      reportError(error, 'Not resent');
    } finally {
      setSending(null);
    }
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="elr-messages-title">
      <Title order={2} fz="h3" id="elr-messages-title">
        Latest messages
      </Title>
      {messages.length === 0 ? (
        <Text c="dimmed">No messages yet.</Text>
      ) : (
        <RecordTable label="Latest messages" columns={['Control ID', 'Sample', 'Test', 'Why', 'Status', 'Attempts', 'Last answer', 'Created']} withActions minWidth={980}>
          {messages.map((m) => (
            <Table.Tr key={m.id}>
              <Table.Td>{m.controlId}</Table.Td>
              <Table.Td>{m.sample ?? '—'}</Table.Td>
              <Table.Td>{m.test ?? '—'}</Table.Td>
              <Table.Td>{REASON_TEXT[m.reason]}</Table.Td>
              <Table.Td>
                <Badge color={HL7_STATUS_COLORS[m.status]}>{m.status}</Badge>
              </Table.Td>
              <Table.Td>{m.attempts}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{lastAnswer(m)}</Table.Td>
              <Table.Td>{formatDateTime(m.createdAt)}</Table.Td>
              <Table.Td>
                {m.status === Hl7MessageStatus.Failed && (
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
