/** A sortable list's column header, and the sort it stands for (the pager is Pager.tsx). */
import type { ReactNode } from 'react';
import { Table, UnstyledButton } from '@mantine/core';

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
