/**
 * Printing labels from any page (intake, plates, shipments): the bench's printer settings (the paper:
 * a sheet of 30, a 2 × 1 in thermal roll, or a Zebra printer's ZPL; on a sheet, its first free
 * label) and the print action. Printing on a sheet moves the first free label on past the labels
 * just printed, so the same part-used sheet goes back in the printer next time.
 */
import { useCallback, useState } from 'react';
import { Group, NumberInput, SegmentedControl, Text } from '@mantine/core';
import { LABELS_PER_SHEET } from '@platform/domain';
import {
  downloadLabels, labelOutput, nextSheetStart, readLabelPrinter, saveLabelPrinter, type LabelOutput, type LabelPaper, type LabelPrinterSettings,
} from '../../api/labels';
import { commandError } from '../../forms/server-errors';

export interface LabelPrinter {
  settings: LabelPrinterSettings;
  change(patch: Partial<LabelPrinterSettings>): void;
  /** Downloads the labels `pathFor` names, `count` of them; answers false (and keeps the error) when it failed. */
  print(pathFor: (output: LabelOutput) => string, count: number, fallbackName: string): Promise<boolean>;
  /** The same, on the paper of `settings` (a choice made with the click, before the state has it). */
  printWith(settings: LabelPrinterSettings, pathFor: (output: LabelOutput) => string, count: number, fallbackName: string): Promise<boolean>;
  busy: boolean;
  error: string | null;
}

export function useLabelPrinter(): LabelPrinter {
  const [settings, setSettings] = useState<LabelPrinterSettings>(readLabelPrinter);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const change = useCallback((patch: Partial<LabelPrinterSettings>) => {
    setSettings((current) => {
      const next = { ...current, ...patch };
      saveLabelPrinter(next);
      return next;
    });
  }, []);
  const printWith = useCallback(async (settings: LabelPrinterSettings, pathFor: (output: LabelOutput) => string, count: number, fallbackName: string) => {
    setBusy(true);
    setError(null);
    try {
      const output = labelOutput(settings.paper, settings.start);
      await downloadLabels(pathFor(output), `${fallbackName}.${output.format}`);
      if (settings.paper === 'sheet') change({ start: nextSheetStart(settings.start, count) });
      return true;
    } catch (e) {
      setError(`The labels could not be printed: ${commandError(e)}`);
      return false;
    } finally {
      setBusy(false);
    }
  }, [change]);
  const print = useCallback(
    (pathFor: (output: LabelOutput) => string, count: number, fallbackName: string) => printWith(settings, pathFor, count, fallbackName),
    [settings, printWith],
  );
  return { settings, change, print, printWith, busy, error };
}

const PAPERS: { value: LabelPaper; label: string }[] = [
  { value: 'sheet', label: 'Sheet of 30' },
  { value: 'thermal', label: 'Thermal 2 × 1 in' },
  { value: 'zpl', label: 'Zebra (ZPL)' },
];

/** The paper and, on a sheet, the first free label (1-30, left to right, top to bottom). */
export function LabelPrinterFields({ printer }: { printer: LabelPrinter }) {
  const { settings, change } = printer;
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <div>
        <Text component="span" id="label-paper" fz="sm" fw={500} display="block" mb={4}>Label paper</Text>
        <SegmentedControl
          aria-labelledby="label-paper"
          size="xs"
          value={settings.paper}
          onChange={(v) => change({ paper: v as LabelPaper })}
          data={PAPERS}
        />
      </div>
      {settings.paper === 'sheet' && (
        <NumberInput
          label="First free label on the sheet"
          description={`1-${LABELS_PER_SHEET}, left to right, top to bottom`}
          size="xs"
          w={210}
          min={1}
          max={LABELS_PER_SHEET}
          allowDecimal={false}
          clampBehavior="strict"
          value={settings.start}
          onChange={(v) => {
            const n = Number(v);
            if (Number.isInteger(n) && n >= 1 && n <= LABELS_PER_SHEET) change({ start: n });
          }}
        />
      )}
    </Group>
  );
}

/** What went wrong with the last print, read out when it appears. */
export function LabelPrintError({ printer }: { printer: LabelPrinter }) {
  return printer.error ? <Text role="alert" fz="sm" c="red.9">{printer.error}</Text> : null;
}
