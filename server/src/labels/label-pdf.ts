/**
 * Labels as a PDF (pdfkit), for the two papers the lab uses: a sheet of 30 (Avery 5160: 3 × 10
 * labels of 2.625 × 1 in on letter paper, filled from a chosen position so a part-used sheet is
 * fed again) and a 2 × 1 in thermal label (one label per page: the printer's driver feeds one label
 * per page). Each label: the barcode across the top (Code 128), the code in plain digits under it,
 * then the label's lines. A code too long for Code 128 at a readable bar width is printed as a
 * DataMatrix square on the left with the lines beside it. pdfkit is loaded on first use.
 */
import type PDFDocument from 'pdfkit';
import { LABEL_SHEET, LabelLayout, sheetPosition, THERMAL_LABEL, type LabelContent } from '@platform/domain';
import { drawCode128, drawDataMatrix, encodeBarcode, type EncodedBarcode } from './barcode';

type Pdf = InstanceType<typeof PDFDocument>;

const PT = 72;
/** The narrowest bar drawn, in points (≈ 0.01 in: what a 203 dpi printer and any scanner resolve). */
const MIN_MODULE = 0.72;
const PAD = 6;

let pdfkit: Promise<typeof PDFDocument> | null = null;
const loadPdfkit = () => (pdfkit ??= import('pdfkit').then((m) => m.default));

/** Code 128 when it fits the label at MIN_MODULE, otherwise DataMatrix. */
async function barcodeFor(label: LabelContent, width: number): Promise<EncodedBarcode> {
  const code = await encodeBarcode(label.symbology, label.code);
  if (code.symbology === 'code128' && (code.modules + 20) * MIN_MODULE > width - 2 * PAD) return encodeBarcode('datamatrix', label.code);
  return code;
}

function drawLabel(doc: Pdf, label: LabelContent, code: EncodedBarcode, x: number, y: number, width: number, height: number): void {
  const textLines = (left: number, top: number, textWidth: number, size: number) => {
    label.lines.forEach((line, i) => {
      doc.font(i === 0 ? 'Helvetica-Bold' : 'Helvetica').fontSize(size).fillColor('#000000')
        .text(line, left, top + i * (size + 1.5), { width: textWidth, height: size + 1, lineBreak: false, ellipsis: true });
    });
  };
  if (code.symbology === 'code128') {
    const barHeight = height * 0.38;
    drawCode128(doc, code, { x: x + PAD, y: y + 4, width: width - 2 * PAD, height: barHeight }, MIN_MODULE);
    doc.font('Helvetica-Bold').fontSize(7.5).fillColor('#000000')
      .text(code.text, x + PAD, y + 6 + barHeight, { width: width - 2 * PAD, align: 'center', height: 9, lineBreak: false, ellipsis: true });
    textLines(x + PAD, y + 16 + barHeight, width - 2 * PAD, 6.5);
  } else {
    const size = height - 8;
    drawDataMatrix(doc, code, x + PAD - 2, y + 4, size);
    const left = x + PAD + size + 2;
    const textWidth = width - (left - x) - PAD;
    doc.font('Helvetica-Bold').fontSize(7).fillColor('#000000').text(code.text, left, y + 8, { width: textWidth, height: 8, lineBreak: false, ellipsis: true });
    textLines(left, y + 20, textWidth, 6.5);
  }
}

async function toBuffer(doc: Pdf, draw: () => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  await draw();
  doc.end();
  return done;
}

/** The labels as a PDF on `layout`'s paper; on a sheet, the first label at position `start` (1-30). */
export async function renderLabelsPdf(labels: LabelContent[], layout: LabelLayout, start = 1, title = 'Labels'): Promise<Buffer> {
  const Pdf = await loadPdfkit();
  if (layout === LabelLayout.Thermal) {
    const width = THERMAL_LABEL.width * PT;
    const height = THERMAL_LABEL.height * PT;
    const doc = new Pdf({ size: [width, height], margin: 0, autoFirstPage: false, info: { Title: title } });
    return toBuffer(doc, async () => {
      for (const label of labels) {
        doc.addPage({ size: [width, height], margin: 0 });
        drawLabel(doc, label, await barcodeFor(label, width), 0, 0, width, height);
      }
    });
  }
  const s = LABEL_SHEET;
  const width = s.labelWidth * PT;
  const height = s.labelHeight * PT;
  const doc = new Pdf({ size: [s.pageWidth * PT, s.pageHeight * PT], margin: 0, autoFirstPage: false, info: { Title: title } });
  return toBuffer(doc, async () => {
    let page = -1;
    for (const [n, label] of labels.entries()) {
      const at = sheetPosition(start, n);
      while (page < at.page) {
        doc.addPage({ size: [s.pageWidth * PT, s.pageHeight * PT], margin: 0 });
        page++;
      }
      const x = (s.leftMargin + at.column * s.columnPitch) * PT;
      const y = (s.topMargin + at.row * s.rowPitch) * PT;
      drawLabel(doc, label, await barcodeFor(label, width), x, y, width, height);
    }
  });
}
