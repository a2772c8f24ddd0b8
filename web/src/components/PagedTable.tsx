/**
 * A list the API pages (and sorts) as a table: loading, could not be loaded, nothing in it, or the
 * table (RecordTable, sortable columns given `sort`) above the one Pager. usePaging holds where the
 * list is: its page, page size and sort; a new page size or sort starts again at page 1.
 */
import { useState, type ReactNode } from 'react';
import { Alert, Card, Center, Loader, Stack, Text } from '@mantine/core';
import { DEFAULT_PAGE_SIZE } from '@platform/domain';
import type { Page } from '../api/fetcher';
import { Pager } from './Pager';
import { RecordTable, type SortColumn } from './RecordTable';
import type { SortState } from './SortHeader';

export interface Paging {
  page: number;
  pageSize: number;
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
}

export interface SortedPaging<F extends string> extends Paging {
  sort: SortState<F>;
  setSort: (next: SortState<F>) => void;
}

export function usePaging(): Paging;
export function usePaging<F extends string>(defaultSort: SortState<F>): SortedPaging<F>;
export function usePaging<F extends string>(defaultSort?: SortState<F>): Paging | SortedPaging<F> {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [sort, setSort] = useState(defaultSort);
  const paging: Paging = {
    page,
    pageSize,
    setPage,
    setPageSize: (size) => {
      setPageSize(size);
      setPage(1);
    },
  };
  if (!sort) return paging;
  return {
    ...paging,
    sort,
    setSort: (next) => {
      setSort(next);
      setPage(1);
    },
  };
}

export function PagedTable<Row, F extends string = string>({
  list: { data, error, isLoading, isValidating }, paging, label, loadingLabel, errorTitle, emptyText, noun, minWidth, columns, children,
}: {
  /** The page as read (SWR's answer). */
  list: { data?: Page<Row>; error?: Error; isLoading: boolean; isValidating?: boolean };
  paging: Paging | SortedPaging<F>;
  /** The table's accessible name. */
  label: string;
  /** The accessible name of the loader while the first page loads. */
  loadingLabel: string;
  errorTitle: string;
  emptyText: string;
  /** What the pager counts ("orders"). */
  noun: string;
  /** Below this width (px) the table scrolls sideways. */
  minWidth: number;
  columns: (ReactNode | SortColumn<F>)[];
  /** A row's Table.Tr. */
  children: (row: Row) => ReactNode;
}) {
  if (isLoading && !data) {
    return (
      <Center py="lg" role="status" aria-label={loadingLabel}>
        <Loader />
      </Center>
    );
  }
  if (error && !data) {
    return (
      <Alert color="red" variant="light" title={errorTitle}>
        {error.message}
      </Alert>
    );
  }
  if (!data || data.total === 0) {
    return (
      <Card withBorder padding="lg">
        <Text c="dimmed">{emptyText}</Text>
      </Card>
    );
  }
  const sort = 'sort' in paging ? { state: paging.sort, onChange: paging.setSort } : undefined;
  return (
    <Stack gap="sm">
      <RecordTable minWidth={minWidth} striped label={label} aria-busy={isValidating} columns={columns} sort={sort}>
        {data.rows.map(children)}
      </RecordTable>
      <Pager page={paging.page} pageSize={paging.pageSize} total={data.total} noun={noun} onPage={paging.setPage} onPageSize={paging.setPageSize} />
    </Stack>
  );
}
