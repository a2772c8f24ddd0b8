/**
 * The audit table's month partitions (issue 32; migrations/20261210100000-audit-partitions.ts):
 * one per calendar month in UTC, named audit_events_YYYY_MM, and a DEFAULT partition that catches a
 * row of a month without one (so an insert never fails). The migration makes the months its rows
 * need through AUDIT_MONTHS_AHEAD months after the current one; every worker's scanner keeps that
 * many made ahead (ensureAuditMonths); `npm run audit:archive` removes old months (archive.ts).
 */
import { QueryTypes, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { AUDIT_MONTHS_AHEAD } from '@platform/domain';

/** A calendar month in UTC. */
export interface AuditMonth { year: number; month: number }

export const monthText = (m: AuditMonth) => `${m.year}-${String(m.month).padStart(2, '0')}`;
/** The month's first instant (UTC). */
export const monthStart = (m: AuditMonth) => new Date(Date.UTC(m.year, m.month - 1, 1));
export const monthOf = (at: Date): AuditMonth => ({ year: at.getUTCFullYear(), month: at.getUTCMonth() + 1 });
export const addMonths = (m: AuditMonth, n: number): AuditMonth => monthOf(new Date(Date.UTC(m.year, m.month - 1 + n, 1)));
export const monthBefore = (a: AuditMonth, b: AuditMonth) => a.year < b.year || (a.year === b.year && a.month < b.month);
/** The month's partition (audit_events_2026_08). */
export const partitionName = (m: AuditMonth) => `audit_events_${m.year}_${String(m.month).padStart(2, '0')}`;
const PARTITION_NAME = /^audit_events_(\d{4})_(\d{2})$/;
export const monthOfPartition = (name: string): AuditMonth | null => {
  const m = PARTITION_NAME.exec(name);
  return m ? { year: Number(m[1]), month: Number(m[2]) } : null;
};
const dateText = (m: AuditMonth) => `${monthText(m)}-01`;

/**
 * Makes the partitions of `from`'s month through AUDIT_MONTHS_AHEAD months after `now`'s (those
 * missing; an archived month is never made again). Answers how many it made.
 */
export async function ensureAuditMonths(db: Db, options: { now: Date; from?: Date }, transaction?: Transaction): Promise<{ made: number }> {
  const first = monthOf(options.from ?? options.now);
  const last = addMonths(monthOf(options.now), AUDIT_MONTHS_AHEAD);
  const [{ made }] = await db.sequelize.query<{ made: number }>('SELECT audit_events_create_months(CAST(:first AS date), CAST(:last AS date)) AS made', {
    replacements: { first: dateText(first), last: dateText(last) }, type: QueryTypes.SELECT, transaction,
  });
  return { made };
}

/** The months archived (YYYY-MM, oldest first): their events are no longer in the table (docs/audit-trail.md). */
export async function archivedAuditMonths(db: Db, transaction?: Transaction): Promise<string[]> {
  const rows = await db.sequelize.query<{ month: string }>(`SELECT to_char(month, 'YYYY-MM') AS month FROM audit_archives ORDER BY month`, { type: QueryTypes.SELECT, transaction });
  return rows.map((r) => r.month);
}
