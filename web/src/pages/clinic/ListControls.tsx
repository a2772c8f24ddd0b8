/** Table helpers of the clinic lists: sortable column headers, the physician filter (the pager is components/Pager.tsx). */
import type { ReactNode } from 'react';
import { Select, Table, UnstyledButton } from '@mantine/core';
import { useAccountPhysicians } from '../../api/clinic';

export interface SortState<F extends string> {
  sort: F;
  order: 'asc' | 'desc';
}

/** A column header that sorts the list by its field; says which way it sorts (aria-sort). */
export function SortHeader<F extends string>({ field, state, onChange, children }: {
  field: F;
  state: SortState<F>;
  onChange: (next: SortState<F>) => void;
  children: ReactNode;
}) {
  const active = state.sort === field;
  const next: SortState<F> = { sort: field, order: active && state.order === 'asc' ? 'desc' : 'asc' };
  return (
    <Table.Th aria-sort={active ? (state.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onChange(next)} fw={600} fz="sm" style={{ whiteSpace: 'nowrap' }}>
        {children} <span aria-hidden="true">{active ? (state.order === 'asc' ? '▲' : '▼') : '↕'}</span>
      </UnstyledButton>
    </Table.Th>
  );
}

const ALL_PHYSICIANS = 'all';

/** Tests by physician (SPEC §7): which ordering physician's tests a list shows, or all of the account's. */
export function PhysicianFilter({ accountId, value, onChange }: { accountId: number; value: number | null; onChange: (physicianId: number | null) => void }) {
  const { data } = useAccountPhysicians(accountId);
  return (
    <Select
      label="Ordering physician"
      value={value === null ? ALL_PHYSICIANS : String(value)}
      onChange={(v) => onChange(!v || v === ALL_PHYSICIANS ? null : Number(v))}
      data={[{ value: ALL_PHYSICIANS, label: 'All physicians' }, ...(data ?? []).map((p) => ({ value: String(p.id), label: p.name }))]}
      allowDeselect={false}
      w={{ base: '100%', xs: 280 }}
    />
  );
}
