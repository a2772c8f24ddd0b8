import type { Response } from 'express';

/** Offset of a page (pages count from 1). */
export const offsetOf = (page: number, pageSize: number) => (page - 1) * pageSize;

/** One page of a list: its rows as the body, the whole list's size in x-total-count (SPEC §7), never cached. */
export function sendPage<T>(res: Response, page: { rows: T[]; total: number }): void {
  res.set('x-total-count', String(page.total)).set('Cache-Control', 'no-store').json(page.rows);
}
