/**
 * Finishing a sign-in: after the password alone (a user without a second factor, or a remembered
 * device) or after the second step. The session is regenerated (passport's logIn), its lifetime
 * starts, the current account is chosen, and the sign-in is audited with how it was proven.
 */
import type { Request, Response } from 'express';
import type { Me, SignInPortal } from '@platform/domain';
import { accountsOf, describeMe, pickCurrentAccount } from '@platform/server/access/sign-in';
import { auditActor, callerAs, recordAudit } from '@platform/server';
import type { AppContext } from '../context';
import { callerOf } from '../http/caller';
import type { SessionUser } from './session-user';

export function logIn(req: Request, user: SessionUser): Promise<void> {
  return new Promise((resolve, reject) => req.logIn(user, (err) => (err ? reject(err) : resolve())));
}

export function regenerateSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

/** `secondFactor`: how the second step was answered ('totp', 'passkey', 'recovery', 'remembered_device'), absent for the password alone. */
export async function completeSignIn(ctx: AppContext, req: Request, res: Response, user: SessionUser, portal: SignInPortal, secondFactor?: string): Promise<Me> {
  await logIn(req, user); // passport regenerates the session here: a pending second step goes with the old one
  req.session.signedInAt = Date.now();
  const accounts = await accountsOf(ctx, user);
  req.session.currentAccountId = pickCurrentAccount(accounts, undefined, portal)?.id;
  await recordAudit(ctx.db, {
    ...auditActor(callerAs(callerOf(req, res), user)), action: 'auth.login', entityKind: 'user', entityId: user.id,
    details: { portal, ...(secondFactor ? { secondFactor } : {}) },
  });
  return describeMe(ctx, user, req.session.currentAccountId);
}
