/**
 * Barcodes drawn as vector bars into a pdfkit document (bwip-js encodes, we draw): sharp at any
 * printer's resolution, and the one place the lab's PDFs get a barcode from (labels here, the
 * requisition form in the worker). bwip-js is loaded on first use: a process that never draws a
 * barcode never loads it.
 */
import type PDFDocument from 'pdfkit';
import type { Symbology } from '@platform/domain';

type Pdf = InstanceType<typeof PDFDocument>;

/** An encoded barcode: Code 128's bar/space widths in modules (bar first), or DataMatrix's grid of dark cells. */
export type EncodedBarcode =
  | { symbology: 'code128'; text: string; widths: number[]; modules: number }
  | { symbology: 'datamatrix'; text: string; cells: boolean[]; columns: number; rows: number };

type Bwip = typeof import('bwip-js/node');
let bwip: Promise<Bwip> | null = null;
// The module's default export is the API its types describe (its named `raw` is a symbology of that name).
const loadBwip = () => (bwip ??= import('bwip-js/node').then((m) => (m as unknown as { default: Bwip }).default));

/** Code 128 wants 10 modules of white either side; DataMatrix one. */
export const QUIET_MODULES: Record<Symbology, number> = { code128: 10, datamatrix: 1 };

export async function encodeBarcode(symbology: Symbology, text: string): Promise<EncodedBarcode> {
  const b = await loadBwip();
  const [raw] = b.raw(symbology, text, {});
  if ('sbs' in raw) {
    return { symbology: 'code128', text, widths: raw.sbs, modules: raw.sbs.reduce((a: number, w: number) => a + w, 0) };
  }
  return { symbology: 'datamatrix', text, cells: raw.pixs.map((p: number) => p === 1), columns: raw.pixx, rows: raw.pixy };
}

/** How wide the barcode is in modules, quiet zones included. */
export function modulesWide(code: EncodedBarcode): number {
  return (code.symbology === 'code128' ? code.modules : code.columns) + 2 * QUIET_MODULES[code.symbology];
}

/**
 * Draws a Code 128 barcode in the box (x, y, width × height, in points): bars as wide as the box
 * allows up to `maxModule` points each, centred, quiet zones kept inside the box. Answers the
 * module width used (0 when it does not fit at `minModule`: nothing drawn).
 */
export function drawCode128(doc: Pdf, code: EncodedBarcode & { symbology: 'code128' }, box: { x: number; y: number; width: number; height: number }, minModule = 0.7, maxModule = 2): number {
  const module = Math.min(maxModule, box.width / modulesWide(code));
  if (module < minModule) return 0;
  let x = box.x + (box.width - code.modules * module) / 2;
  code.widths.forEach((w, i) => {
    if (i % 2 === 0) doc.rect(x, box.y, w * module, box.height);
    x += w * module;
  });
  doc.fillColor('#000000').fill();
  return module;
}

/** Draws a DataMatrix symbol as a square of `size` points (quiet zone inside) at (x, y). */
export function drawDataMatrix(doc: Pdf, code: EncodedBarcode & { symbology: 'datamatrix' }, x: number, y: number, size: number): void {
  const module = size / (Math.max(code.columns, code.rows) + 2 * QUIET_MODULES.datamatrix);
  const left = x + QUIET_MODULES.datamatrix * module;
  const top = y + QUIET_MODULES.datamatrix * module;
  for (let r = 0; r < code.rows; r++) {
    for (let c = 0; c < code.columns; c++) {
      if (code.cells[r * code.columns + c]) doc.rect(left + c * module, top + r * module, module, module);
    }
  }
  doc.fillColor('#000000').fill();
}
