/** Reading PDFs and binary answers in tests: poppler's pdftotext / pdfinfo, and a supertest parser. */
import { execFileSync } from 'node:child_process';

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
