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

/** The fonts every document of the lab draws with: the two whose metrics each process reads once. */
const SHARED_FONTS = ['Helvetica', 'Helvetica-Bold'] as const;

/** What pdfkit keeps per document about a font (its private shape in pdfkit 0.20, checked before use). */
interface FontInternals {
  document: unknown;
  id: string;
  name: string;
  font: { glyphsForString(text: string): unknown };
  encode(text: string, features?: unknown): unknown;
  widthOfString(text: string, size: number, features?: unknown): number;
}
interface DocumentInternals { _font: FontInternals | null; _fontFamilies: Record<string, FontInternals>; _fontCount: number }

/**
 * The parsed metrics of SHARED_FONTS, read once per process. pdfkit parses a standard font's
 * metrics (its widths and about 2,700 kerning pairs) again for every document that uses it, about
 * a quarter of the time a one-page report takes; the metrics never change and pdfkit only reads
 * them, so every document shares one copy. Null (each document parses its own) if this pdfkit's
 * internals are not the ones checked here.
 */
const sharedFonts: Map<string, FontInternals> | null = (() => {
  const probe = new PDFDocument({ font: SHARED_FONTS[0] }) as unknown as DocumentInternals;
  const fonts = new Map<string, FontInternals>();
  for (const name of SHARED_FONTS) {
    (probe as unknown as Pdf).font(name);
    const font = probe._font;
    const shaped = font && font.name === name && probe._fontFamilies?.[name] === font && typeof font.encode === 'function'
      && typeof font.widthOfString === 'function' && typeof font.font?.glyphsForString === 'function' && typeof probe._fontCount === 'number';
    if (!shaped) return null;
    fonts.set(name, font);
  }
  return fonts;
})();

/**
 * What a shared font has measured and encoded, by text, for the documents after (labels, methods,
 * limitations and interpretations repeat from one report to the next). pdfkit measures a line
 * word by word, glyph by glyph, with kerning; the answer for a text never changes. Emptied when
 * it grows past TEXT_CACHE_LIMIT texts (names and barcodes differ on every report; an encoding
 * keeps an object per character, so a few megabytes at most).
 */
const TEXT_CACHE_LIMIT = 2_000;
const textCaches = new Map<string, { widths: Map<string, number>; encodings: Map<string, unknown> }>();

function cached<T>(cache: Map<string, T>, text: string, compute: () => T): T {
  let value = cache.get(text);
  if (value === undefined) {
    if (cache.size >= TEXT_CACHE_LIMIT) cache.clear();
    value = compute();
    cache.set(text, value);
  }
  return value;
}

/** The document's copy of a shared font: its own id and PDF object, the process's metrics and text cache. */
function fontFor(doc: Pdf, template: FontInternals, id: string): FontInternals {
  const font: FontInternals = Object.create(Object.getPrototypeOf(template));
  for (const [key, value] of Object.entries(template)) {
    if (key !== 'dictionary' && key !== 'embedded') (font as unknown as Record<string, unknown>)[key] = value;
  }
  font.document = doc;
  font.id = id;
  if (!textCaches.has(template.name)) textCaches.set(template.name, { widths: new Map(), encodings: new Map() });
  const { widths, encodings } = textCaches.get(template.name)!;
  const measure = template.widthOfString.bind(font);
  const encode = template.encode.bind(font);
  // pdfkit scales the width in 1/1000 em by size / 1000: the same arithmetic, on the cached width.
  font.widthOfString = (text, size, features) =>
    features ? measure(text, size, features) : cached(widths, String(text), () => measure(String(text), 1000)) * (size / 1000);
  // pdfkit reads the encoding it is given and never changes it (word spacing works on a copy).
  font.encode = (text, features) => (features ? encode(text, features) : cached(encodings, String(text), () => encode(String(text))));
  return font;
}

/** A document with SHARED_FONTS already loaded (ids F1, F2 as pdfkit would number them) and Helvetica as its font. */
export function newDocument(options: PDFKit.PDFDocumentOptions): Pdf {
  if (!sharedFonts) return new PDFDocument(options);
  // No default font: pdfkit would parse Helvetica's metrics for this document.
  const doc = new PDFDocument({ ...options, font: null as unknown as string });
  const internals = doc as unknown as DocumentInternals;
  for (const [name, template] of sharedFonts) internals._fontFamilies[name] = fontFor(doc, template, `F${++internals._fontCount}`);
  return doc.font(SHARED_FONTS[0]);
}

export function renderPdf(frame: PdfFrame, draw: (doc: Pdf) => void): Promise<Buffer> {
  return startPdf(frame).finish(frame, draw);
}

/** The document's fixed part: everything but the banner, the subtitle and what the document draws. */
export type PdfHeading = Pick<PdfFrame, 'brand' | 'title' | 'laboratory'>;

/**
 * Opens a document and draws its heading (brand and laboratory), which needs no data: a caller
 * can start it while its data is still being read, and finish it with the rest of the frame.
 */
export function startPdf(heading: PdfHeading): { finish(frame: Pick<PdfFrame, 'banner' | 'subtitle'>, draw: (doc: Pdf) => void): Promise<Buffer> } {
  const doc = newDocument({ size: 'LETTER', margin: 54, bufferPages: true, info: { Title: heading.title, Author: `${heading.brand} Platform` } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  drawHeading(doc, heading);
  return {
    finish(frame, draw) {
      if (frame.banner) {
        doc.fillColor(PDF_COLORS.danger).font('Helvetica-Bold').fontSize(12).text(frame.banner.toUpperCase());
        doc.moveDown(0.3);
      }
      doc.fillColor(PDF_COLORS.ink).font('Helvetica-Bold').fontSize(14).text(heading.title);
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
          .text(`${heading.brand} Platform · ${heading.title} · page ${i + 1} of ${range.count}`, 54, doc.page.height - 40, { width: doc.page.width - 108, align: 'center', lineBreak: false });
        doc.page.margins.bottom = margin;
      }
      doc.end();
      return done;
    },
  };
}

/** The brand, and the performing laboratory when there is one: name, address, CLIA number, director. */
function drawHeading(doc: Pdf, frame: PdfHeading): void {
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
