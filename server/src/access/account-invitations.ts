/**
 * An account's Super Admin adds people by invitation (issue 24, hole 7). Whether the address is
 * new to the platform or already signs in elsewhere, the Super Admin gets the same answer, sees
 * the same "Invited, awaiting acceptance" entry, and the person the same email: adding a user
 * tells nobody who exists. The person joins when they accept through the emailed link (proof that
 * the address is theirs, as a reset link is): an existing provider gets the account added to their
 * sign-in, a new person becomes a provider contact and user and chooses a password next.
 */
import { randomBytes } from 'node:crypto';
import { Op, type Transaction } from 'sequelize';
import type { AccountInvitation, Contact } from '@platform/db';
import {
  ACCOUNT_INVITATION_DAYS, AccessStatus, AccountInvitationStatus, AccountRole, accountUserInvitedMessage, fullName, SET_PASSWORD_LINK_DAYS, SIGN_IN_PORTAL_PATHS, UserKind,
  type AccountInvitationAccepted, type AccountInvitationPreview, type AccountInvitationRow, type AccountUserInvited, type RegisterProviderBody,
} from '@platform/domain';
import { accountInvitationEmail } from '../email/templates';
import { auditActor, recordAudit, type Caller } from '../audit';
import { badRequest, conflict, conflictOnDuplicate, gone, notFound } from '../errors';
import { queueEmail } from '../email/queue-email';
import type { ServerContext } from '../context';
import { createPasswordLink } from './password-links';
import { hashToken } from '../auth/tokens';
import { toIso } from '../answer-values';
import { grantAccounts } from './memberships';
import { createSignInUser } from './new-users';
import { assertAccountInScope, oneAccount, type AccountScope } from './scope';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

export const INVITATION_LINK_UNUSABLE = 'This invitation link is not valid: it was used, cancelled or replaced. Ask the person who invited you for a new one.';
export const INVITATION_EXPIRED = 'This invitation has expired. Ask the person who invited you for a new one.';
/** The invitation's NPI is another user's: told to the person accepting, who asks the clinic to correct it. */
const npiTaken = (npi: string | null) => ({ field: 'token', message: `The NPI of this invitation (${npi}) already belongs to another user. Ask the person who invited you to correct it.` });
/** An address that signs in to the lab's own portals cannot also be a clinic's user. */
export const INVITATION_NOT_FOR_STAFF = "This address signs in to the laboratory's own portal and cannot join a clinic's account. Ask the clinic to invite another address.";

function rowOf(i: AccountInvitation, now = Date.now()): AccountInvitationRow {
  return {
    id: i.id, email: i.email, firstName: i.firstName, lastName: i.lastName, title: i.title, role: i.role,
    invitedBy: fullName(i.invitedBy ?? null), createdAt: toIso(i.createdAt)!, expiresAt: toIso(i.expiresAt)!, expired: i.expiresAt.getTime() <= now,
  };
}

/** Refuses someone already on the account's list (with access or removed): they are given access there. */
async function assertNotListed(ctx: Ctx, accountId: number, email: string, transaction: Transaction): Promise<void> {
  const { Contact: ContactM, AccountMembership } = ctx.db.models;
  const listed = await ContactM.count({
    where: ctx.db.sequelize.where(ctx.db.sequelize.fn('lower', ctx.db.sequelize.col('Contact.email')), email.toLowerCase()),
    include: [{ model: AccountMembership, as: 'memberships', where: { accountId }, attributes: [], required: true }],
    transaction,
  });
  if (listed) {
    const message = `${email} is already on this account's list of users: open them there to give them access again or change their role`;
    throw conflict(message, [{ field: 'email', message }]);
  }
}

/** POST provider-clinic/{accountId}/contacts/create by the account's Super Admin: an invitation, emailed. */
export async function inviteToAccount(ctx: Ctx, caller: Caller, scope: AccountScope, body: RegisterProviderBody): Promise<AccountUserInvited> {
  for (const g of body.accounts) assertAccountInScope(scope, g.accountId);
  const role = body.accounts.find((g) => g.accountId === scope.accountId)!.role;
  // Refused now, as a direct registration would be, not when the person accepts.
  if (role === AccountRole.Physician && !body.npi) {
    throw badRequest('A physician needs an NPI to order', [{ field: 'npi', message: 'NPI is required for the Physician role' }]);
  }
  const token = randomBytes(32).toString('hex');
  const id = await ctx.db.sequelize.transaction(async (transaction) => {
    await assertNotListed(ctx, scope.accountId, body.email, transaction);
    const alreadyInvited = `${body.email} was already invited to this account: cancel that invitation below to invite them again`;
    const invitation = await conflictOnDuplicate(
      () => ctx.db.models.AccountInvitation.create({
        accountId: scope.accountId, email: body.email.toLowerCase(), firstName: body.firstName, lastName: body.lastName, phone: body.phone,
        title: body.title, specialty: body.specialty, npi: body.npi, role, tokenHash: hashToken(token), invitedByUserId: caller.userId,
        expiresAt: new Date(Date.now() + ACCOUNT_INVITATION_DAYS * 86_400_000), decidedAt: null, contactId: null,
      }, { transaction }),
      { account_invitations_pending_key: { field: 'email', message: alreadyInvited } },
    );
    const [account, inviter] = await Promise.all([
      ctx.db.models.Account.findByPk(scope.accountId, { transaction }),
      caller.userId ? ctx.db.models.User.findByPk(caller.userId, { transaction }) : null,
    ]);
    await queueEmail(ctx, transaction, {
      to: invitation.email,
      ...accountInvitationEmail({
        brand: ctx.config.brand, firstName: body.firstName, invitedBy: fullName(inviter) ?? `A super admin of ${account!.name}`, accountName: account!.name, role,
        link: `${ctx.config.publicUrl}${SIGN_IN_PORTAL_PATHS.provider}/accept-invitation?token=${token}`,
      }),
      createdByUserId: caller.userId,
    });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'access.account_invitation_sent', entityKind: 'user', entityId: null,
      details: { invitationId: invitation.id, accountId: scope.accountId, role },
    }, transaction);
    return invitation.id;
  });
  const invitation = await ctx.db.models.AccountInvitation.findByPk(id, { include: [{ model: ctx.db.models.User, as: 'invitedBy', attributes: ['firstName', 'lastName'] }] });
  return { message: accountUserInvitedMessage(body.email), invitation: rowOf(invitation!) };
}

/** GET provider-clinic/{accountId}/invitations: the account's invitations awaiting acceptance, newest first. */
export async function pendingInvitations(ctx: Ctx, scope: AccountScope): Promise<AccountInvitationRow[]> {
  const rows = await ctx.db.models.AccountInvitation.findAll({
    where: { accountId: scope.accountId, status: AccountInvitationStatus.Pending },
    include: [{ model: ctx.db.models.User, as: 'invitedBy', attributes: ['firstName', 'lastName'] }],
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: 200,
  });
  return rows.map((r) => rowOf(r));
}

/** POST provider-clinic/{accountId}/invitations/{id}/cancel: the link stops working at once. */
export async function cancelInvitation(ctx: Ctx, caller: Caller, scope: AccountScope, invitationId: number): Promise<AccountInvitationRow[]> {
  await ctx.db.sequelize.transaction(async (transaction) => {
    const invitation = await ctx.db.models.AccountInvitation.findOne({ where: { id: invitationId, accountId: scope.accountId }, transaction, lock: transaction.LOCK.UPDATE });
    if (!invitation) throw notFound('Invitation not found');
    if (invitation.status !== AccountInvitationStatus.Pending) throw conflict(`This invitation was already ${invitation.status.toLowerCase()}`);
    await invitation.update({ status: AccountInvitationStatus.Cancelled, decidedAt: new Date() }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'access.account_invitation_cancelled', entityKind: 'user', entityId: null,
      details: { invitationId, accountId: scope.accountId, before: { status: AccountInvitationStatus.Pending }, after: { status: AccountInvitationStatus.Cancelled } },
    }, transaction);
  });
  return pendingInvitations(ctx, scope);
}

/** The invitation of an emailed token while it can still be accepted (404 / 410 otherwise). Locked when a transaction is given. */
async function usableInvitation(ctx: Ctx, token: string, transaction?: Transaction): Promise<AccountInvitation> {
  const invitation = await ctx.db.models.AccountInvitation.findOne({
    where: { tokenHash: hashToken(token) },
    include: [{ model: ctx.db.models.Account, as: 'account' }, { model: ctx.db.models.User, as: 'invitedBy', attributes: ['firstName', 'lastName'] }],
    ...(transaction ? { transaction, lock: { level: transaction.LOCK.UPDATE, of: ctx.db.models.AccountInvitation } } : {}),
  });
  if (!invitation || invitation.status !== AccountInvitationStatus.Pending) throw notFound(INVITATION_LINK_UNUSABLE);
  if (invitation.expiresAt.getTime() <= Date.now()) throw gone(INVITATION_EXPIRED);
  return invitation;
}

/** POST auth/account-invitation: what the link is for, to the one who holds it. */
export async function previewInvitation(ctx: Ctx, token: string): Promise<AccountInvitationPreview> {
  const i = await usableInvitation(ctx, token);
  return { accountName: i.account!.name, invitedBy: fullName(i.invitedBy ?? null), email: i.email, role: i.role, expiresAt: toIso(i.expiresAt)! };
}

/** The provider contact of the address, made (with its sign-in) from the invitation when there is none. */
async function contactFor(ctx: Ctx, i: AccountInvitation, transaction: Transaction): Promise<{ contact: Contact; isNew: boolean; userId: number }> {
  const { Contact: ContactM, User } = ctx.db.models;
  const byEmail = { [Op.and]: [ctx.db.sequelize.where(ctx.db.sequelize.fn('lower', ctx.db.sequelize.col('email')), i.email)] };
  const user = await User.findOne({ where: byEmail, transaction });
  if (user && user.kind !== UserKind.Provider) throw conflict(INVITATION_NOT_FOR_STAFF);
  let contact = await ContactM.findOne({ where: byEmail, transaction, lock: transaction.LOCK.UPDATE });
  const isNew = !user;
  if (!contact) {
    contact = await conflictOnDuplicate(() => ContactM.create({
      firstName: i.firstName, lastName: i.lastName, email: i.email, phone: i.phone, title: i.title, specialty: i.specialty, npi: i.npi,
      accessStatus: AccessStatus.Approved, requestedAccountName: null, requestNote: null, decisionReason: null,
      decidedByUserId: i.invitedByUserId, decidedAt: new Date(), userId: user?.id ?? null,
    }, { transaction }), { contacts_email_lower_key: { field: 'token', message: INVITATION_LINK_UNUSABLE }, contacts_npi_key: npiTaken(i.npi) });
  } else {
    // A person known from a request for access, or from another account: the invitation decides their access; an NPI they lack is the one given.
    const npi = contact.npi ?? i.npi;
    await conflictOnDuplicate(() => contact!.update({ accessStatus: AccessStatus.Approved, npi }, { transaction }), { contacts_npi_key: npiTaken(npi) });
  }
  const signIn = user ?? (await createSignInUser(ctx, transaction, { kind: UserKind.Provider, email: i.email, firstName: contact.firstName, lastName: contact.lastName }));
  if (contact.userId !== signIn.id) await contact.update({ userId: signIn.id }, { transaction });
  return { contact, isNew, userId: signIn.id };
}

/** POST auth/account-invitation/accept: the person joins the account; a new person chooses a password next. */
export async function acceptInvitation(ctx: Ctx, caller: Caller, token: string): Promise<AccountInvitationAccepted> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const i = await usableInvitation(ctx, token, transaction);
    const { contact, isNew, userId } = await contactFor(ctx, i, transaction);
    await grantAccounts(ctx.db, oneAccount(i.accountId), contact, [{ accountId: i.accountId, role: i.role }], transaction);
    await i.update({ status: AccountInvitationStatus.Accepted, decidedAt: new Date(), contactId: contact.id }, { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'access.account_invitation_accepted', entityKind: 'user', entityId: userId,
      details: { invitationId: i.id, contactId: contact.id, accountId: i.accountId, role: i.role, newUser: isNew },
    }, transaction);
    const account = i.account!.name;
    if (!isNew) return { message: `You now work in ${account}. Sign in to continue.`, next: 'sign-in', path: `${SIGN_IN_PORTAL_PATHS.provider}/login` };
    const link = await createPasswordLink(ctx, transaction, userId, 'provider', SET_PASSWORD_LINK_DAYS * 24 * 60);
    return { message: `You now work in ${account}. Choose your password to sign in.`, next: 'set-password', path: new URL(link).pathname + new URL(link).search };
  });
}
