import { useEffect, useRef, useState } from 'react';
import {
  Badge, Button, Card, Checkbox, Fieldset, Group, List, MultiSelect, Paper, Progress, Radio, Select, SimpleGrid, Stack, Table, Tabs, Text, TextInput, Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useSearchParams } from 'react-router-dom';
import {
  ACCOUNT_ROLES, CAMPAIGN_MAX_RECIPIENTS, DEFAULT_PAGE_SIZE, EMAIL_CAMPAIGN_TITLES, EMAIL_CAMPAIGNS, EMAIL_STATUSES, EmailCampaign, EmailStatus, formatCount, type AccountRole, type CampaignPreview, type CampaignProgress, type EmailLogRow,
} from '@platform/domain';
import {
  campaignFinished, previewCampaign, resendEmail, sendCampaign, useCampaign, useCampaignRecipients, useCampaigns, useEmailLog, useRefreshAdmin,
} from '../../api/admin';
import { FormError } from '../../components/FormError';
import { Pager } from '../../components/Pager';
import { useCommand } from '../../forms/use-form-submit';
import { useFocusBack } from '../../shell/focus-back';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';
import { AccountMultiSelect, type AccountOption } from './AccountSelect';
import { AdminPageFrame } from './AdminPageFrame';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { onCommandError } from './errors';
import { commandError } from '../../forms/server-errors';
import { QueryState, queryFlags } from './QueryState';
import { RecordTable } from '../../components/RecordTable';
import { formatDateTime } from '../../format';

const EMAIL_COLORS: Record<string, string> = { Pending: AA_COLORS.blue, Sent: AA_COLORS.green, Failed: AA_COLORS.red, 'Not queued': AA_COLORS.gray };
const ANY = 'any';

type Tab = 'log' | 'bulk';

/** /admin/provider/emails: every email the platform sent (never a body), resend one; bulk reminder and feedback emails with their progress. */
export function EmailsPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'bulk' || params.has('campaign') ? 'bulk' : 'log';
  const status = (EMAIL_STATUSES as string[]).includes(params.get('status') ?? '') ? (params.get('status') as EmailStatus) : null;
  const campaignId = Number(params.get('campaign')) || null;

  const setParam = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) next.delete(k);
      else next.set(k, v);
    }
    setParams(next, { replace: true });
  };

  return (
    <AdminPageFrame title="Emails" subtitle="What the platform sent, to whom and whether it arrived at the mail server; bulk sign-up reminders and feedback requests.">
      <Tabs value={tab} onChange={(v) => setParam({ tab: v === 'bulk' ? 'bulk' : null, campaign: null })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="log">Email log</Tabs.Tab>
          <Tabs.Tab value="bulk">Bulk emails</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="log" pt="md">
          <EmailLog status={status} onStatus={(s) => setParam({ status: s })} />
        </Tabs.Panel>
        <Tabs.Panel value="bulk" pt="md">
          <BulkEmails campaignId={campaignId} onCampaign={(id) => setParam({ tab: 'bulk', campaign: id === null ? null : String(id) })} />
        </Tabs.Panel>
      </Tabs>
    </AdminPageFrame>
  );
}

// ---------------------------------------------------------------------------------------------
// The log
// ---------------------------------------------------------------------------------------------

function EmailLog({ status, onStatus }: { status: EmailStatus | null; onStatus: (status: string | null) => void }) {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q.trim(), 300);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [resending, setResending] = useState<EmailLogRow | null>(null);
  // Closing the dialog takes the focus with it: back to the row's Resend button.
  const focusBack = useFocusBack();
  const closeDialog = focusBack.after(() => setResending(null));
  const emails = useEmailLog({ q: debounced, status, page, pageSize });
  const refresh = useRefreshAdmin();
  const resend = useCommand('admin:email-resend', (email: EmailLogRow) => resendEmail(email.id));
  const rows = emails.data?.rows ?? [];

  const confirmResend = async () => {
    if (!resending) return;
    try {
      const copy = await resend.trigger(resending);
      showSuccessToast(`The email was queued again for ${copy.toAddress}`);
      closeDialog();
      void refresh();
    } catch (error) {
      onCommandError(error);
    }
  };

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput label="Search emails" description="Recipient or subject" value={q} onChange={(e) => { setQ(e.currentTarget.value); setPage(1); }} w={320} autoComplete="off" />
        <Select
          label="Status"
          data={[{ value: ANY, label: 'Any status' }, ...EMAIL_STATUSES.map((s) => ({ value: s, label: s }))]}
          value={status ?? ANY}
          onChange={(v) => { onStatus(v && v !== ANY ? v : null); setPage(1); }}
          allowDeselect={false}
          w={180}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      <QueryState
        what="emails"
        {...queryFlags(emails, (d) => d.rows.length === 0)}
        emptyText={debounced || status ? 'No email matches.' : 'No emails sent yet.'}
        onRetry={() => void emails.mutate()}
      >
        <RecordTable minWidth={900} label="Email log" columns={['Recipient', 'Subject', 'Template', 'Status', 'Time']} withActions>
          {rows.map((e) => (
            <Table.Tr key={e.id}>
              <Table.Td fz="sm" style={{ wordBreak: 'break-all' }}>{e.toAddress}</Table.Td>
              <Table.Td fz="sm">{e.subject}</Table.Td>
              <Table.Td fz="sm" ff="monospace">{e.template ?? '—'}</Table.Td>
              <Table.Td>
                <Badge color={EMAIL_COLORS[e.status]}>{e.status}</Badge>
                {e.error && <Text fz="xs" c="red.9" maw={260} style={{ wordBreak: 'break-word' }}>{e.error}</Text>}
              </Table.Td>
              <Table.Td fz="sm" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.sentAt ?? e.createdAt)}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="default" onClick={(event) => { focusBack.remember(event.currentTarget); resend.reset(); setResending(e); }} aria-label={`Resend ${e.subject} to ${e.toAddress}`}>
                  Resend
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
        <Pager page={page} pageSize={pageSize} total={emails.data?.total ?? 0} onPage={setPage} onPageSize={(n) => { setPageSize(n); setPage(1); }} noun="emails" />
      </QueryState>
      {resending && (
        <ConfirmDialog
          title="Resend this email?"
          confirmLabel="Resend"
          onConfirm={() => void confirmResend()}
          onClose={closeDialog}
          busy={resend.isMutating}
          error={resend.error === undefined ? undefined : commandError(resend.error)}
          errorTitle="The email was not resent"
          danger={false}
        >
          {`A new copy of “${resending.subject}” goes to ${resending.toAddress}. Emails that carried a single-use link cannot be resent: the person asks for a new link instead.`}
        </ConfirmDialog>
      )}
    </Stack>
  );
}

// ---------------------------------------------------------------------------------------------
// Bulk emails
// ---------------------------------------------------------------------------------------------

function BulkEmails({ campaignId, onCampaign }: { campaignId: number | null; onCampaign: (id: number | null) => void }) {
  return (
    <Stack gap="xl">
      {campaignId ? <CampaignRun campaignId={campaignId} onClose={() => onCampaign(null)} /> : <NewCampaign onSent={(c) => onCampaign(c.id)} />}
      <PastCampaigns current={campaignId} onOpen={onCampaign} />
    </Stack>
  );
}

interface AudienceDraft {
  campaign: EmailCampaign;
  accounts: AccountOption[];
  roles: AccountRole[];
  neverSignedIn: boolean;
}

const audienceOf = (d: AudienceDraft) => ({ accountIds: d.accounts.map((a) => a.id), roles: d.roles, neverSignedIn: d.neverSignedIn });

function NewCampaign({ onSent }: { onSent: (c: CampaignProgress) => void }) {
  const [draft, setDraft] = useState<AudienceDraft>({ campaign: EmailCampaign.PortalSignupReminder, accounts: [], roles: [], neverSignedIn: false });
  const [preview, setPreview] = useState<CampaignPreview | null>(null);
  const previewing = useCommand('admin:campaign-preview', (d: AudienceDraft) => previewCampaign(d.campaign, audienceOf(d)));
  const sending = useCommand('admin:campaign-send', (d: AudienceDraft) => sendCampaign(d.campaign, audienceOf(d)));
  const refresh = useRefreshAdmin();
  const busy = previewing.isMutating || sending.isMutating;

  // Any change to what is sent or to whom makes the preview stale.
  const change = (patch: Partial<AudienceDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setPreview(null);
    previewing.reset();
    sending.reset();
  };

  const onPreview = async () => {
    sending.reset();
    try {
      setPreview(await previewing.trigger(draft));
    } catch (error) {
      onCommandError(error);
    }
  };

  const onSend = async () => {
    try {
      const started = await sending.trigger(draft);
      showSuccessToast(`${EMAIL_CAMPAIGN_TITLES[started.campaign]}: sending to ${formatCount(started.recipientCount)} ${started.recipientCount === 1 ? 'person' : 'people'}`);
      void refresh();
      onSent(started);
    } catch (error) {
      onCommandError(error);
    }
  };

  const tooMany = (preview?.recipientCount ?? 0) > CAMPAIGN_MAX_RECIPIENTS;
  const failure = sending.error ?? previewing.error;

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="new-campaign">
      <Stack gap="md">
        <Title order={2} fz="lg" id="new-campaign">
          Send a bulk email
        </Title>
        <Fieldset variant="unstyled" disabled={busy}>
          <Stack gap="md">
            <Radio.Group label="Campaign" value={draft.campaign} onChange={(v) => change({ campaign: v as EmailCampaign })} required>
              <Group gap="lg" mt={6}>
                {EMAIL_CAMPAIGNS.map((c) => (
                  <Radio key={c} value={c} label={EMAIL_CAMPAIGN_TITLES[c]} />
                ))}
              </Group>
            </Radio.Group>
            <SimpleGrid cols={{ base: 1, md: 2 }}>
              <AccountMultiSelect label="Accounts" description="None chosen: every account" value={draft.accounts} onChange={(accounts) => change({ accounts })} />
              <MultiSelect
                label="Roles"
                description="None chosen: every role"
                data={ACCOUNT_ROLES}
                value={draft.roles}
                onChange={(roles) => change({ roles: roles as AccountRole[] })}
                clearable
                comboboxProps={{ withinPortal: true }}
              />
            </SimpleGrid>
            <Checkbox label="Only people who never signed in" checked={draft.neverSignedIn} onChange={(e) => change({ neverSignedIn: e.currentTarget.checked })} />
            <Text fz="sm" c="dimmed">
              Approved provider users with an active sign-in, narrowed by the choices above.
            </Text>
          </Stack>
        </Fieldset>
        <Group>
          <Button variant="light" onClick={() => void onPreview()} loading={previewing.isMutating} disabled={sending.isMutating}>
            Preview
          </Button>
        </Group>
        <FormError title={sending.error ? 'The emails were not sent' : 'No preview'} error={failure === undefined ? undefined : commandError(failure)} />
        {preview && (
          <Card withBorder padding="md" component="section" aria-label="Preview">
            <Stack gap="sm">
              <Text fw={700} aria-live="polite">
                {formatCount(preview.recipientCount)} {preview.recipientCount === 1 ? 'recipient' : 'recipients'}
              </Text>
              {preview.sampleRecipients.length > 0 && (
                <div>
                  <Text fz="sm" c="dimmed">
                    {preview.recipientCount > preview.sampleRecipients.length ? `The first ${preview.sampleRecipients.length}:` : 'Everyone:'}
                  </Text>
                  <List size="sm" aria-label="First recipients">
                    {preview.sampleRecipients.map((r) => (
                      <List.Item key={r.email}>
                        {r.name} &lt;{r.email}&gt;
                      </List.Item>
                    ))}
                  </List>
                </div>
              )}
              <Text fz="sm">
                <b>Subject:</b> {preview.subject}
              </Text>
              <Paper withBorder p="sm" bg="gray.0">
                <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }} aria-label="Email text">
                  {preview.text}
                </Text>
              </Paper>
              {tooMany && <Text c="red.9" fz="sm">One send may reach at most {formatCount(CAMPAIGN_MAX_RECIPIENTS)} people: narrow the audience.</Text>}
              <Group>
                <Button onClick={() => void onSend()} loading={sending.isMutating} disabled={preview.recipientCount === 0 || tooMany}>
                  {`Send to ${formatCount(preview.recipientCount)} ${preview.recipientCount === 1 ? 'recipient' : 'recipients'}`}
                </Button>
              </Group>
            </Stack>
          </Card>
        )}
      </Stack>
    </Paper>
  );
}

/** Where a campaign is: every recipient is sent, failed, queued or not yet queued. */
function CampaignBar({ c }: { c: CampaignProgress }) {
  const of = Math.max(c.recipientCount, 1);
  const pct = (n: number) => (n / of) * 100;
  const notQueued = Math.max(0, c.recipientCount - c.sent - c.failed - c.queued);
  return (
    <Stack gap={6}>
      <Progress.Root size="xl" aria-label={`${EMAIL_CAMPAIGN_TITLES[c.campaign]} progress`}>
        <Progress.Section value={pct(c.sent)} color={AA_COLORS.green} aria-label="Sent" />
        <Progress.Section value={pct(c.failed)} color={AA_COLORS.red} aria-label="Failed" />
        <Progress.Section value={pct(c.queued)} color="blue.4" aria-label="Queued" />
      </Progress.Root>
      <Text fz="sm" aria-live="polite">
        {formatCount(c.sent)} sent · {formatCount(c.failed)} failed · {formatCount(c.queued)} queued
        {notQueued > 0 ? ` · ${formatCount(notQueued)} not yet queued` : ''} of {formatCount(c.recipientCount)}
      </Text>
    </Stack>
  );
}

function CampaignRun({ campaignId, onClose }: { campaignId: number; onClose: () => void }) {
  const campaign = useCampaign(campaignId);
  const refresh = useRefreshAdmin();
  const c = campaign.data;
  const finished = c ? campaignFinished(c) : false;
  // When a send finishes while watched, the past list and the log show its outcome too.
  const wasRunning = useRef(false);
  useEffect(() => {
    if (c && !finished) wasRunning.current = true;
    if (finished && wasRunning.current) {
      wasRunning.current = false;
      void refresh();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [finished, c]);
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="campaign-run">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} fz="lg" id="campaign-run">
            {c ? `${EMAIL_CAMPAIGN_TITLES[c.campaign]} of ${formatDateTime(c.createdAt)}` : 'Bulk email'}
          </Title>
          <Button variant="default" onClick={onClose}>
            Send another bulk email
          </Button>
        </Group>
        <QueryState what="campaign" {...queryFlags(campaign, () => false)} emptyText="" onRetry={() => void campaign.mutate()}>
          {c && (
            <>
              <Group gap="xs">
                <Badge color={finished ? (c.failed || c.jobStatus === 'Failed' ? AA_COLORS.orange : AA_COLORS.green) : AA_COLORS.blue}>
                  {finished ? (c.jobStatus === 'Failed' ? 'Stopped' : 'Finished') : 'Sending'}
                </Badge>
                {c.jobStatus === 'Failed' && <Text fz="sm" c="red.9">The sending job failed; retry it from the job monitor.</Text>}
              </Group>
              <CampaignBar c={c} />
              {finished && <Recipients campaignId={c.id} />}
            </>
          )}
        </QueryState>
      </Stack>
    </Paper>
  );
}

function Recipients({ campaignId }: { campaignId: number }) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const recipients = useCampaignRecipients(campaignId, { page, pageSize });
  const rows = recipients.data?.rows ?? [];
  return (
    <Stack gap="sm">
      <Title order={3} fz="md">
        Recipients
      </Title>
      <QueryState what="recipients" {...queryFlags(recipients, (d) => d.rows.length === 0)} emptyText="This campaign had no recipients." onRetry={() => void recipients.mutate()}>
        <RecordTable minWidth={640} verticalSpacing="xs" label="Recipients" withTableBorder columns={['Name', 'Email', 'Status', 'Sent']} bare>
          {rows.map((r) => (
            <Table.Tr key={r.contactId}>
              <Table.Td fz="sm">{r.name}</Table.Td>
              <Table.Td fz="sm">{r.toAddress}</Table.Td>
              <Table.Td>
                <Badge color={EMAIL_COLORS[r.status]}>{r.status}</Badge>
              </Table.Td>
              <Table.Td fz="sm">{r.sentAt ? formatDateTime(r.sentAt) : '—'}</Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
        <Pager page={page} pageSize={pageSize} total={recipients.data?.total ?? 0} onPage={setPage} onPageSize={(n) => { setPageSize(n); setPage(1); }} noun="recipients" />
      </QueryState>
    </Stack>
  );
}

function PastCampaigns({ current, onOpen }: { current: number | null; onOpen: (id: number) => void }) {
  const [page, setPage] = useState(1);
  const pageSize = DEFAULT_PAGE_SIZE;
  const campaigns = useCampaigns({ page, pageSize });
  const rows = campaigns.data?.rows ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="past-campaigns">
      <Title order={2} fz="lg" id="past-campaigns">
        Past bulk emails
      </Title>
      <QueryState what="past bulk emails" {...queryFlags(campaigns, (d) => d.rows.length === 0)} emptyText="No bulk email sent yet." onRetry={() => void campaigns.mutate()}>
        <RecordTable minWidth={720} label="Past bulk emails" columns={['Campaign', 'Started', 'Recipients', 'Sent', 'Failed']} withActions>
          {rows.map((c) => (
            <Table.Tr key={c.id} aria-current={c.id === current ? 'true' : undefined}>
              <Table.Td fz="sm">
                {EMAIL_CAMPAIGN_TITLES[c.campaign]}
                {!campaignFinished(c) && <Badge ml="xs" size="sm" color={AA_COLORS.blue}>Sending</Badge>}
              </Table.Td>
              <Table.Td fz="sm">{formatDateTime(c.createdAt)}</Table.Td>
              <Table.Td fz="sm">{formatCount(c.recipientCount)}</Table.Td>
              <Table.Td fz="sm">{formatCount(c.sent)}</Table.Td>
              <Table.Td fz="sm" c={c.failed ? 'red.9' : undefined}>{formatCount(c.failed)}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="default" onClick={() => onOpen(c.id)} aria-label={`Open ${EMAIL_CAMPAIGN_TITLES[c.campaign]} of ${formatDateTime(c.createdAt)}`}>
                  Open
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </RecordTable>
        <Pager page={page} pageSize={pageSize} total={campaigns.data?.total ?? 0} onPage={setPage} noun="bulk emails" />
      </QueryState>
    </Stack>
  );
}
