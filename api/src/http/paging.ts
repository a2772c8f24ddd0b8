import type { Response } from 'express';
import { QueryTypes } from 'sequelize';
import type { Db } from '@platform/db';

/** Offset of a page (pages count from 1). */
export const offsetOf = (page: number, pageSize: number) => (page - 1) * pageSize;

/** One page of a list: its rows as the body, the whole list's size in x-total-count (SPEC §7), never cached. */
export function sendPage<T>(res: Response, page: { rows: T[]; total: number }): void {
  res.set('x-total-count', String(page.total)).set('Cache-Control', 'no-store').json(page.rows);
}

/** Up to this many rows a list's total is counted exactly on every request. */
export const EXACT_COUNT_UP_TO = 1_000;
/** How long the exact total of a longer list is reused (it is counted again after that). */
export const LONG_COUNT_REUSE_MS = 30_000;
const longCounts = new Map<string, { total: number; at: number }>();

/**
 * The total of a list (x-total-count) without counting a whole long category on every request:
 * counted exactly while it has fewer than EXACT_COUNT_UP_TO rows (a capped count reads at most
 * that many index entries); a longer list's exact total is counted once and reused for
 * LONG_COUNT_REUSE_MS by this process (a 200,000-sample list's total may lag by the samples of the
 * last half minute; a short list's never does). `fromWhere` is the list's `FROM … WHERE …`.
 */
export async function listTotal(db: Db, fromWhere: string, replacements: Record<string, unknown>): Promise<number> {
  const [{ capped }] = await db.sequelize.query<{ capped: number }>(
    `SELECT count(*)::int AS capped FROM (SELECT 1 ${fromWhere} LIMIT ${EXACT_COUNT_UP_TO}) c`, { replacements, type: QueryTypes.SELECT });
  if (capped < EXACT_COUNT_UP_TO) return capped;
  const key = `${fromWhere}\u0000${JSON.stringify(replacements)}`;
  const known = longCounts.get(key);
  if (known && Date.now() - known.at < LONG_COUNT_REUSE_MS) return known.total;
  const [{ total }] = await db.sequelize.query<{ total: number }>(`SELECT count(*)::int AS total ${fromWhere}`, { replacements, type: QueryTypes.SELECT });
  if (longCounts.size > 10_000) longCounts.clear();
  longCounts.set(key, { total, at: Date.now() });
  return total;
}
