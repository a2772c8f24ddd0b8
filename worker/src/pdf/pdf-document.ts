/**
 * The frame every PDF of the lab shares (pdfkit): letter size, the brand and lab heading, a title,
 * label/value rows, and a footer with page numbers. Renders to a Buffer.
 */
import PDFDocument from 'pdfkit';
import type { LabIdentity } from '@platform/server';

export type Pdf = InstanceType<typeof PDFDocument>;

export const PDF_COLORS = { ink: '#1d2a33', muted: '#5b6b75', brand: '#0b6e69', danger: '#b42318', rule: '#d0d7dc' } as const;

export interface PdfFrame {
  brand: string;
  title: string;
  subtitle?: string;
  /** A banner above the title, e.g. "Corrected report". */
  banner?: string;
  /** The performing laboratory, printed under the heading (lab reports). */
  laboratory?: LabIdentity;
}

export function renderPdf(frame: PdfFrame, draw: (doc: Pdf) => void): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'LETTER', margin: 54, bufferPages: true, info: { Title: frame.title, Author: `${frame.brand} Platform` } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  heading(doc, frame);
  if (frame.banner) {
    doc.fillColor(PDF_COLORS.danger).font('Helvetica-Bold').fontSize(12).text(frame.banner.toUpperCase());
    doc.moveDown(0.3);
  }
  doc.fillColor(PDF_COLORS.ink).font('Helvetica-Bold').fontSize(14).text(frame.title);
  if (frame.subtitle) doc.fillColor(PDF_COLORS.muted).font('Helvetica').fontSize(10).text(frame.subtitle);
  rule(doc);

  draw(doc);

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // The footer sits inside the bottom margin: lift the margin while writing it, or pdfkit starts a new page.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.fillColor(PDF_COLORS.muted).font('Helvetica').fontSize(8)
      .text(`${frame.brand} Platform · ${frame.title} · page ${i + 1} of ${range.count}`, 54, doc.page.height - 40, { width: doc.page.width - 108, align: 'center', lineBreak: false });
    doc.page.margins.bottom = margin;
  }
  doc.end();
  return done;
}

/** The brand, and the performing laboratory when there is one: name, address, CLIA number, director. */
function heading(doc: Pdf, frame: PdfFrame): void {
  doc.fillColor(PDF_COLORS.brand).font('Helvetica-Bold').fontSize(16).text(`${frame.brand} Platform`);
  const lab = frame.laboratory;
  if (!lab) {
    doc.fillColor(PDF_COLORS.muted).font('Helvetica').fontSize(9).text('Clinical genetics laboratory');
  } else {
    doc.fillColor(PDF_COLORS.ink).font('Helvetica-Bold').fontSize(9).text(`Performing laboratory: ${lab.name}`);
    doc.fillColor(PDF_COLORS.muted).font('Helvetica').fontSize(9).text(lab.address);
    doc.text(`CLIA number ${lab.cliaNumber} · Laboratory director ${lab.director}`);
  }
  doc.moveDown(0.8);
}

export function rule(doc: Pdf): void {
  doc.moveDown(0.5);
  const y = doc.y;
  doc.strokeColor(PDF_COLORS.rule).lineWidth(1).moveTo(54, y).lineTo(doc.page.width - 54, y).stroke();
  doc.moveDown(0.7);
}

export function section(doc: Pdf, heading: string): void {
  doc.moveDown(0.4);
  doc.fillColor(PDF_COLORS.brand).font('Helvetica-Bold').fontSize(11).text(heading);
  doc.moveDown(0.3);
}

/** Label/value rows, two columns. */
export function fields(doc: Pdf, rows: [label: string, value: string | null | undefined][]): void {
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.fillColor(PDF_COLORS.muted).font('Helvetica').fontSize(9).text(label, 54, y, { width: 150 });
    doc.fillColor(PDF_COLORS.ink).font('Helvetica').fontSize(10).text(value && value.length ? value : '—', 210, y, { width: doc.page.width - 264 });
    doc.moveDown(0.25);
  }
  doc.x = 54;
}

export function paragraph(doc: Pdf, text: string, options: { bold?: boolean; size?: number; color?: string } = {}): void {
  doc.fillColor(options.color ?? PDF_COLORS.ink).font(options.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(options.size ?? 10).text(text, 54, doc.y, { width: doc.page.width - 108 });
  doc.moveDown(0.4);
}
