/**
 * A person's first sign-in: the user row (no password yet) and the emailed single-use link to
 * choose one. Used when an admin approves or registers a provider, when a super admin adds a user
 * to their account, and when an admin adds a lab toolbox user.
 */
import type { Transaction } from 'sequelize';
import { SET_PASSWORD_LINK_DAYS, SIGN_IN_PORTAL_TITLES, UserKind, type SignInPortal } from '@platform/domain';
import type { User } from '@platform/db';
import { conflict, conflictOnDuplicate } from '../errors';
import { queueEmail } from '../email/queue-email';
import { setPasswordEmail } from '../email/templates';
import type { ServerContext } from '../context';
import { createPasswordLink } from './password-links';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

export const duplicateEmail = (email: string) => ({ field: 'email', message: `A user with the email ${email} already exists` });
/** One NPI, one person: the unique index contacts_npi_key refuses a second. */
export const duplicateNpi = (npi: string | null) => ({ field: 'npi', message: `NPI ${npi} already belongs to another user` });

/** Refuses an email that already signs in (users) or is already a known provider (contacts). */
export async function assertEmailFree(ctx: Ctx, email: string, transaction: Transaction, { contacts = true } = {}): Promise<void> {
  const { User, Contact } = ctx.db.models;
  const where = ctx.db.sequelize.where(ctx.db.sequelize.fn('lower', ctx.db.sequelize.col('email')), email.toLowerCase());
  const taken = (await User.count({ where, transaction })) + (contacts ? await Contact.count({ where, transaction }) : 0);
  if (taken) throw conflict(duplicateEmail(email).message, [duplicateEmail(email)]);
}

export async function createSignInUser(
  ctx: Ctx,
  transaction: Transaction,
  person: { kind: UserKind; email: string; firstName: string; lastName: string },
): Promise<User> {
  return conflictOnDuplicate(
    () => ctx.db.models.User.create({ ...person, email: person.email.toLowerCase(), passwordHash: null, isActive: true, lastLoginAt: null }, { transaction }),
    { users_email_lower_key: duplicateEmail(person.email) },
  );
}

/** Queues the set-password email of a new user (a link valid SET_PASSWORD_LINK_DAYS days, used once). */
export async function sendSetPasswordLink(ctx: Ctx, transaction: Transaction, user: User, portal: SignInPortal, createdByUserId: number | null) {
  const link = await createPasswordLink(ctx, transaction, user.id, portal, SET_PASSWORD_LINK_DAYS * 24 * 60);
  await queueEmail(ctx, transaction, {
    to: user.email,
    ...setPasswordEmail({ brand: ctx.config.brand, firstName: user.firstName, portalTitle: SIGN_IN_PORTAL_TITLES[portal], link }),
    createdByUserId,
  });
}
