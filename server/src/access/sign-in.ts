/**
 * Signing in and the password's life: checking credentials for a portal, the user and accounts
 * behind a session, a reset by emailed link, a change. Its own entry of the package
 * (`@platform/server/access/sign-in`): it hashes passwords, and the worker never loads argon2.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import {
  AccessStatus, PASSWORD_RESET_TOKEN_MINUTES, SIGN_IN_PORTAL_USER_KIND, UserKind, type AccountRole, type AccountSummary,
  type Me, type SessionUser, type SignInPortal,
} from '@platform/domain';
import type { User } from '@platform/db';
import type { ServerContext } from '../context';
import { burnVerifyTime, hashPassword, verifyPassword } from '../auth/passwords';
import { hashToken } from '../auth/tokens';
import { auditActor, type Caller, callerAs, recordAudit } from '../audit';
import { forbidden, Invalid } from '../errors';
import { passwordResetEmail } from '../email/templates';
import { queueEmail } from '../email/queue-email';
import { createPasswordLink, endSessionsOf } from './password-links';
import type { AuthCache } from './auth-cache';
import type { PasswordCheckThrottle } from './sign-in-throttles';
import { confirmedSigner, type ConfirmedSigner } from './signer';

/** The API process's auth cache is optional: a context without one reads PostgreSQL every time. */
type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'> & { authCache?: Pick<AuthCache, 'users' | 'accounts'> };

export function toSessionUser(u: { id: number; kind: string; email: string; firstName: string; lastName: string }): SessionUser {
  return { id: u.id, kind: u.kind as UserKind, email: u.email, firstName: u.firstName, lastName: u.lastName };
}

/** The user behind a session, if still active. */
export async function loadSessionUser(ctx: Ctx, id: number): Promise<SessionUser | null> {
  return ctx.authCache ? ctx.authCache.users.load(id, () => readSessionUser(ctx, id)) : readSessionUser(ctx, id);
}

async function readSessionUser(ctx: Ctx, id: number): Promise<SessionUser | null> {
  // Every signed-in request asks: one indexed read of the five fields, without a model instance.
  const [user] = await ctx.db.sequelize.query<{ id: number; kind: string; email: string; firstName: string; lastName: string }>(
    'SELECT id, kind, email, first_name AS "firstName", last_name AS "lastName" FROM users WHERE id = :id AND is_active',
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return user ? toSessionUser({ ...user, id: Number(user.id) }) : null;
}

/** The accounts a provider user may act in: approved contact, active membership, active account. */
export async function accountsOf(ctx: Ctx, user: SessionUser): Promise<AccountSummary[]> {
  if (user.kind !== UserKind.Provider) return [];
  return ctx.authCache ? ctx.authCache.accounts.load(user.id, () => readAccountsOf(ctx, user.id)) : readAccountsOf(ctx, user.id);
}

async function readAccountsOf(ctx: Ctx, userId: number): Promise<AccountSummary[]> {
  // Every account-scoped request checks this: one query over the indexed keys, not three.
  const rows = await ctx.db.sequelize.query<Omit<AccountSummary, 'role'> & { role: string }>(
    `SELECT a.id, a.name, a.type, m.role, a.eap_partner AS "eapPartner", a.international,
            a.clinic_access AS "clinicAccess", a.research_access AS "researchAccess"
       FROM contacts c
       JOIN account_memberships m ON m.contact_id = c.id AND m.is_active
       JOIN accounts a ON a.id = m.account_id AND a.is_active
      WHERE c.user_id = :userId AND c.access_status = :approved
      ORDER BY a.name, a.id`,
    { replacements: { userId, approved: AccessStatus.Approved }, type: QueryTypes.SELECT },
  );
  return rows.map((a): AccountSummary => ({
    id: Number(a.id),
    name: a.name,
    type: a.type,
    role: a.role as AccountRole,
    eapPartner: a.eapPartner,
    international: a.international,
    clinicAccess: a.clinicAccess,
    researchAccess: a.researchAccess,
  }));
}

export function pickCurrentAccount(accounts: AccountSummary[], wanted?: number, portal?: SignInPortal): AccountSummary | null {
  const chosen = accounts.find((a) => a.id === wanted);
  if (chosen) return chosen;
  if (portal === 'research') return accounts.find((a) => a.researchAccess) ?? null;
  return accounts.find((a) => a.clinicAccess) ?? accounts[0] ?? null;
}

export async function describeMe(ctx: Ctx, user: SessionUser, currentAccountId?: number): Promise<Me> {
  const accounts = await accountsOf(ctx, user);
  return { user, accounts, currentAccount: pickCurrentAccount(accounts, currentAccountId) };
}

export type CredentialCheck = { user: SessionUser } | { wrongPortal: SignInPortal } | null;

/** The portal a user signs in at (a provider's depends on their accounts' access), or null when none would take them. */
async function portalOf(ctx: Ctx, user: SessionUser, asked: SignInPortal): Promise<SignInPortal | null> {
  if (user.kind === UserKind.Admin) return 'admin';
  if (user.kind === UserKind.Lab) return 'lab';
  const accounts = await accountsOf(ctx, user);
  const clinic = accounts.some((a) => a.clinicAccess);
  const research = accounts.some((a) => a.researchAccess);
  if (asked === 'research' && research) return 'research';
  if (asked === 'provider' && clinic) return 'provider';
  return clinic ? 'provider' : research ? 'research' : null;
}

/**
 * Checks an email and password for a portal. Null for every refusal before the password is known
 * right (unknown email, wrong password, inactive), so no answer tells which accounts exist; once
 * it is right, a person at the wrong portal is told which one is theirs.
 */
export async function verifyCredentials(ctx: Ctx, email: string, password: string, portal: SignInPortal): Promise<CredentialCheck> {
  const user = await ctx.db.models.User.findOne({ where: { email: email.trim().toLowerCase() } });
  if (!user) return burnVerifyTime(password).then(() => null);
  const passwordOk = await verifyPassword(user.passwordHash, password);
  if (!passwordOk || !user.isActive) return null;
  const sessionUser = toSessionUser(user);
  const theirs = await portalOf(ctx, sessionUser, portal);
  if (theirs === null) return null;
  if (theirs !== portal) return { wrongPortal: theirs };
  await user.update({ lastLoginAt: new Date() });
  return { user: sessionUser };
}

/** Starts a reset when the email belongs to a user of that portal; says nothing either way. */
export async function requestPasswordReset(ctx: Ctx, email: string, portal: SignInPortal, request: Caller) {
  const { User } = ctx.db.models;
  const user = await User.findOne({ where: { email: email.trim().toLowerCase(), isActive: true } });
  if (!user || user.kind !== SIGN_IN_PORTAL_USER_KIND[portal]) return;
  await ctx.db.sequelize.transaction(async (transaction) => {
    const link = await createPasswordLink(ctx, transaction, user.id, portal, PASSWORD_RESET_TOKEN_MINUTES);
    await queueEmail(ctx, transaction, {
      to: user.email,
      ...passwordResetEmail({ brand: ctx.config.brand, firstName: user.firstName, link }),
      createdByUserId: user.id,
    });
    await recordAudit(ctx.db, { ...auditActor(callerAs(request, user)), action: 'auth.password_reset_requested', entityKind: 'user', entityId: user.id }, transaction);
  });
}

const invalidToken = () => new Invalid('This reset link is invalid or has expired.', undefined, 'invalid_token');

/** Uses a reset token once: sets the password and ends every session of that user. */
export async function resetPassword(ctx: Ctx, token: string, password: string, request: Caller) {
  const { User, PasswordResetToken } = ctx.db.models;
  await ctx.db.sequelize.transaction(async (transaction) => {
    const row = await PasswordResetToken.findOne({ where: { tokenHash: hashToken(token) }, transaction, lock: transaction.LOCK.UPDATE });
    if (!row || row.usedAt || row.expiresAt.getTime() < Date.now()) throw invalidToken();
    const user = await User.findOne({ where: { id: row.userId, isActive: true }, transaction });
    if (!user) throw invalidToken();
    await replacePassword(ctx, user, password, transaction);
    await endSessionsOf(ctx, user.id, transaction);
    await recordAudit(ctx.db, { ...auditActor(callerAs(request, user)), action: 'auth.password_reset', entityKind: 'user', entityId: user.id }, transaction);
  });
}

/**
 * The one way a password changes: the new hash, and every reset or set-password link of the user
 * not yet used ends with the old password (a link sent earlier must not undo the change).
 */
async function replacePassword(ctx: Ctx, user: User, password: string, transaction: Transaction) {
  await user.update({ passwordHash: await hashPassword(password) }, { transaction });
  await ctx.db.models.PasswordResetToken.update({ usedAt: new Date() }, { where: { userId: user.id, usedAt: null }, transaction });
}

/** Changes the password and ends every other session of the user (a stolen session dies with the old password). */
export async function changePassword(ctx: Ctx, caller: Caller, user: SessionUser, current: string, next: string, sessionId: string) {
  const row = await ctx.db.models.User.findByPk(user.id);
  if (!row || !(await verifyPassword(row.passwordHash, current))) {
    throw new Invalid('The current password is not correct', [{ field: 'currentPassword', message: 'The current password is not correct' }], 'validation_failed');
  }
  await ctx.db.sequelize.transaction(async (transaction) => {
    await replacePassword(ctx, row, next, transaction);
    await endSessionsOf(ctx, user.id, transaction, sessionId);
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'auth.password_changed', entityKind: 'user', entityId: user.id }, transaction);
  });
}

/**
 * A signature's proof of identity (21 CFR 11.200(a)): the signed-in user re-enters their password.
 * Wrong passwords are limited per user and each refusal is audited (an attempt to sign as someone
 * else is what an inspector asks about); the signer is named as the user's record names them.
 */
export async function confirmSigner(ctx: Ctx, caller: Caller & { userId: number }, password: string, throttle: PasswordCheckThrottle): Promise<ConfirmedSigner> {
  await throttle.reserve(caller.userId);
  const row = await ctx.db.models.User.findByPk(caller.userId);
  if (!row || !row.isActive || !(await verifyPassword(row.passwordHash, password))) {
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'signature.refused', entityKind: 'user', entityId: caller.userId, details: { reason: 'wrong password' } });
    throw new Invalid('The password is not correct: nothing was signed', [{ field: 'password', message: 'The password is not correct: nothing was signed' }], 'validation_failed');
  }
  await throttle.recordSuccess(caller.userId);
  return confirmedSigner(row.id, `${row.firstName} ${row.lastName}`.trim());
}

export function assertMember(me: Me, accountId: number): void {
  if (!me.accounts.some((a) => a.id === accountId)) throw forbidden('You are not a member of that account');
}


// Two-factor sign-in lives beside the password (it checks passwords too): loaded through this entry.
export * from './two-factor';
