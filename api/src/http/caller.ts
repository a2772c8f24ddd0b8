/** Who is calling, from the request: the one Caller every service takes for scoping and audit. */
import type { Request, Response } from 'express';
import type { AccountSummary } from '@platform/domain';
import type { AccountCaller, Caller, UserCaller } from '@platform/server';

export type { AccountCaller, UserCaller };

export function callerOf(req: Request, res: Response): Caller {
  const account = res.locals.account as AccountSummary | undefined;
  return {
    userId: req.user?.id ?? null,
    kind: req.user?.kind ?? 'anonymous',
    accountId: account?.id ?? null,
    ip: req.ip ?? null,
    requestId: (res.locals.requestId as string | undefined) ?? null,
  };
}

/** The caller of a route behind requireUser and requireAccountAccess. */
export function accountCallerOf(req: Request, res: Response): AccountCaller {
  const caller = callerOf(req, res);
  if (caller.userId === null || caller.accountId === null) throw new Error('accountCallerOf used on a route without requireUser and requireAccountAccess');
  return caller as AccountCaller;
}

/** The caller of a route behind requireUser: a signed-in user. */
export function userCallerOf(req: Request, res: Response): UserCaller {
  const caller = callerOf(req, res);
  if (caller.userId === null) throw new Error('userCallerOf used on a route without requireUser');
  return caller as UserCaller;
}
