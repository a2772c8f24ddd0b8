import type { ReactNode } from 'react';
import { Table, Text, Tooltip, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { PCR_PLATE_COLUMNS, PCR_PLATE_ROWS } from '@platform/domain';

/** What one well shows: its text, its colours, the words on hover and for screen readers. */
export interface PlateCell {
  content?: ReactNode;
  background?: string;
  color?: string;
  tooltip: string;
  ariaLabel: string;
}

const COLUMNS = Array.from({ length: PCR_PLATE_COLUMNS }, (_, i) => i + 1);

/**
 * A 96-well plate (rows A-H, columns 1-12) of any kind: `cell` says what each well shows; the
 * selected well is outlined; with `onSelect` each well is a button (a click or Enter selects it).
 */
export function PlateGrid({ cell, selected, onSelect, label, minWidth = 640 }: {
  cell: (well: string) => PlateCell;
  selected?: string | null;
  onSelect?: (well: string) => void;
  label: string;
  minWidth?: number;
}) {
  return (
    <Table withTableBorder withColumnBorders aria-label={label} style={{ tableLayout: 'fixed', minWidth }}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={32} />
          {COLUMNS.map((c) => (
            <Table.Th key={c} ta="center" fz="xs">{c}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {PCR_PLATE_ROWS.map((row) => (
          <Table.Tr key={row}>
            <Table.Th fz="xs">{row}</Table.Th>
            {COLUMNS.map((c) => {
              const well = `${row}${c}`;
              const shown = cell(well);
              const content = (
                // A 14-digit barcode is wider than a well on a laptop: it wraps inside the well, never cut off.
                <Text fz={10} lh={1.2} ta="center" c={shown.color} style={{ overflowWrap: 'anywhere' }}>
                  {shown.content ?? <span style={{ color: 'var(--mantine-color-dimmed)' }}>{well}</span>}
                </Text>
              );
              return (
                <Table.Td
                  key={well}
                  p={2}
                  data-well={well}
                  style={{ background: shown.background, outline: selected === well ? '2px solid var(--mantine-color-blue-6)' : undefined, outlineOffset: -2 }}
                >
                  <Tooltip label={shown.tooltip} withinPortal>
                    {onSelect ? (
                      // Named by its words (not aria-label): the short text shown need not appear in the name.
                      <UnstyledButton onClick={() => onSelect(well)} w="100%" aria-pressed={selected === well}>
                        <span aria-hidden>{content}</span>
                        <VisuallyHidden>{shown.ariaLabel}</VisuallyHidden>
                      </UnstyledButton>
                    ) : (
                      <div>{content}</div>
                    )}
                  </Tooltip>
                </Table.Td>
              );
            })}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
