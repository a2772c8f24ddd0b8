/**
 * The admin's settings kept per test (patient release, turnaround targets): one table, a row per
 * test edited in place and saved on its own, and the row's refusal when no field takes it.
 */
import type { ReactNode } from 'react';
import { Card, Table, VisuallyHidden } from '@mantine/core';
import { FormError } from '../../components/FormError';
import { commandError } from '../../forms/server-errors';

/** The table: a header per column, then a last unnamed column for each row's Save. */
export function PerTestSettingsTable({ label, headers, minWidth, children }: { label: string; headers: readonly string[]; minWidth: number; children: ReactNode }) {
  return (
    <Card withBorder padding={0}>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing="sm" aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {headers.map((h) => (
                <Table.Th key={h}>{h}</Table.Th>
              ))}
              <Table.Th>
                <VisuallyHidden>Save</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** Under a row, the save's refusal that names no field of it (the row's fields show their own). */
export function RowRefusal({ colSpan, title, error, shown, onClose }: { colSpan: number; title: string; error: unknown; shown: boolean; onClose: () => void }) {
  if (!shown || error === undefined) return null;
  return (
    <Table.Tr>
      <Table.Td colSpan={colSpan}>
        <FormError title={title} error={error} message={commandError(error)} onClose={onClose} />
      </Table.Td>
    </Table.Tr>
  );
}
