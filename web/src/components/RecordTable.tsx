/**
 * A list of records as a table: named for screen readers, scrolling sideways on a narrow screen
 * rather than squeezing its columns, in a bordered card unless `bare`. Columns are header texts,
 * or (given `sort`) columns that sort the list (SortHeader); `withActions` adds a last header a
 * screen reader reads as "Actions" (the buttons of each row).
 */
import type { ReactNode } from 'react';
import { Card, Table, VisuallyHidden, type TableProps } from '@mantine/core';
import { SortHeader, type SortState } from './SortHeader';

/** A column whose header sorts the list by `sortBy`. */
export interface SortColumn<F extends string> {
  label: ReactNode;
  sortBy: F;
}

export interface RecordTableProps<F extends string = string> extends Omit<TableProps, 'children'> {
  /** The table's accessible name. */
  label?: string;
  columns: (ReactNode | SortColumn<F>)[];
  /** The list's sort, which the sort columns show and change. */
  sort?: { state: SortState<F>; onChange: (next: SortState<F>) => void };
  withActions?: boolean;
  /** Below this width (px) the table scrolls sideways. */
  minWidth: number;
  /** Without the card (a table inside a modal or a card of its own). */
  bare?: boolean;
  /** The rows (Table.Tr elements). */
  children: ReactNode;
}

const isSortColumn = <F extends string>(column: ReactNode | SortColumn<F>): column is SortColumn<F> =>
  typeof column === 'object' && column !== null && 'sortBy' in column;

export function RecordTable<F extends string = string>({ label, columns, sort, withActions = false, minWidth, bare = false, children, ...tableProps }: RecordTableProps<F>) {
  const table = (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table verticalSpacing="sm" aria-label={label} {...tableProps}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) =>
              !isSortColumn(column) ? (
                <Table.Th key={i}>{column}</Table.Th>
              ) : sort ? (
                <SortHeader key={i} field={column.sortBy} state={sort.state} onChange={sort.onChange}>
                  {column.label}
                </SortHeader>
              ) : (
                <Table.Th key={i}>{column.label}</Table.Th>
              ),
            )}
            {withActions && (
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
  return bare ? table : <Card withBorder padding={0}>{table}</Card>;
}
