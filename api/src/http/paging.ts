import type { Response } from 'express';

/**
 * One page of a list: its rows as the body, the whole list's size in x-total-count (SPEC §7), never
 * cached. Written without res.json: Express would hash every page for an ETag no cache may keep.
 */
export function sendPage<T>(res: Response, page: { rows: T[]; total: number }): void {
  const body = Buffer.from(JSON.stringify(page.rows));
  // Its length said: the compression middleware writes the headers before the body, and an answer
  // without a length goes out chunked, a write of framing around every page (compression, where the
  // caller accepts it, drops the length).
  res.set('x-total-count', String(page.total)).set('Cache-Control', 'no-store').set('Content-Length', String(body.length)).type('json').end(body);
}
