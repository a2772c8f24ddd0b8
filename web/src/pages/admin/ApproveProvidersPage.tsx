import { useState } from 'react';
import { Button, Card, Group, Modal, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AccountRole, fullName, isValidNpi, REASON_MAX_LENGTH, type ContactRow } from '@platform/domain';
import { approveContact, denyContact, usePendingContacts, useRefreshAdmin } from '../../api/admin';
import { ApiError } from '../../api/fetcher';
import { nestedFieldOf } from '../../forms/server-errors';
import { useFormSubmit } from '../../forms/use-form-submit';
import { useFocusBack } from '../../shell/focus-back';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';
import { AccountGrantsField, emptyGrant, grantRowsProblem, grantsOf, roleForTitle, type GrantRow } from './AccountGrantsField';
import { AdminPageFrame } from './AdminPageFrame';
import { onCommandError } from './errors';
import { FormFooter } from './FormFooter';
import { QueryState, queryFlags } from './QueryState';
import { formatDateTime } from '../../format';

/** /admin/provider/approve: providers who asked for access, oldest first; approve with accounts and roles, or deny with a reason. */
export function ApproveProvidersPage() {
  const pending = usePendingContacts();
  const [approving, setApproving] = useState<ContactRow | null>(null);
  const [denying, setDenying] = useState<ContactRow | null>(null);
  const refresh = useRefreshAdmin();
  const rows = pending.data ?? [];
  // Closing a dialog takes the focus with it: back to the Approve or Deny button that opened it, or
  // (the request decided, its card gone) the page's heading.
  const focusBack = useFocusBack();
  const close = focusBack.after(() => {
    setApproving(null);
    setDenying(null);
  });

  const done = (message: string) => {
    close();
    showSuccessToast(message);
    void refresh();
  };

  return (
    <AdminPageFrame title="Provider approvals" subtitle="Providers who asked for access, oldest first. Approving emails them a link to set a password; denying emails them your reason.">
      <QueryState what="access requests" {...queryFlags(pending, (d) => d.length === 0)} emptyText="No provider is waiting for approval." onRetry={() => void pending.mutate()}>
        <Text fw={600} aria-live="polite">
          {rows.length} {rows.length === 1 ? 'provider waits' : 'providers wait'} for a decision
        </Text>
        <Stack gap="sm" component="ul" aria-label="Access requests" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((c) => (
            <Card key={c.id} withBorder padding="md" component="li" aria-label={fullName(c)}>
              <Stack gap="xs">
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <Title order={2} fz="lg">
                    {fullName(c)}
                  </Title>
                  <Text fz="sm" c="dimmed">
                    Asked {formatDateTime(c.createdAt)}
                  </Text>
                </Group>
                <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="xs" component="dl" style={{ margin: 0 }}>
                  <Detail term="Email" value={c.email} />
                  <Detail term="Phone" value={c.phone} />
                  <Detail term="Title" value={c.title} />
                  <Detail term="Specialty" value={c.specialty} />
                  <Detail term="NPI" value={c.npi} />
                  <Detail term="Practice" value={c.requestedAccountName} />
                </SimpleGrid>
                {c.requestNote && (
                  <Text fz="sm">
                    <Text span fw={600}>
                      Note:{' '}
                    </Text>
                    {c.requestNote}
                  </Text>
                )}
                <Group gap="sm">
                  <Button color={AA_COLORS.green} onClick={(e) => { focusBack.remember(e.currentTarget); setApproving(c); }}>
                    Approve
                  </Button>
                  <Button color={AA_COLORS.red} variant="outline" onClick={(e) => { focusBack.remember(e.currentTarget); setDenying(c); }}>
                    Deny
                  </Button>
                </Group>
              </Stack>
            </Card>
          ))}
        </Stack>
      </QueryState>
      {approving && <ApproveModal contact={approving} onClose={close} onDone={() => done(`Access approved for ${fullName(approving)}`)} onRefused={refresh} />}
      {denying && <DenyModal contact={denying} onClose={close} onDone={() => done(`Access denied for ${fullName(denying)}`)} onRefused={refresh} />}
    </AdminPageFrame>
  );
}

function Detail({ term, value }: { term: string; value: string | null }) {
  return (
    <div>
      <Text component="dt" fz="xs" c="dimmed">
        {term}
      </Text>
      <Text component="dd" fz="sm" m={0} ff={term === 'NPI' ? 'monospace' : undefined}>
        {value || '—'}
      </Text>
    </div>
  );
}

interface ModalProps {
  contact: ContactRow;
  onClose: () => void;
  onDone: () => void;
  /** The request is gone or already decided (404, 409): the list is read again. */
  onRefused: () => void;
}

const whenRefused = (onRefused: () => void) => (error: unknown) => {
  onCommandError(error);
  if (error instanceof ApiError && (error.status === 404 || error.status === 409)) onRefused();
};

function ApproveModal({ contact, onClose, onDone, onRefused }: ModalProps) {
  const role = roleForTitle(contact.title);
  // A Physician orders under their NPI: asked here when the request gave none (the role may differ from the title).
  const needsNpi = (rows: GrantRow[]) => !contact.npi && rows.some((r) => r.role === AccountRole.Physician);
  const form = useForm<{ accounts: GrantRow[]; npi: string }>({
    initialValues: { accounts: [emptyGrant(role)], npi: '' },
    validate: {
      accounts: grantRowsProblem,
      npi: (v, values) => (!needsNpi(values.accounts) ? null : !v.trim() ? 'Enter the NPI: a Physician orders under it' : isValidNpi(v.trim()) ? null : 'NPI must be a valid 10-digit National Provider Identifier'),
    },
  });
  const sending = useFormSubmit(form, (v) => approveContact(contact.id, grantsOf(v.accounts), needsNpi(v.accounts) ? v.npi.trim() : null), {
    fieldOf: nestedFieldOf(() => form.getValues()),
    onSuccess: onDone,
    onError: whenRefused(onRefused),
  });
  return (
    <Modal opened onClose={onClose} title={`Approve ${fullName(contact)}`} size="xl">
      <form onSubmit={sending.onSubmit} noValidate>
        <Stack gap="md">
          <Text fz="sm">
            Choose the accounts {contact.firstName} may act in and the role in each.
            {contact.requestedAccountName ? ` They named “${contact.requestedAccountName}”.` : ''}
          </Text>
          <AccountGrantsField
            rows={form.getValues().accounts}
            onChange={(rows) => {
              form.setFieldValue('accounts', rows);
              if (form.errors.accounts) form.validateField('accounts');
            }}
            errorOf={(path) => form.errors[path]}
            error={form.errors.accounts}
            defaultRole={role}
            disabled={sending.submitting}
          />
          {needsNpi(form.getValues().accounts) && (
            <TextInput
              label="NPI"
              description="The physician's 10-digit National Provider Identifier: their orders name it"
              required
              maxLength={10}
              inputMode="numeric"
              autoComplete="off"
              disabled={sending.submitting}
              {...form.getInputProps('npi')}
            />
          )}
          <FormFooter sending={sending} errorTitle="Access was not approved" submitLabel="Approve access" onCancel={onClose} color={AA_COLORS.green} dismissible={false} />
        </Stack>
      </form>
    </Modal>
  );
}

function DenyModal({ contact, onClose, onDone, onRefused }: ModalProps) {
  const form = useForm<{ reason: string }>({
    initialValues: { reason: '' },
    validate: { reason: (v) => (v.trim() ? null : 'Give a reason for the denial') },
  });
  const sending = useFormSubmit(form, (v) => denyContact(contact.id, v.reason.trim()), { onSuccess: onDone, onError: whenRefused(onRefused) });
  return (
    <Modal opened onClose={onClose} title={`Deny ${fullName(contact)}`}>
      <form onSubmit={sending.onSubmit} noValidate>
        <Stack gap="md">
          <Textarea
            label="Reason"
            description={`Emailed to ${contact.email}`}
            required
            autosize
            minRows={3}
            maxLength={REASON_MAX_LENGTH}
            disabled={sending.submitting}
            data-autofocus
            {...form.getInputProps('reason')}
          />
          <FormFooter sending={sending} errorTitle="Access was not denied" submitLabel="Deny access" onCancel={onClose} color={AA_COLORS.red} dismissible={false} />
        </Stack>
      </form>
    </Modal>
  );
}

