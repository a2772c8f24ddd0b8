/**
 * An account's API clients (issue 27), on the clinic's page (its Super Admin) and the admin's (any
 * account): the credentials its EHR or practice system uses for the FHIR API, and where result
 * notices are sent. A new client's secrets are shown once, here, and never again.
 */
import { useState } from 'react';
import { Badge, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { WebhookDeliveryStatus, type CreateApiClientBody } from '@platform/domain';
import {
  createApiClient, redeliverWebhook, revokeApiClient, useApiClients, useRefreshApiClients, useWebhookDeliveries,
  type ApiClientsOwner, type ApiClientView, type CreatedApiClient, type WebhookDeliveryView,
} from '../../api/api-clients';
import { ApiError } from '../../api/fetcher';
import { useCommand, useFormSubmit } from '../../forms/use-form-submit';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';
import { ConfirmDialog } from '../ConfirmDialog';
import { FormError } from '../FormError';
import { Notice } from '../Notice';
import { RecordTable } from '../RecordTable';
import { formatDateTime } from '../../format';

/** The addresses a developer needs, as this browser reaches the platform. */
const fhirBase = () => `${window.location.origin}/fhir/R4`;
const tokenUrl = () => `${window.location.origin}/oauth2/token`;

export function ApiClientsPanel({ owner, accountName }: { owner: ApiClientsOwner; accountName: string }) {
  const { data: clients, error, isLoading } = useApiClients(owner);
  const refresh = useRefreshApiClients(owner);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<CreatedApiClient | null>(null);
  const [revoking, setRevoking] = useState<ApiClientView | null>(null);
  const [logOf, setLogOf] = useState<ApiClientView | null>(null);
  const revoke = useCommand(`api-clients:revoke:${owner.accountId}`, (client: ApiClientView) => revokeApiClient(owner, client.clientId));

  const onRevoke = async () => {
    if (!revoking) return;
    try {
      await revoke.trigger(revoking);
      showSuccessToast(`${revoking.name} was revoked: its tokens no longer work.`);
      setRevoking(null);
      await refresh();
    } catch {
      // The dialog shows the refusal (revoke.error).
    }
  };

  return (
    <Stack gap="lg">
      <Text>
        An EHR or practice system reads {accountName}&apos;s released results through the FHIR R4 API with credentials of its own, and with a webhook
        URL it is told of each release, correction and rejection. Token endpoint: <Code>{tokenUrl()}</Code>; FHIR base: <Code>{fhirBase()}</Code>.
      </Text>
      {created && <NewClientSecrets created={created} onDone={() => setCreated(null)} />}
      {adding ? (
        <NewApiClientForm
          owner={owner}
          onCancel={() => setAdding(false)}
          onCreated={async (answer) => {
            setAdding(false);
            setCreated(answer);
            await refresh();
          }}
        />
      ) : (
        !created && (
          <Group>
            <Button onClick={() => setAdding(true)}>New API client</Button>
          </Group>
        )
      )}
      {error instanceof ApiError && error.status === 403 ? (
        <Notice color="blue" title="Only this account's super admins manage its API clients">Ask a super admin of {accountName}.</Notice>
      ) : isLoading ? (
        <Text c="dimmed">Loading API clients…</Text>
      ) : !clients?.length ? (
        <Text c="dimmed">No API clients yet.</Text>
      ) : (
        <RecordTable label="API clients" columns={['Name', 'Client ID', 'Webhook', 'Created', 'Last used', 'Status']} withActions minWidth={860}>
          {clients.map((c) => (
            <Table.Tr key={c.clientId}>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td>
                <Code>{c.clientId}</Code>
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{c.webhookUrl ?? 'None'}</Table.Td>
              <Table.Td>
                {formatDateTime(c.createdAt)}
                {c.createdBy && <Text fz="xs" c="dimmed">by {c.createdBy}</Text>}
              </Table.Td>
              <Table.Td>{c.lastUsedAt ? formatDateTime(c.lastUsedAt) : 'Never'}</Table.Td>
              <Table.Td>
                {c.revokedAt ? (
                  <Badge color={AA_COLORS.gray}>Revoked {formatDateTime(c.revokedAt)}</Badge>
                ) : (
                  <Badge color={AA_COLORS.green}>Active</Badge>
                )}
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  {c.webhookUrl && (
                    <Button size="xs" variant="default" onClick={() => setLogOf(c)} aria-label={`Webhook deliveries of ${c.name}`}>
                      Deliveries
                    </Button>
                  )}
                  {!c.revokedAt && (
                    <Button size="xs" variant="default" onClick={() => setRevoking(c)} aria-label={`Revoke ${c.name}`}>
                      Revoke
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
      )}
      {logOf && <DeliveryLog owner={owner} client={logOf} onClose={() => setLogOf(null)} />}
      {revoking && (
        <ConfirmDialog
          title={`Revoke ${revoking.name}?`}
          confirmLabel="Revoke"
          onConfirm={() => void onRevoke()}
          onClose={() => setRevoking(null)}
          busy={revoke.isMutating}
          error={revoke.error}
          errorTitle="Not revoked"
        >
          The system using {revoking.clientId} stops reading results at once and is sent no more notices. This cannot be undone: a new client gets new
          credentials.
        </ConfirmDialog>
      )}
    </Stack>
  );
}

interface NewClientValues {
  name: string;
  webhookUrl: string;
}

const isFormsToShow = (error: unknown) => error instanceof ApiError && [400, 403, 404].includes(error.status);

function NewApiClientForm({ owner, onCreated, onCancel }: { owner: ApiClientsOwner; onCreated: (created: CreatedApiClient) => void; onCancel: () => void }) {
  const form = useForm<NewClientValues>({
    initialValues: { name: '', webhookUrl: '' },
    validate: {
      name: (v) => (v.trim() ? null : 'Name is required'),
      webhookUrl: (v) => (!v.trim() || /^https?:\/\/\S+$/i.test(v.trim()) ? null : 'Webhook URL must be an https:// address'),
    },
  });
  const sending = useFormSubmit(
    form,
    (values) => createApiClient(owner, { name: values.name.trim(), webhookUrl: values.webhookUrl.trim() || null } satisfies CreateApiClientBody),
    {
      onSuccess: onCreated,
      onError: (error) => {
        if (!isFormsToShow(error)) reportError(error, 'Failed to create the API client');
      },
    },
  );
  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label="New API client">
      <Stack gap="md" maw={560}>
        <Title order={2} fz="h3">
          New API client
        </Title>
        <TextInput label="Name" description="The system that will use it (e.g. the practice's EHR)" withAsterisk key={form.key('name')} {...form.getInputProps('name')} />
        <TextInput
          label="Webhook URL"
          description="Optional: where a notice is POSTed on each release, correction and rejection (signed, Standard Webhooks)"
          placeholder="https://ehr.example.org/hooks/results"
          key={form.key('webhookUrl')}
          {...form.getInputProps('webhookUrl')}
        />
        <FormError title="The API client was not created" error={isFormsToShow(sending.error) ? sending.error : undefined} />
        <Group gap="sm">
          <Button type="submit" loading={sending.submitting}>
            Create
          </Button>
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The one time the secrets are shown: each with a copy button. */
function NewClientSecrets({ created, onDone }: { created: CreatedApiClient; onDone: () => void }) {
  const rows: [string, string][] = [
    ['Client ID', created.clientId],
    ['Client secret', created.clientSecret],
    ...(created.webhookSecret ? ([['Webhook signing secret', created.webhookSecret]] as [string, string][]) : []),
  ];
  return (
    <Notice color="green" title={`${created.client.name} was created: copy its secrets now`}>
      <Stack gap="sm">
        <Text fz="sm">They are not shown again. Whoever holds the client secret reads this account&apos;s results: keep it in the system&apos;s secret store.</Text>
        {rows.map(([label, value]) => (
          <Group key={label} gap="sm" wrap="nowrap" align="center">
            <Text fz="sm" fw={600} w={190}>
              {label}
            </Text>
            <Code style={{ overflowWrap: 'anywhere' }} aria-label={label}>
              {value}
            </Code>
            <CopyButton value={value}>
              {({ copied, copy }) => (
                <Button size="xs" variant="default" onClick={copy} aria-label={`Copy ${label.toLowerCase()}`}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
        ))}
        <Group>
          <Button onClick={onDone}>I have copied them</Button>
        </Group>
      </Stack>
    </Notice>
  );
}

const DELIVERY_COLORS: Record<WebhookDeliveryView['status'], string> = {
  [WebhookDeliveryStatus.Pending]: AA_COLORS.blue,
  [WebhookDeliveryStatus.Delivered]: AA_COLORS.green,
  [WebhookDeliveryStatus.Failed]: AA_COLORS.red,
};

/** What the receiver last said: its status and time, or why there was no answer. */
function lastAnswer(d: WebhookDeliveryView): string {
  if (!d.lastAttemptAt) return 'Not attempted yet';
  const answered = d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode} in ${d.lastResponseMs} ms` : `No answer (${d.lastResponseMs} ms)`;
  return d.lastError && d.lastStatusCode === null ? `${answered}: ${d.lastError}` : answered;
}

/** A client's newest notices: each one's event, sample, outcome and attempts, with "Redeliver". */
function DeliveryLog({ owner, client, onClose }: { owner: ApiClientsOwner; client: ApiClientView; onClose: () => void }) {
  const { data, isLoading, mutate } = useWebhookDeliveries(owner, client.clientId);
  const redeliver = useCommand(`api-clients:redeliver:${client.clientId}`, (d: WebhookDeliveryView) => redeliverWebhook(owner, client.clientId, d.id));
  const [sending, setSending] = useState<number | null>(null);
  const onRedeliver = async (d: WebhookDeliveryView) => {
    setSending(d.id);
    try {
      await redeliver.trigger(d);
      showSuccessToast(`The ${d.type} notice of ${d.sample} is being sent again.`);
      await mutate();
    } catch (error) {
      reportError(error, 'Not redelivered');
    } finally {
      setSending(null);
    }
  };
  return (
    <Modal opened onClose={onClose} title={`Webhook deliveries: ${client.name}`} size="xl">
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          To {client.webhookUrl}. A failed notice is retried with back-off for about a day; a redelivery keeps its webhook-id.
        </Text>
        {isLoading ? (
          <Text c="dimmed">Loading deliveries…</Text>
        ) : !data?.length ? (
          <Text c="dimmed">No notices sent yet.</Text>
        ) : (
          <RecordTable label="Webhook deliveries" columns={['Sent', 'Event', 'Sample', 'Status', 'Attempts', 'Last answer']} withActions minWidth={820} bare>
            {data.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>{formatDateTime(d.createdAt)}</Table.Td>
                <Table.Td>
                  <Code>{d.type}</Code>
                </Table.Td>
                <Table.Td>{d.sample}</Table.Td>
                <Table.Td>
                  <Badge color={DELIVERY_COLORS[d.status]}>{d.status}</Badge>
                </Table.Td>
                <Table.Td>{d.attempts}</Table.Td>
                <Table.Td>
                  {lastAnswer(d)}
                  {d.lastError && d.lastStatusCode !== null && (
                    <Text fz="xs" c="dimmed">
                      {d.lastError}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Button size="xs" variant="default" loading={sending === d.id} onClick={() => void onRedeliver(d)} aria-label={`Redeliver the ${d.type} notice of ${d.sample}`}>
                    Redeliver
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </RecordTable>
        )}
      </Stack>
    </Modal>
  );
}
