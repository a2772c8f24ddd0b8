import { classifyPcrWellLabel } from '@platform/domain';
import { PlateGrid } from './PlateGrid';

const KIND_COLORS = { positive: 'var(--mantine-color-red-1)', negative: 'var(--mantine-color-blue-1)', null: 'var(--mantine-color-gray-2)', sample: 'var(--mantine-color-green-0)' } as const;

export function wellKind(label: string): keyof typeof KIND_COLORS {
  const what = classifyPcrWellLabel(label);
  return what.kind === 'control' ? what.control : 'sample';
}

/** The 96 wells (A-H by 1-12) of a PCR plate: what each holds, the selected well outlined; a click selects a well. */
export function PcrPlateGrid({ wells, selected, onSelect, results }: {
  wells: Record<string, string>;
  selected?: string | null;
  onSelect?: (well: string) => void;
  results?: Record<string, string | null>;
}) {
  return (
    <PlateGrid
      label="Plate layout"
      selected={selected}
      onSelect={onSelect}
      cell={(well) => {
        const label = wells[well];
        const result = results?.[well];
        return {
          content: label ? <>{label}{result && <><br /><b>{result}</b></>}</> : undefined,
          background: label ? KIND_COLORS[wellKind(label)] : undefined,
          tooltip: label ? `${well}: ${label}` : `${well}: empty`,
          ariaLabel: label ? `Well ${well}: ${label}` : `Well ${well}, empty`,
        };
      }}
    />
  );
}
