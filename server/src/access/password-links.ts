/**
 * The single-use link to a portal's set-password page (the reset page), for a forgotten password
 * and for a new user's first password; and signing a user out everywhere when access ends.
 */
import { randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { SIGN_IN_PORTAL_PATHS, type SignInPortal } from '@platform/domain';
import type { Db } from '@platform/db';
import type { Config } from '../config';
import { hashToken } from '../auth/tokens';

/** A link valid `minutes`; only its hash is stored. */
export async function createPasswordLink(
  ctx: { db: Db; config: Pick<Config, 'publicUrl'> }, transaction: Transaction, userId: number, portal: SignInPortal, minutes: number,
): Promise<string> {
  const token = randomBytes(32).toString('hex');
  await ctx.db.models.PasswordResetToken.create(
    { userId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + minutes * 60_000) },
    { transaction },
  );
  return `${ctx.config.publicUrl}${SIGN_IN_PORTAL_PATHS[portal]}/reset-password?token=${token}`;
}

/** Signs a user out everywhere (but the session `exceptSessionId`): a deactivated user loses access at once. */
export async function endSessionsOf(ctx: { db: Db }, userId: number, transaction: Transaction, exceptSessionId = '') {
  await ctx.db.sequelize.query(`DELETE FROM "session" WHERE (sess -> 'passport' ->> 'user')::text = :id AND sid <> :except`, {
    replacements: { id: String(userId), except: exceptSessionId },
    transaction,
  });
}
