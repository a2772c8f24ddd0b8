import { useState } from 'react';
import { Anchor, Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link, useSearchParams } from 'react-router-dom';
import { ACCESS_STATUSES, DEFAULT_PAGE_SIZE, listName, type AccessStatus } from '@platform/domain';
import { useContacts } from '../../api/admin';
import { Pager } from '../../components/Pager';
import { AccountSelect, type AccountOption } from './AccountSelect';
import { AdminPageFrame } from './AdminPageFrame';
import { ADMIN_PATHS, adminUserPath } from './paths';
import { QueryState, queryFlags } from './QueryState';
import { UserDetail } from './UserDetail';
import { ACCESS_COLORS, signInState } from './user-status';
import { RecordTable } from '../../components/RecordTable';
import { formatDateTime } from '../../format';

const ANY = 'any';

interface Filters {
  q: string;
  account: AccountOption | null;
  status: AccessStatus | null;
  page: number;
  pageSize: number;
}

/**
 * /admin/provider/users: find provider users (name or email, account, access status); ?contact={id}
 * opens one: their accounts and roles, access, super admin, activation, support staff links. The
 * filters stay while a user is open (the page stays mounted; only the query string changes).
 */
export function UsersPage() {
  const [params] = useSearchParams();
  const contactId = Number(params.get('contact')) || null;
  const [filters, setFilters] = useState<Filters>({ q: '', account: null, status: null, page: 1, pageSize: DEFAULT_PAGE_SIZE });
  return (
    <AdminPageFrame
      title="Provider users"
      subtitle="Physicians and staff of the accounts: their access, roles and sign-in."
      actions={
        <Button component={Link} to={ADMIN_PATHS.register}>
          Register a provider
        </Button>
      }
    >
      {contactId ? <UserDetail key={contactId} contactId={contactId} /> : <UserList filters={filters} onFilters={setFilters} />}
    </AdminPageFrame>
  );
}

function UserList({ filters, onFilters }: { filters: Filters; onFilters: (f: Filters) => void }) {
  const set = (patch: Partial<Filters>) => onFilters({ ...filters, page: 1, ...patch });
  const [debouncedQ] = useDebouncedValue(filters.q.trim(), 300);
  const contacts = useContacts({ q: debouncedQ, accountId: filters.account?.id ?? null, status: filters.status, page: filters.page, pageSize: filters.pageSize });
  const rows = contacts.data?.rows ?? [];
  const filtered = Boolean(debouncedQ || filters.account || filters.status);
  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput label="Search users" description="Name or email" value={filters.q} onChange={(e) => set({ q: e.currentTarget.value })} w={280} autoComplete="off" />
        <AccountSelect label="Account" description="Users of one account" placeholder="Any account" value={filters.account} onChange={(account) => set({ account })} w={280} />
        <Select
          label="Access"
          description="Their access request"
          data={[{ value: ANY, label: 'Any status' }, ...ACCESS_STATUSES.map((s) => ({ value: s, label: s }))]}
          value={filters.status ?? ANY}
          onChange={(v) => set({ status: v && v !== ANY ? (v as AccessStatus) : null })}
          allowDeselect={false}
          w={180}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      <QueryState
        what="provider users"
        {...queryFlags(contacts, (d) => d.rows.length === 0)}
        emptyText={filtered ? 'No user matches.' : 'No provider users yet.'}
        onRetry={() => void contacts.mutate()}
      >
        <RecordTable minWidth={960} highlightOnHover label="Provider users" columns={['Name', 'Email', 'Title', 'Accounts and roles', 'Access', 'Sign-in', 'Last sign-in']}>
          {rows.map((c) => {
            const signIn = signInState(c);
            return (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <Anchor component={Link} to={adminUserPath(c.id)} fw={600} fz="sm">
                    {listName(c)}
                  </Anchor>
                </Table.Td>
                <Table.Td fz="sm" style={{ wordBreak: 'break-all' }}>{c.email}</Table.Td>
                <Table.Td fz="sm">{c.title ?? '—'}</Table.Td>
                <Table.Td fz="sm">
                  {c.memberships.length === 0 ? (
                    <Text fz="sm" c="dimmed">None</Text>
                  ) : (
                    c.memberships.map((m) => (
                      <Text key={m.accountId} fz="sm" c={m.isActive ? undefined : 'dimmed'}>
                        {m.accountName}: {m.role}
                        {m.isActive ? '' : ' (inactive)'}
                      </Text>
                    ))
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge color={ACCESS_COLORS[c.accessStatus]}>{c.accessStatus}</Badge>
                </Table.Td>
                <Table.Td>
                  <Badge color={signIn.color} variant="light">{signIn.label}</Badge>
                </Table.Td>
                <Table.Td fz="sm">{c.lastLoginAt ? formatDateTime(c.lastLoginAt) : 'Never'}</Table.Td>
              </Table.Tr>
            );
          })}
        </RecordTable>
        <Pager
          page={filters.page}
          pageSize={filters.pageSize}
          total={contacts.data?.total ?? 0}
          onPage={(page) => onFilters({ ...filters, page })}
          onPageSize={(pageSize) => set({ pageSize })}
          noun="users"
        />
      </QueryState>
    </Stack>
  );
}
