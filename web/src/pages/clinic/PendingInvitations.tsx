import { useState } from 'react';
import { Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { fullName } from '@platform/domain';
import { cancelAccountInvitation, useAccountInvitations, type AccountInvitationRow } from '../../api/account-users';
import { RecordTable } from '../../components/RecordTable';
import { reportError } from '../../shell/report-error';
import { showSuccessToast } from '../../shell/success-toast';
import { AA_COLORS } from '../../status-colors';
import { formatDate, formatLongDate } from '../../format';

/**
 * The account's invitations awaiting acceptance ("Add user" sends one): who, which role, until
 * when the link works, and a way to cancel one. Nothing shows while there are none.
 */
export function PendingInvitations({ accountId }: { accountId: number }) {
  const { data, mutate } = useAccountInvitations(accountId);
  const [cancelling, setCancelling] = useState<number | null>(null);
  if (!data?.length) return null;

  const cancel = async (row: AccountInvitationRow) => {
    setCancelling(row.id);
    try {
      await mutate(await cancelAccountInvitation(accountId, row.id), { revalidate: false });
      showSuccessToast(`The invitation of ${row.email} was cancelled`);
    } catch (error) {
      reportError(error, 'Failed to cancel the invitation');
    } finally {
      setCancelling(null);
    }
  };

  return (
    <Stack gap="xs" component="section" aria-labelledby="pending-invitations">
      <Title order={2} fz="lg" id="pending-invitations">
        Invited, awaiting acceptance
      </Title>
      <Text fz="sm" c="dimmed">They join this account when they accept the emailed invitation.</Text>
      <RecordTable minWidth={700} label="Invitations awaiting acceptance" columns={['Name', 'Email', 'Role', 'Invited', 'Link works until']} withActions>
        {data.map((row) => (
          <Table.Tr key={row.id}>
            <Table.Td>{fullName(row)}</Table.Td>
            <Table.Td>{row.email}</Table.Td>
            <Table.Td>{row.role}</Table.Td>
            <Table.Td>
              {formatDate(row.createdAt)}
              {row.invitedBy && <Text fz="xs" c="dimmed">by {row.invitedBy}</Text>}
            </Table.Td>
            <Table.Td>{row.expired ? <Badge color={AA_COLORS.gray}>Expired</Badge> : formatLongDate(row.expiresAt)}</Table.Td>
            <Table.Td>
              <Button size="xs" variant="subtle" color={AA_COLORS.red} loading={cancelling === row.id} onClick={() => void cancel(row)} aria-label={`Cancel the invitation of ${row.email}`}>
                Cancel
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </RecordTable>
    </Stack>
  );
}
