import { useState } from 'react';
import { Anchor, Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Link } from 'react-router-dom';
import { ACCOUNT_TYPES, DEFAULT_PAGE_SIZE, formatCount, type AccountAccessFilter, type AccountType } from '@platform/domain';
import { useAdminAccounts } from '../../api/admin';
import { Pager } from '../../components/Pager';
import { RecordTable } from '../../components/RecordTable';
import { AdminPageFrame } from './AdminPageFrame';
import { ADMIN_PATHS, adminAccountPath } from './paths';
import { QueryState, queryFlags } from './QueryState';

const ANY = 'any';
const ACCESS_OPTIONS: { value: AccountAccessFilter; label: string }[] = [
  { value: 'clinic', label: 'Clinic access' },
  { value: 'research', label: 'Research access' },
];

interface Filters { q: string; access: AccountAccessFilter | null; type: AccountType | null; page: number; pageSize: number }

/** /admin/provider/accounts: find accounts (name, portal access, type) with their users and samples; each opens its page. */
export function AccountsPage() {
  const [filters, setFilters] = useState<Filters>({ q: '', access: null, type: null, page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const set = (patch: Partial<Filters>) => setFilters({ ...filters, page: 1, ...patch });
  const [debouncedQ] = useDebouncedValue(filters.q.trim(), 300);
  const accounts = useAdminAccounts({ q: debouncedQ, access: filters.access, type: filters.type, page: filters.page, pageSize: filters.pageSize });
  const rows = accounts.data?.rows ?? [];
  const filtered = Boolean(debouncedQ || filters.access || filters.type);
  return (
    <AdminPageFrame
      title="Accounts"
      subtitle="The clinics and research partners: their portal access, addresses, physicians and support mailboxes."
      actions={<Button component={Link} to={ADMIN_PATHS.newAccount}>New account</Button>}
    >
      <Stack gap="sm">
        <Group gap="sm" align="flex-end" wrap="wrap">
          <TextInput label="Search accounts" description="Part of the name" value={filters.q} onChange={(e) => set({ q: e.currentTarget.value })} w={280} autoComplete="off" />
          <Select
            label="Portal access"
            data={[{ value: ANY, label: 'Any portal' }, ...ACCESS_OPTIONS]}
            value={filters.access ?? ANY}
            onChange={(v) => set({ access: v && v !== ANY ? (v as AccountAccessFilter) : null })}
            allowDeselect={false}
            w={200}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label="Account type"
            data={[{ value: ANY, label: 'Any type' }, ...ACCOUNT_TYPES.map((t) => ({ value: t, label: t }))]}
            value={filters.type ?? ANY}
            onChange={(v) => set({ type: v && v !== ANY ? (v as AccountType) : null })}
            allowDeselect={false}
            w={240}
            comboboxProps={{ withinPortal: true }}
          />
        </Group>
        <QueryState
          what="accounts"
          {...queryFlags(accounts, (d) => d.rows.length === 0)}
          emptyText={filtered ? 'No account matches.' : 'No accounts yet.'}
          onRetry={() => void accounts.mutate()}
        >
          <RecordTable minWidth={900} highlightOnHover label="Accounts" columns={['Name', 'Type', 'Portal access', 'Users', 'Samples', 'Physicians', 'Status']}>
            {rows.map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td>
                  <Anchor component={Link} to={adminAccountPath(a.id)} fw={600} fz="sm">{a.name}</Anchor>
                </Table.Td>
                <Table.Td fz="sm">{a.type}</Table.Td>
                <Table.Td fz="sm">{[a.clinicAccess && 'Clinic', a.researchAccess && 'Research'].filter(Boolean).join(', ') || 'None'}</Table.Td>
                <Table.Td fz="sm">{formatCount(a.userCount)}</Table.Td>
                <Table.Td fz="sm">{formatCount(a.sampleCount)}</Table.Td>
                <Table.Td fz="sm">{formatCount(a.physicianCount)}</Table.Td>
                <Table.Td>
                  {a.isActive ? <Badge color="green" variant="light">Active</Badge> : <Text fz="sm" c="dimmed">Inactive</Text>}
                </Table.Td>
              </Table.Tr>
            ))}
          </RecordTable>
          <Pager
            page={filters.page}
            pageSize={filters.pageSize}
            total={accounts.data?.total ?? 0}
            onPage={(page) => setFilters({ ...filters, page })}
            onPageSize={(pageSize) => set({ pageSize })}
            noun="accounts"
          />
        </QueryState>
      </Stack>
    </AdminPageFrame>
  );
}
