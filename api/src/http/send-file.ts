/** How a file (a PDF, a label) is answered: as an attachment with its name, never cached (it may carry patient data). */
import type { Response } from 'express';

export function sendAttachment(res: Response, file: { name: string; content: Buffer }, contentType: string): void {
  res
    .set('Content-Type', contentType)
    .set('Content-Disposition', `attachment; filename="${file.name}"`)
    .set('Cache-Control', 'private, no-store')
    .set('Content-Length', String(file.content.length))
    .send(file.content);
}
