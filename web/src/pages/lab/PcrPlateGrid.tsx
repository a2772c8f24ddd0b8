import { Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { classifyPcrWellLabel, PCR_PLATE_COLUMNS, PCR_PLATE_ROWS } from '@platform/domain';

const KIND_COLORS = { positive: 'var(--mantine-color-red-1)', negative: 'var(--mantine-color-blue-1)', null: 'var(--mantine-color-gray-2)', sample: 'var(--mantine-color-green-0)' } as const;

export function wellKind(label: string): keyof typeof KIND_COLORS {
  const what = classifyPcrWellLabel(label);
  return what.kind === 'control' ? what.control : 'sample';
}

/** The 96 wells (A-H by 1-12): what each holds, the selected well outlined; a click selects a well. */
export function PcrPlateGrid({ wells, selected, onSelect, results }: {
  wells: Record<string, string>;
  selected?: string | null;
  onSelect?: (well: string) => void;
  results?: Record<string, string | null>;
}) {
  const columns = Array.from({ length: PCR_PLATE_COLUMNS }, (_, i) => i + 1);
  return (
    <Table withTableBorder withColumnBorders aria-label="Plate layout" style={{ tableLayout: 'fixed', minWidth: 760 }}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={32} />
          {columns.map((c) => (
            <Table.Th key={c} ta="center" fz="xs">{c}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {PCR_PLATE_ROWS.map((row) => (
          <Table.Tr key={row}>
            <Table.Th fz="xs">{row}</Table.Th>
            {columns.map((c) => {
              const well = `${row}${c}`;
              const label = wells[well];
              const result = results?.[well];
              const content = (
                <Text fz={10} lh={1.2} ta="center" style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {label ? label : <span style={{ color: 'var(--mantine-color-dimmed)' }}>{well}</span>}
                  {result && <><br /><b>{result}</b></>}
                </Text>
              );
              return (
                <Table.Td
                  key={well}
                  p={2}
                  style={{
                    background: label ? KIND_COLORS[wellKind(label)] : undefined,
                    outline: selected === well ? '2px solid var(--mantine-color-blue-6)' : undefined,
                    outlineOffset: -2,
                  }}
                >
                  <Tooltip label={label ? `${well}: ${label}` : `${well}: empty`} withinPortal>
                    {onSelect ? (
                      <UnstyledButton onClick={() => onSelect(well)} w="100%" aria-label={label ? `Well ${well}: ${label}` : `Well ${well}, empty`} aria-pressed={selected === well}>
                        {content}
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
