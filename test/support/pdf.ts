/** Reading PDFs and binary answers in tests: poppler's pdftotext / pdfinfo, and a supertest parser. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

function assertPdf(pdf: Buffer): void {
  if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-') throw new Error('not a PDF');
}

/** The text of a PDF as pdftotext reads it, whitespace runs collapsed to one space. */
export function pdfText(pdf: Buffer): string {
  assertPdf(pdf);
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8').replace(/\s+/g, ' ');
}

/** How many pages a PDF has (pdfinfo). */
export function pdfPageCount(pdf: Buffer): number {
  assertPdf(pdf);
  const info = execFileSync('pdfinfo', ['-'], { input: pdf }).toString('utf8');
  return Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
}

/** supertest parser that keeps a binary body (a PDF, a CSV) as a Buffer. */
export function binaryBody(res: unknown, callback: (err: Error | null, body: Buffer) => void): void {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
  stream.on('end', () => callback(null, Buffer.concat(chunks)));
}

/**
 * The barcodes a PDF shows, read as a scanner would: each page rendered at `dpi` by poppler's
 * pdftoppm, then read by zbarimg (Debian's zbar-tools). One array per page of `SYMBOLOGY:data`
 * (CODE-128:41000000000017), in the order zbarimg finds them.
 */
export function pdfBarcodes(pdf: Buffer, dpi = 300): string[][] {
  assertPdf(pdf);
  const dir = mkdtempSync(path.join(tmpdir(), 'pdf-barcodes-'));
  try {
    writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', path.join(dir, 'in.pdf'), path.join(dir, 'page')]);
    const pages = readdirSync(dir).filter((f) => f.endsWith('.png')).sort((a, b) => Number(/(\d+)\.png$/.exec(a)![1]) - Number(/(\d+)\.png$/.exec(b)![1]));
    return pages.map((page) => {
      // zbarimg exits 4 when a page holds no barcode: an empty page, not an error.
      const out = spawnSync('zbarimg', ['-q', path.join(dir, page)], { encoding: 'utf8' });
      if (out.status !== 0 && out.status !== 4) throw new Error(`zbarimg failed (${out.status}): ${out.stderr}`);
      return out.stdout.split('\n').filter(Boolean);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Where each word of a PDF sits (pdftotext -bbox): its page (from 1) and its top left corner in points from the page's top left. */
export function pdfWords(pdf: Buffer): { text: string; x: number; y: number; page: number }[] {
  assertPdf(pdf);
  const html = execFileSync('pdftotext', ['-bbox', '-', '-'], { input: pdf }).toString('utf8');
  const words: { text: string; x: number; y: number; page: number }[] = [];
  let page = 0;
  for (const m of html.matchAll(/<page [^>]*>|<word xMin="([\d.]+)" yMin="([\d.]+)"[^>]*>([^<]*)<\/word>/g)) {
    if (m[0].startsWith('<page')) page++;
    else words.push({ text: m[3], x: Number(m[1]), y: Number(m[2]), page });
  }
  return words;
}
