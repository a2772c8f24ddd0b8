/**
 * Choosing accounts by name: the list comes from GET admin/accounts?q= as the admin types (the
 * server searches; nothing is filtered again here). The chosen accounts keep their names even when
 * the current search no longer returns them.
 */
import { useState } from 'react';
import { MultiSelect, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useAdminAccounts } from '../../api/admin';

export interface AccountOption {
  id: number;
  name: string;
}

const OPTIONS_SHOWN = 20;
const keepAll = ({ options }: { options: unknown[] }) => options as never;

function useAccountOptions(search: string, chosen: readonly AccountOption[], exclude: readonly number[] = []) {
  const [q] = useDebouncedValue(search.trim(), 250);
  const { data, isLoading } = useAdminAccounts({ q, page: 1, pageSize: OPTIONS_SHOWN });
  const byId = new Map<number, AccountOption>();
  for (const a of chosen) byId.set(a.id, a);
  for (const a of data?.rows ?? []) if (!exclude.includes(a.id)) byId.set(a.id, { id: a.id, name: a.name });
  return { options: [...byId.values()], loading: isLoading, byId };
}

/** One account. `label` names it for screen readers and people alike. */
export function AccountSelect({ label, value, onChange, error, exclude, required, description, placeholder = 'Type to find an account', clearable = true, w }: {
  label: string;
  value: AccountOption | null;
  onChange: (account: AccountOption | null) => void;
  error?: React.ReactNode;
  /** Accounts not to offer (already chosen elsewhere). */
  exclude?: readonly number[];
  required?: boolean;
  description?: React.ReactNode;
  placeholder?: string;
  clearable?: boolean;
  w?: number | string;
}) {
  const [search, setSearch] = useState(value?.name ?? '');
  const { options, byId } = useAccountOptions(search === value?.name ? '' : search, value ? [value] : [], exclude);
  return (
    <Select
      label={label}
      description={description}
      placeholder={placeholder}
      data={options.map((a) => ({ value: String(a.id), label: a.name }))}
      value={value ? String(value.id) : null}
      onChange={(v) => onChange(v ? (byId.get(Number(v)) ?? null) : null)}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={keepAll}
      nothingFoundMessage="No account matches"
      clearable={clearable}
      required={required}
      error={error}
      w={w}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** Several accounts (an audience, say). */
export function AccountMultiSelect({ label, value, onChange, description, placeholder = 'Type to find accounts' }: {
  label: string;
  value: AccountOption[];
  onChange: (accounts: AccountOption[]) => void;
  description?: React.ReactNode;
  placeholder?: string;
}) {
  const [search, setSearch] = useState('');
  const { options, byId } = useAccountOptions(search, value);
  return (
    <MultiSelect
      label={label}
      description={description}
      placeholder={value.length ? undefined : placeholder}
      data={options.map((a) => ({ value: String(a.id), label: a.name }))}
      value={value.map((a) => String(a.id))}
      onChange={(ids) => onChange(ids.map((id) => byId.get(Number(id))).filter((a): a is AccountOption => Boolean(a)))}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={keepAll}
      nothingFoundMessage="No account matches"
      clearable
      comboboxProps={{ withinPortal: true }}
    />
  );
}
