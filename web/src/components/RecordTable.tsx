/**
 * A list of records as a table: named for screen readers, scrolling sideways on a narrow screen
 * rather than squeezing its columns, in a bordered card unless `bare`. Columns are header texts;
 * `withActions` adds a last header a screen reader reads as "Actions" (the buttons of each row).
 */
import type { ReactNode } from 'react';
import { Card, Table, VisuallyHidden, type TableProps } from '@mantine/core';

export interface RecordTableProps extends Omit<TableProps, 'children'> {
  /** The table's accessible name. */
  label?: string;
  columns: ReactNode[];
  withActions?: boolean;
  /** Below this width (px) the table scrolls sideways. */
  minWidth: number;
  /** Without the card (a table inside a modal or a card of its own). */
  bare?: boolean;
  /** The rows (Table.Tr elements). */
  children: ReactNode;
}

export function RecordTable({ label, columns, withActions = false, minWidth, bare = false, children, ...tableProps }: RecordTableProps) {
  const table = (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table verticalSpacing="sm" aria-label={label} {...tableProps}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) => (
              <Table.Th key={i}>{column}</Table.Th>
            ))}
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
