import { Group, Text, VisuallyHidden } from '@mantine/core';
import { classifyPcrWellLabel, PLATE_TEST_SHORT_NAMES, plateTestShortName } from '@platform/domain';
import { PlateGrid } from './PlateGrid';

const KIND_COLORS = { positive: 'var(--mantine-color-red-1)', negative: 'var(--mantine-color-blue-1)', null: 'var(--mantine-color-gray-2)', sample: 'var(--mantine-color-green-0)' } as const;

export function wellKind(label: string): keyof typeof KIND_COLORS {
  const what = classifyPcrWellLabel(label);
  return what.kind === 'control' ? what.control : 'sample';
}

/** A well's test where room is short: its short name shown, its full name read out. */
function TestMark({ test }: { test: string }) {
  return <><span aria-hidden>{plateTestShortName(test)}</span><VisuallyHidden component="span">{test}</VisuallyHidden></>;
}

/** What the short test names of the grid stand for (shown under a grid that shows tests). */
export function PlateTestLegend() {
  return (
    <Group gap="md" fz="xs" c="dimmed" aria-label="Test names on the plate" role="group">
      {Object.entries(PLATE_TEST_SHORT_NAMES).map(([test, short]) => (
        <Text key={test} fz="xs" c="dimmed"><b>{short}</b>: {test}</Text>
      ))}
    </Group>
  );
}

/**
 * The 96 wells (A-H by 1-12) of a PCR plate: what each holds (and, given `tests`, which test its
 * sample is for, by short name: render PlateTestLegend beside it), the selected well outlined; a
 * click selects a well.
 */
export function PcrPlateGrid({ wells, selected, onSelect, results, tests }: {
  wells: Record<string, string>;
  selected?: string | null;
  onSelect?: (well: string) => void;
  results?: Record<string, string | null>;
  tests?: Record<string, string | null>;
}) {
  return (
    <PlateGrid
      label="Plate layout"
      selected={selected}
      onSelect={onSelect}
      cell={(well) => {
        const label = wells[well];
        const result = results?.[well];
        const test = tests?.[well];
        const about = [label, test, result].filter(Boolean).join(', ');
        return {
          // The space before each line break keeps the words apart when the cell is read out.
          content: label ? <>{label}{test && <>{' '}<br /><TestMark test={test} /></>}{result && <>{' '}<br /><b>{result}</b></>}</> : undefined,
          background: label ? KIND_COLORS[wellKind(label)] : undefined,
          tooltip: label ? `${well}: ${about}` : `${well}: empty`,
          ariaLabel: label ? `Well ${well}: ${about}` : `Well ${well}, empty`,
        };
      }}
    />
  );
}
