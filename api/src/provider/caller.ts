/** Who is calling a clinic endpoint, in which account: what every clinic service needs for scoping and audit. */
import type { Request, Response } from 'express';
import type { AccountSummary } from '@platform/domain';

export interface ClinicCaller {
  userId: number;
  /** The account of the URL, already checked by requireAccountAccess. */
  accountId: number;
  ip: string | null;
  requestId: string | null;
}

export function clinicCaller(req: Request, res: Response): ClinicCaller {
  const account = res.locals.account as AccountSummary | undefined;
  if (!req.user || !account) throw new Error('clinicCaller used on a route without requireUser and requireAccountAccess');
  return { userId: req.user.id, accountId: account.id, ip: req.ip ?? null, requestId: (res.locals.requestId as string | undefined) ?? null };
}

/** The audit fields of a caller (ids only). */
export function auditBy(caller: Pick<ClinicCaller, 'userId' | 'ip' | 'requestId'>) {
  return { actorUserId: caller.userId, actorKind: 'provider' as const, ip: caller.ip, requestId: caller.requestId };
}

/** Offset of a page (pages count from 1). */
export const offsetOf = (page: number, pageSize: number) => (page - 1) * pageSize;

/** A LIKE pattern that matches the text anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** 'YYYY-MM-DD' of a DATEONLY column (pg gives a string; be safe with Date). */
export function dataDate(value: string | Date | null | undefined): string | null {
  if (value == null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

/** A person's name as shown. */
export const fullName = (p: { firstName: string; lastName: string } | null | undefined) => (p ? `${p.firstName} ${p.lastName}` : null);
