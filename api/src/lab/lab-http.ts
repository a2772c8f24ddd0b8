/** Small pieces every Lab Toolbox route uses: who is calling, list headers, ids from the path, names and dates. */
import type { Request, Response } from 'express';
import { DateTime } from 'luxon';
import { DATE_FORMATS } from '@platform/domain';
import { notFound } from '../http/errors';

/** The signed-in lab user and what the audit log records about the request. */
export interface LabCaller {
  userId: number;
  meta: { ip: string | null; requestId: string | null };
}

export function labCaller(req: Request, res: Response): LabCaller {
  return { userId: req.user!.id, meta: { ip: req.ip ?? null, requestId: (res.locals.requestId as string | undefined) ?? null } };
}

/** The audit fields of a lab user's action. */
export function auditBy(caller: LabCaller) {
  return { actorUserId: caller.userId, actorKind: 'lab' as const, ip: caller.meta.ip, requestId: caller.meta.requestId };
}

/** A list's total, for pagination (SPEC §7: x-total-count). */
export function setTotalCount(res: Response, total: number): void {
  res.set('x-total-count', String(total));
}

/** A positive whole-number id from the path, or the 404 of something that does not exist. */
export function pathId(value: unknown, what: string): number {
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d{1,18}$/.test(value) || !Number.isSafeInteger(n) || n <= 0) throw notFound(`${what} not found`);
  return n;
}

export function fullName(user: { firstName: string; lastName: string } | null | undefined): string {
  return user ? `${user.firstName} ${user.lastName}`.trim() : 'Unknown';
}

/** MM/DD/YYYY in the lab's (the server's) time zone. */
export function formatDate(date: Date): string {
  return DateTime.fromJSDate(date).toFormat(DATE_FORMATS.short);
}

export function formatDateTime(date: Date): string {
  return DateTime.fromJSDate(date).toFormat(DATE_FORMATS.shortWithTime);
}

export const toIso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
