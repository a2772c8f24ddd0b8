import { useState } from 'react';
import { Button, Card, Group, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  InvitationStatus, PATIENT_INVITATION_DAYS, PATIENT_PRODUCT_TEST_NAMES, PATIENT_PRODUCTS, type InvitationAction, type PatientProduct,
} from '@platform/domain';
import {
  createInvitation, INVITATIONS_ERROR, updateInvitation, usePatientInvitations, useRefreshInvitations, type PatientInvitationRow,
} from '../../api/patient-portal';
import { FormError } from '../../components/FormError';
import { PagedTable, usePaging } from '../../components/PagedTable';
import { useCommand, useFormSubmit } from '../../forms/use-form-submit';
import { commandError } from '../../forms/server-errors';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';
import { ClinicPageFrame } from './ClinicPageFrame';
import { formatDate, formatDateTime } from '../../format';

export const patientInvitationsPath = (accountId: number) => `/provider-clinic/${accountId}/patient-invitations`;

/** Invitations that can still be resent or cancelled: not yet used for an order, not cancelled (an expired one can be resent). */
const isOpen = (row: PatientInvitationRow) => row.status === InvitationStatus.Requested;
const isExpired = (row: PatientInvitationRow) => new Date(row.expiresAt).getTime() < Date.now();

/**
 * /provider-clinic/{accountId}/patient-invitations: the clinic invites a patient by email to order
 * a test themselves (the link opens the Patient Portal's order with this clinic and the test
 * filled in, once, for PATIENT_INVITATION_DAYS days); the list with each invitation's status and
 * expiry, to resend (a new link; the old one stops working) or cancel.
 */
export function PatientInvitationsPage() {
  return (
    <ClinicPageFrame title="Patient invitations">
      {(account) => (
        <Stack gap="xl">
          <NewInvitation accountId={account.id} />
          <InvitationList accountId={account.id} />
        </Stack>
      )}
    </ClinicPageFrame>
  );
}

function NewInvitation({ accountId }: { accountId: number }) {
  const refresh = useRefreshInvitations(accountId);
  const form = useForm({
    initialValues: { email: '', firstName: '', lastName: '', product: 'prostox' as string | null },
    validate: {
      email: (v: string) => (!v.trim() ? 'Enter the patient’s email address' : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? null : 'Enter a valid email address'),
      product: (v: string | null) => (v ? null : 'Choose the test'),
    },
  });
  const sending = useFormSubmit(
    form,
    (v) => createInvitation(accountId, { email: v.email.trim(), firstName: v.firstName.trim() || null, lastName: v.lastName.trim() || null, product: v.product as PatientProduct }),
    {
      onSuccess: (row) => {
        showSuccessToast(`Invitation sent to ${row.email}`);
        form.setValues({ email: '', firstName: '', lastName: '' });
        void refresh();
      },
    },
  );
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="new-invitation">
      <form onSubmit={sending.onSubmit} noValidate aria-label="Invite a patient">
        <Stack gap="sm">
          <Title order={2} fz="lg" id="new-invitation">
            Invite a patient to order
          </Title>
          <Text fz="sm" c="dimmed">
            The patient gets an email with a link to order the test with your clinic as their treating provider. The link works once and
            for {PATIENT_INVITATION_DAYS} days.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Patient email" type="email" withAsterisk {...form.getInputProps('email')} />
            <Select
              label="Test"
              data={PATIENT_PRODUCTS.map((p) => ({ value: p, label: PATIENT_PRODUCT_TEST_NAMES[p] }))}
              allowDeselect={false}
              withAsterisk
              {...form.getInputProps('product')}
            />
            <TextInput label="First name" {...form.getInputProps('firstName')} />
            <TextInput label="Last name" {...form.getInputProps('lastName')} />
          </SimpleGrid>
          <FormError title="The invitation was not sent" error={sending.error} />
          <Group justify="flex-end">
            <Button type="submit" loading={sending.submitting}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function InvitationList({ accountId }: { accountId: number }) {
  const paging = usePaging();
  const { data, error, isLoading } = usePatientInvitations(accountId, { page: paging.page, pageSize: paging.pageSize });
  const refresh = useRefreshInvitations(accountId);
  const command = useCommand(`invitation-update:${accountId}`, ({ id, action }: { id: number; action: InvitationAction }) => updateInvitation(accountId, id, action));
  const [busy, setBusy] = useState<string | null>(null);

  const act = async (row: PatientInvitationRow, action: InvitationAction) => {
    setBusy(`${action}:${row.id}`);
    try {
      await command.trigger({ id: row.id, action });
      showSuccessToast(action === 'resend' ? `Invitation sent again to ${row.email}` : `Invitation to ${row.email} cancelled`);
      await refresh();
    } catch (failure) {
      reportError(new Error(commandError(failure)), action === 'resend' ? 'Error sending email' : 'Error cancelling the invitation');
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="sm" component="section" aria-labelledby="invitation-list">
      <Title order={2} fz="lg" id="invitation-list">
        Invitations sent
      </Title>
      <PagedTable
        list={{ data, error, isLoading }}
        paging={paging}
        label="Patient invitations"
        loadingLabel="Loading patient invitations"
        errorTitle={INVITATIONS_ERROR}
        emptyText="No patient has been invited yet."
        noun="invitations"
        minWidth={860}
        columns={['Patient', 'Test', 'Status', 'Expires', 'Last sent', 'Order', 'Actions']}
      >
        {(row) => (
          <Table.Tr key={row.id}>
            <Table.Td>
              <Text fz="sm">{[row.firstName, row.lastName].filter(Boolean).join(' ') || '—'}</Text>
              <Text fz="xs" c="dimmed">
                {row.email}
              </Text>
            </Table.Td>
            <Table.Td>{PATIENT_PRODUCT_TEST_NAMES[row.product] ?? row.product}</Table.Td>
            <Table.Td>{row.status}</Table.Td>
            <Table.Td>{isOpen(row) && isExpired(row) ? `Expired ${formatDate(row.expiresAt)}` : formatDate(row.expiresAt)}</Table.Td>
            <Table.Td>
              {row.lastSentAt ? formatDateTime(row.lastSentAt) : '—'}
              {row.sendCount > 1 ? ` (${row.sendCount} times)` : ''}
            </Table.Td>
            <Table.Td ff="monospace">{row.orderNumber ?? '—'}</Table.Td>
            <Table.Td>
              {isOpen(row) && (
                <Group gap="xs" wrap="nowrap">
                  <Button size="compact-sm" variant="default" loading={busy === `resend:${row.id}`} onClick={() => void act(row, 'resend')} aria-label={`Resend the invitation to ${row.email}`}>
                    Resend
                  </Button>
                  <Button size="compact-sm" variant="subtle" color="red" loading={busy === `cancel:${row.id}`} onClick={() => void act(row, 'cancel')} aria-label={`Cancel the invitation to ${row.email}`}>
                    Cancel
                  </Button>
                </Group>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      </PagedTable>
    </Stack>
  );
}
