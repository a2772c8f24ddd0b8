import { useState } from 'react';
import {
  Alert, Anchor, Badge, Button, Card, Center, Drawer, Group, Loader, Modal, Stack, Table, Text, TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useNavigate } from 'react-router-dom';
import { AccountRole, DEFAULT_PAGE_SIZE, fullName, listName } from '@platform/domain';
import { useMe, type MeAccount } from '../../api/auth';
import { useAccountUser, useAccountUsers, useRefreshAccountUsers, type AccountUserInvited, type ContactRow } from '../../api/account-users';
import { ApiError } from '../../api/fetcher';
import { Notice } from '../../components/Notice';
import { Pager } from '../../components/Pager';
import { useViewport } from '../../layouts/use-viewport';
import { signInPath } from '../../portals';
import { homePathAfterSignIn } from '../../session/home-path';
import { showSuccessToast } from '../../shell/success-toast';
import { AccountUserPanel, membershipIn } from './AccountUserPanel';
import { ClinicPageFrame } from './ClinicPageFrame';
import { NewAccountUserForm } from './NewAccountUserForm';
import { PendingInvitations } from './PendingInvitations';
import { TwoFactorRequirementCard } from './TwoFactorRequirementCard';
import { RecordTable } from '../../components/RecordTable';
import { formatDateTime } from '../../format';

export const ONLY_SUPER_ADMINS = "Only this account's super admins manage its users";

/**
 * /provider-clinic/{accountId}/users: the account's super admin manages who works in the account
 * (docs/admin-api.md, "An account's Super Admin"). Anyone else is told who can; the API refuses
 * them too (403).
 */
export function AccountUsersPage() {
  return (
    <ClinicPageFrame title="Account users">
      {(account) => (account.role === AccountRole.SuperAdmin ? <AccountUsers account={account} /> : <OnlySuperAdmins account={account} />)}
    </ClinicPageFrame>
  );
}

function OnlySuperAdmins({ account }: { account: MeAccount }) {
  return (
    <Notice color="blue" title={ONLY_SUPER_ADMINS}>
      Ask a super admin of {account.name} to add a user, change a role or link support staff to their physicians.
    </Notice>
  );
}

function AccountUsers({ account }: { account: MeAccount }) {
  const [q, setQ] = useState('');
  const [search] = useDebouncedValue(q.trim(), 300);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [selected, setSelected] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const { data, error, isLoading, isValidating } = useAccountUsers(account.id, { q: search, page, pageSize });
  const me = useMe();
  const refresh = useRefreshAccountUsers(account.id);
  const navigate = useNavigate();
  const phone = useViewport() === 'phone';
  // The open user (the panel reads the same, once).
  const { data: selectedUser } = useAccountUser(account.id, selected);

  if (error instanceof ApiError && error.status === 403) return <OnlySuperAdmins account={account} />;

  const onInvited = async ({ message }: AccountUserInvited) => {
    setAdding(false);
    showSuccessToast(message);
    await refresh();
  };

  /** One's own access here ended: to wherever one may still work. */
  const onLostOwnAccess = async () => {
    setSelected(null);
    const fresh = await me.mutate().catch(() => undefined);
    const stillHere = fresh?.accounts.find((a) => a.id === account.id);
    if (stillHere?.role === AccountRole.SuperAdmin) return;
    navigate((fresh && homePathAfterSignIn('provider', fresh)) ?? signInPath('provider'), { replace: true });
  };

  const rows = data?.rows ?? [];
  const total = data?.total ?? 0;
  const pager = (
    <Pager
      page={page}
      pageSize={pageSize}
      total={total}
      onPage={setPage}
      onPageSize={(size) => {
        setPageSize(size);
        setPage(1);
      }}
      noun="users"
    />
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Search users"
          placeholder="Name or email"
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 320 }}
        />
        <Button onClick={() => setAdding(true)}>Add user</Button>
      </Group>

      {isLoading && !data ? (
        <Center py="xl" role="status" aria-label="Loading the users">
          <Loader />
        </Center>
      ) : error && !data ? (
        <Alert color="red" variant="light" title="The users could not be loaded">
          {error.message}
        </Alert>
      ) : rows.length === 0 ? (
        <Card withBorder padding="lg">
          <Text c="dimmed">{search ? 'No user of this account matches.' : 'This account has no users yet.'}</Text>
        </Card>
      ) : phone ? (
        <Stack gap="sm" aria-busy={isValidating}>
          {rows.map((r) => (
            <UserCard key={r.id} row={r} accountId={account.id} onOpen={() => setSelected(r.id)} />
          ))}
          {pager}
        </Stack>
      ) : (
        <Stack gap="sm">
          <RecordTable minWidth={760} striped highlightOnHover aria-busy={isValidating} label="Users of this account" columns={['Name', 'Email', 'Title', 'Role', 'In this account', 'Last sign-in']}>
            {rows.map((r) => (
              <UserRow key={r.id} row={r} accountId={account.id} onOpen={() => setSelected(r.id)} />
            ))}
          </RecordTable>
          {pager}
        </Stack>
      )}

      <PendingInvitations accountId={account.id} />

      <TwoFactorRequirementCard accountId={account.id} />

      <Drawer
        opened={selected !== null}
        onClose={() => setSelected(null)}
        position="right"
        size="lg"
        title={selectedUser && selectedUser.id === selected ? fullName(selectedUser) : 'User'}
        closeButtonProps={{ 'aria-label': 'Close' }}
        styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
      >
        {selected !== null && (
          <AccountUserPanel
            key={selected}
            accountId={account.id}
            accountName={account.name}
            contactId={selected}
            signedInUserId={me.data?.user.id ?? null}
            onLostOwnAccess={() => void onLostOwnAccess()}
          />
        )}
      </Drawer>

      <Modal opened={adding} onClose={() => setAdding(false)} title="Add a user" size="lg" centered closeButtonProps={{ 'aria-label': 'Close' }} styles={{ title: { fontWeight: 650 } }}>
        {adding && <NewAccountUserForm accountId={account.id} accountName={account.name} onCreated={(c) => void onInvited(c)} onCancel={() => setAdding(false)} />}
      </Modal>
    </Stack>
  );
}

function UserRow({ row, accountId, onOpen }: { row: ContactRow; accountId: number; onOpen: () => void }) {
  const membership = membershipIn(row, accountId);
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component="button" type="button" onClick={onOpen} fw={600} ta="left">
          {listName(row)}
        </Anchor>
      </Table.Td>
      <Table.Td>{row.email}</Table.Td>
      <Table.Td>{row.title ?? '—'}</Table.Td>
      <Table.Td>{membership?.role ?? '—'}</Table.Td>
      <Table.Td>
        {membership ? (
          <Badge color={membership.isActive ? 'green' : 'gray'} variant="light">
            {membership.isActive ? 'Active' : 'Inactive'}
          </Badge>
        ) : (
          'No access'
        )}
      </Table.Td>
      <Table.Td>{row.lastLoginAt ? formatDateTime(row.lastLoginAt) : 'Never'}</Table.Td>
    </Table.Tr>
  );
}

/** A user on a phone: the same facts as a table row, stacked. */
function UserCard({ row, accountId, onOpen }: { row: ContactRow; accountId: number; onOpen: () => void }) {
  const membership = membershipIn(row, accountId);
  return (
    <Card withBorder padding="md" component="article" aria-label={fullName(row)}>
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Anchor component="button" type="button" onClick={onOpen} fw={600} ta="left">
            {listName(row)}
          </Anchor>
          {membership && (
            <Badge color={membership.isActive ? 'green' : 'gray'} variant="light">
              {membership.isActive ? 'Active' : 'Inactive'}
            </Badge>
          )}
        </Group>
        <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {row.email}
        </Text>
        <Text fz="sm" c="dimmed">
          {/* The role, and the title where it says more (a nurse working as support staff). */}
          {[membership?.role ?? 'No access', row.title !== membership?.role ? row.title : null].filter(Boolean).join(' · ')}
        </Text>
        <Text fz="sm" c="dimmed">
          Last sign-in: {row.lastLoginAt ? formatDateTime(row.lastLoginAt) : 'Never'}
        </Text>
      </Stack>
    </Card>
  );
}
