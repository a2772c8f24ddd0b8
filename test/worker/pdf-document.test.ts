/**
 * The frame of every PDF shares Helvetica's parsed metrics and its measured texts across the
 * documents of a process: what it draws must stay exactly what pdfkit draws on its own.
 */
import { expect } from 'chai';
import PDFDocument from 'pdfkit';
import { newDocument, type Pdf } from '@platform/worker/pdf/pdf-document';

const options = () => ({ size: 'LETTER' as const, margin: 54, info: { Title: 'Laboratory report', Author: 'Test Platform', CreationDate: new Date('2026-01-02T03:04:05Z') } });

function drawn(doc: Pdf, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  doc.fillColor('#0b6e69').font('Helvetica-Bold').fontSize(16).text('Test Platform: AVATAR Wave, Toy');
  doc.font('Helvetica').fontSize(9).text(`Patient ${name} · To Wa Yo Te, "quoted" — dash, naïve café`, 54, doc.y, { width: 300 });
  doc.text('The patient has an intermediate genetic risk of late toxicity from SBRT; this result is one factor among others.', { width: 200, align: 'justify' });
  doc.font('Courier-Bold').fontSize(30).text('41000000000001', { characterSpacing: 2 });
  doc.font('Helvetica').fontSize(8).text('page 1 of 1', 54, doc.page.height - 40, { width: doc.page.width - 108, align: 'center', lineBreak: false });
  doc.end();
  return done;
}

describe('worker: the PDF frame', () => {
  it('draws, document after document, exactly the bytes pdfkit draws on its own (fonts, kerning, wrapping, justification)', async () => {
    for (const name of ['Walter Quill', 'Ada AVA Wyatt', 'Walter Quill']) {
      const reference = await drawn(new PDFDocument(options()), name);
      const ours = await drawn(newDocument(options()), name);
      expect(ours.equals(reference), `the PDF for ${name}`).to.equal(true);
    }
  });
});
