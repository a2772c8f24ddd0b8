/**
 * "Print label" for one thing (a plate, a shipment): a menu of the three papers, the sheet's item
 * naming the label it prints on (the bench's first free label, moved on after). The paper chosen
 * is remembered for the next print, like intake's.
 */
import { Button, Menu, Stack } from '@mantine/core';
import type { LabelOutput, LabelPaper } from '../../api/labels';
import { LabelPrintError, useLabelPrinter } from './LabelPrinter';

export function PrintLabelMenu({ pathFor, fileName, what }: { pathFor: (output: LabelOutput) => string; fileName: string; what: string }) {
  const printer = useLabelPrinter();
  const print = (paper: LabelPaper) => {
    printer.change({ paper });
    // The printer's settings change with the click: print with the paper chosen, not the last one.
    void printer.printWith({ ...printer.settings, paper }, pathFor, 1, fileName);
  };
  return (
    <Stack gap={4} align="flex-start">
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="xs" variant="default" loading={printer.busy} aria-label={`Print label for ${what}`}>Print label</Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => print('sheet')}>Sheet of 30, label {printer.settings.start}</Menu.Item>
          <Menu.Item onClick={() => print('thermal')}>Thermal 2 × 1 in</Menu.Item>
          <Menu.Item onClick={() => print('zpl')}>Zebra (ZPL)</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <LabelPrintError printer={printer} />
    </Stack>
  );
}
