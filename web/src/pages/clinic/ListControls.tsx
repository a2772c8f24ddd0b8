/** Table helpers of the clinic lists: sortable column headers and the pager (page, page size, count). */
import type { ReactNode } from 'react';
import { Group, Pagination, Select, Table, Text, UnstyledButton } from '@mantine/core';
import { DEFAULT_PAGE_SIZE } from '@platform/domain';

export const PAGE_SIZES = [DEFAULT_PAGE_SIZE, 25, 50, 100].map(String);

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

/** "11–20 of 42", the page buttons and the page size. */
export function Pager({ page, pageSize, total, onPage, onPageSize, noun = 'samples' }: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
  noun?: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Text fz="sm" c="dimmed" aria-live="polite">
        {total === 0 ? `No ${noun}` : `${first}–${last} of ${total} ${noun}`}
      </Text>
      <Group gap="sm" wrap="wrap">
        <Pagination total={pages} value={Math.min(page, pages)} onChange={onPage} size="sm" siblings={1} boundaries={1} getControlProps={(control) => ({ 'aria-label': `${control} page` })} />
        <Select
          aria-label="Rows per page"
          data={PAGE_SIZES}
          value={String(pageSize)}
          onChange={(v) => v && onPageSize(Number(v))}
          w={80}
          size="xs"
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
    </Group>
  );
}
