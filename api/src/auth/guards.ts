/**
 * Who may call a route. Every route declares one: requireUser for the kind of user, and
 * requireAccountAccess for anything under an {accountId}: a caller who is not a member gets the
 * same 404 as for an account that does not exist.
 */
import type { RequestHandler } from 'express';
import type { AccountRole, AccountSummary, UserKind } from '@platform/domain';
import type { AppContext } from '../context';
import { unauthorized } from '../http/errors';
import { accountsOf } from '@platform/server/access/sign-in';
import { forbidden, notFound } from '@platform/server';
import { pathId } from '../http/path-id';
import { declarePolicy } from '../http/route-policy';

export function requireUser(...kinds: UserKind[]): RequestHandler {
  return declarePolicy((req, _res, next) => {
    if (!req.user) return next(unauthorized());
    if (kinds.length && !kinds.includes(req.user.kind)) return next(forbidden());
    next();
  }, { type: 'user', kinds });
}

export interface AccountAccessOptions {
  portal?: 'clinic' | 'research';
  roles?: AccountRole[];
}

/** Puts the caller's membership of req.params.accountId on res.locals.account, or refuses. */
export function requireAccountAccess(ctx: Pick<AppContext, 'db' | 'relay' | 'config'>, options: AccountAccessOptions = {}): RequestHandler {
  return declarePolicy(async (req, res, next) => {
    try {
      if (!req.user) throw unauthorized();
      const accountId = pathId(req.params.accountId, 'Account');
      const account = (await accountsOf(ctx, req.user)).find((a) => a.id === accountId);
      if (!account) throw notFound('Account not found');
      if (options.portal === 'clinic' && !account.clinicAccess) throw forbidden('This account has no Clinical Portal access');
      if (options.portal === 'research' && !account.researchAccess) throw forbidden('This account has no Research Portal access');
      if (options.roles && !options.roles.includes(account.role)) throw forbidden('Your role in this account does not allow this');
      res.locals.account = account satisfies AccountSummary;
      next();
    } catch (err) {
      next(err);
    }
  }, { type: 'account', portal: options.portal, roles: options.roles });
}
