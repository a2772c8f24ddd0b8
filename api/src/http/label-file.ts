/**
 * Label downloads (server/src/labels): the route pairs every label has, a PDF (…/pdf?layout=&start=)
 * and ZPL (…/zpl, text/plain), and how their files are answered: as attachments, never cached
 * (a sample label carries patient initials and date of birth).
 */
import type { RequestHandler, Response } from 'express';
import type { LabelPdfQuery } from '@platform/domain';
import type { LabelFile, LabelOutput } from '@platform/server';
import { answersFile } from './answers';
import { sendAttachment } from './send-file';

export const answersLabelPdf: RequestHandler = answersFile('application/pdf');
export const answersLabelZpl: RequestHandler = answersFile('text/plain');

export const pdfOutput = (res: Response): LabelOutput => {
  const q = res.locals.query as LabelPdfQuery;
  return { format: 'pdf', layout: q.layout, start: q.start };
};
export const ZPL_OUTPUT: LabelOutput = { format: 'zpl' };

export function sendLabelFile(res: Response, file: LabelFile): void {
  sendAttachment(res, { name: file.fileName, content: file.content }, file.contentType);
}
