/**
 * Label downloads (docs/labels.md): where each label's PDF or ZPL is, and fetching one. The bench's
 * printer settings (which paper, the first free label of a part-used sheet) are kept per browser:
 * a bench has one printer.
 */
import { LABELS_PER_SHEET, LabelLayout, type SampleLabelKind } from '@platform/domain';
import { apiDownload, saveFile } from './fetcher';
import { clinicApiPath } from './clinic';
import { labApiPath } from './lab';

/** What a download asks for: a PDF on a sheet (from a start position) or thermal labels, or ZPL. */
export type LabelOutput = { format: 'pdf'; layout: LabelLayout; start?: number } | { format: 'zpl' };
/** The paper choice a user makes: a sheet of 30, thermal 2 × 1 in labels, or a Zebra printer's ZPL. */
export type LabelPaper = 'sheet' | 'thermal' | 'zpl';

export function labelOutput(paper: LabelPaper, start: number): LabelOutput {
  if (paper === 'zpl') return { format: 'zpl' };
  return paper === LabelLayout.Sheet ? { format: 'pdf', layout: LabelLayout.Sheet, start } : { format: 'pdf', layout: LabelLayout.Thermal };
}

const withOutput = (base: string, output: LabelOutput, params: URLSearchParams = new URLSearchParams()) => {
  if (output.format === 'pdf') {
    params.set('layout', output.layout);
    if (output.start !== undefined) params.set('start', String(output.start));
  }
  const query = params.toString();
  return `${base}/${output.format}${query ? `?${query}` : ''}`;
};

/** Kit and sample labels by kit barcode, in this order (kind omitted: each as it stands). */
export function sampleLabelsPath(barcodes: string[], output: LabelOutput, kind?: SampleLabelKind): string {
  const params = new URLSearchParams(barcodes.map((b) => ['barcodes', b]));
  if (kind) params.set('kind', kind);
  return withOutput(labApiPath('labels/samples'), output, params);
}
export const storagePlateLabelPath = (plateId: number, output: LabelOutput) => withOutput(labApiPath(`storage/plates/${plateId}/label`), output);
export const pcrPlateLabelPath = (plateId: number, output: LabelOutput) => withOutput(labApiPath(`pcr/plates/${plateId}/label`), output);
export const shipmentLabelPath = (accountId: number, shipmentId: number, output: LabelOutput) =>
  withOutput(clinicApiPath(accountId, `shipments/${shipmentId}/label`), output);

/** Downloads the labels and hands them to the browser (a PDF to print, or a .zpl to send to the printer). */
export async function downloadLabels(path: string, fallbackName: string): Promise<void> {
  const { blob, fileName } = await apiDownload(path, { fallbackName });
  saveFile(blob, fileName);
}

/** The sheet position after printing `count` labels from `start` (1-30, wrapping onto a new sheet). */
export const nextSheetStart = (start: number, count: number) => ((start - 1 + count) % LABELS_PER_SHEET) + 1;

const SETTINGS_KEY = 'labelPrinter';
export interface LabelPrinterSettings { paper: LabelPaper; start: number }
export const DEFAULT_LABEL_PRINTER: LabelPrinterSettings = { paper: 'sheet', start: 1 };

export function readLabelPrinter(): LabelPrinterSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? 'null') as Partial<LabelPrinterSettings> | null;
    const paper = saved?.paper && ['sheet', 'thermal', 'zpl'].includes(saved.paper) ? saved.paper : DEFAULT_LABEL_PRINTER.paper;
    const start = Number.isInteger(saved?.start) && saved!.start! >= 1 && saved!.start! <= LABELS_PER_SHEET ? saved!.start! : 1;
    return { paper, start };
  } catch {
    return DEFAULT_LABEL_PRINTER;
  }
}
export function saveLabelPrinter(settings: LabelPrinterSettings): void {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Private mode: the settings last as long as the page.
  }
}
