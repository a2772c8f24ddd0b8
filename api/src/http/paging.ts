import type { Response } from 'express';

/**
 * One page of a list: its rows as the body, the whole list's size in x-total-count (SPEC §7), never
 * cached. Written without res.json: Express would hash every page for an ETag no cache may keep.
 */
export function sendPage<T>(res: Response, page: { rows: T[]; total: number }): void {
  res.set('x-total-count', String(page.total)).set('Cache-Control', 'no-store').type('json').end(JSON.stringify(page.rows));
}
