/**
 * Provider people: finding them, a request for access (a Pending contact), the admin's decision
 * (approve with accounts and roles, or deny with a reason), and registering a provider directly.
 * A new user is emailed a single-use link to set their password.
 */
import { Op, type Transaction } from 'sequelize';
import type { Contact } from '@platform/db';
import {
  AccessStatus, ADMIN_TOASTS, UserKind, type AccountGrant, type ContactDetail, type ContactRow, type ContactsQuery, type ProviderRegistered, type RegisterProviderBody,
  type RequestAccessBody, type SignInPortal, type UpdateAccessBody, type MessageAnswer,
} from '@platform/domain';
import { accessDeniedEmail } from '../email/templates';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflict, conflictOnDuplicate, notFound } from '../errors';
import { queueEmail } from '../email/queue-email';
import type { ServerContext } from '../context';
import { containsPattern } from '../answer-values';
import { offsetOf, plainPage } from '../paging';
import { CONTACT_ROW_SELECT, CONTACT_USER_JOIN, contactDetail, contactRowOf, contactRowsWhere, type ContactRowRaw } from './contact-rows';
import { grantAccounts } from './memberships';
import { assertEmailFree, createSignInUser, duplicateEmail, duplicateNpi, sendSetPasswordLink } from './new-users';
import { ALL_ACCOUNTS, scopedAccountId, type AccessScope } from './scope';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

/**
 * Provider people, by name or email, account and access status. An account's super admin sees
 * that account's only, including those whose access was removed (to give it back); an admin's
 * account filter means the people with access to it.
 */
export async function listContacts(ctx: Ctx, scope: AccessScope, query: ContactsQuery): Promise<{ rows: ContactRow[]; total: number }> {
  const accountId = scopedAccountId(scope) ?? query.accountId;
  const filters: string[] = [];
  if (query.q) filters.push('(c.first_name ILIKE :q OR c.last_name ILIKE :q OR c.email ILIKE :q)');
  if (query.status) filters.push('c.access_status = :status');
  if (accountId) {
    // The people with access to the account; an account's super admin also sees those whose access was removed.
    filters.push(`c.id IN (SELECT m.contact_id FROM account_memberships m WHERE m.account_id = :accountId${scope.kind === 'account' ? '' : ' AND m.removed_at IS NULL'})`);
  }
  const where = filters.length ? `WHERE ${filters.join(' AND ')}` : '';
  // One statement: the page, each row's sign-in and accounts, and the total (a long list's counted once and reused, as every list's).
  const { rows, total } = await plainPage<ContactRowRaw>(ctx.db, {
    select: `SELECT ${CONTACT_ROW_SELECT} FROM contacts c ${CONTACT_USER_JOIN} ${where}
              ORDER BY c.last_name, c.first_name, c.id LIMIT :limit OFFSET :offset`,
    fromWhere: `FROM contacts c ${where}`,
    replacements: {
      ...(query.q ? { q: containsPattern(query.q) } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(accountId ? { accountId } : {}),
      membershipAccountId: scopedAccountId(scope),
      limit: query.pageSize,
      offset: offsetOf(query.page, query.pageSize),
    },
  });
  return { rows: rows.map(contactRowOf), total };
}

/** Requests waiting for a decision, oldest first. */
export async function pendingContacts(ctx: Ctx): Promise<ContactRow[]> {
  return contactRowsWhere(ctx.db, 'c.access_status = :pending', { pending: AccessStatus.Pending }, { kind: 'all' }, 'ORDER BY c.created_at, c.id LIMIT 200');
}

/** Which portal's link a new provider gets: the Clinical Portal when any of their accounts has clinic access. */
async function portalFor(ctx: Ctx, grants: AccountGrant[], transaction: Transaction): Promise<SignInPortal> {
  const clinic = await ctx.db.models.Account.count({ where: { id: { [Op.in]: grants.map((g) => g.accountId) }, clinicAccess: true }, transaction });
  return clinic ? 'provider' : 'research';
}

/** Makes a contact a user: the sign-in row, the accounts, the set-password email. */
async function admitProvider(ctx: Ctx, caller: Caller, scope: AccessScope, contact: Contact, grants: AccountGrant[], transaction: Transaction) {
  const user = await createSignInUser(ctx, transaction, { kind: UserKind.Provider, email: contact.email, firstName: contact.firstName, lastName: contact.lastName });
  await contact.update({ userId: user.id }, { transaction });
  await grantAccounts(ctx.db, scope, contact, grants, transaction);
  await sendSetPasswordLink(ctx, transaction, user, await portalFor(ctx, grants, transaction), caller.userId);
  return user;
}

/** The lab's admin registers a provider directly (an account's Super Admin invites instead: account-invitations.service.ts). */
export async function registerProvider(
  ctx: Ctx,
  caller: Caller,
  scope: AccessScope,
  body: RegisterProviderBody,
): Promise<ProviderRegistered> {
  const contactId = await ctx.db.sequelize.transaction(async (transaction) => {
    await assertEmailFree(ctx, body.email, transaction);
    const contact = await conflictOnDuplicate(
      () => ctx.db.models.Contact.create(
        {
          firstName: body.firstName, lastName: body.lastName, email: body.email, phone: body.phone, title: body.title, specialty: body.specialty,
          npi: body.npi, accessStatus: AccessStatus.Approved, requestedAccountName: null, requestNote: null, decisionReason: null,
          decidedByUserId: caller.userId, decidedAt: new Date(), userId: null,
        },
        { transaction },
      ),
      { contacts_email_lower_key: duplicateEmail(body.email), contacts_npi_key: duplicateNpi(body.npi) },
    );
    const user = await admitProvider(ctx, caller, scope, contact, body.accounts, transaction);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'access.provider_registered', entityKind: 'user', entityId: user.id,
      details: { contactId: contact.id, after: { title: body.title, accounts: body.accounts } },
    }, transaction);
    return contact.id;
  });
  return { message: ADMIN_TOASTS.userCreated, contact: await contactDetail(ctx.db, contactId, scope) };
}

/**
 * POST admin/contacts/{contactId}/npi: a provider's NPI set or corrected; the physician entries made
 * from it (one per account, what orders name) follow. One NPI, one person (409 naming it).
 */
export async function setContactNpi(ctx: Ctx, caller: Caller, contactId: number, npi: string | null): Promise<ContactDetail> {
  await ctx.db.sequelize.transaction(async (transaction) => {
    const contact = await ctx.db.models.Contact.findByPk(contactId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!contact) throw notFound('User not found');
    const before = contact.npi;
    if (before === npi) return;
    await conflictOnDuplicate(() => contact.update({ npi }, { transaction }), { contacts_npi_key: duplicateNpi(npi) });
    await ctx.db.models.Physician.update({ npi }, { where: { contactId }, transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'access.npi_changed', entityKind: 'user', entityId: contact.userId,
      details: { contactId, before: { npi: before }, after: { npi } },
    }, transaction);
  });
  return contactDetail(ctx.db, contactId, ALL_ACCOUNTS);
}

/** The same answer whether or not the email is known: the request never tells who has access. */
export const REQUEST_ACCESS_ANSWER =
  'Thank you. Your request has been received: the lab reviews it and emails you when your access is ready.';

/** Someone asks for access from the provider sign-in page: a Pending contact, unless the email is already known. */
export async function requestAccess(ctx: Ctx, caller: Caller, body: RequestAccessBody): Promise<MessageAnswer> {
  const { Contact, User } = ctx.db.models;
  const email = body.email.toLowerCase();
  const known = (await Contact.count({ where: { email } })) + (await User.count({ where: { email } }));
  if (known) return { message: REQUEST_ACCESS_ANSWER };
  // An NPI another user has is not kept (the same answer either way): the admin asks for it at approval.
  const npi = body.npi && !(await Contact.count({ where: { npi: body.npi } })) ? body.npi : null;
  try {
    await ctx.db.sequelize.transaction(async (transaction) => {
      const contact = await Contact.create(
        {
          firstName: body.firstName, lastName: body.lastName, email, phone: body.phone, title: body.title, specialty: body.specialty, npi,
          accessStatus: AccessStatus.Pending, requestedAccountName: body.accountName, requestNote: body.note, decisionReason: null,
          decidedByUserId: null, decidedAt: null, userId: null,
        },
        { transaction },
      );
      await recordAudit(ctx.db, { ...auditActor(caller), action: 'access.requested', entityKind: 'user', entityId: null, details: { contactId: contact.id } }, transaction);
    });
  } catch (err) {
    // The same request twice at once: the unique email index kept one; the answer stays the same.
    if ((err as Error).name !== 'SequelizeUniqueConstraintError') throw err;
  }
  return { message: REQUEST_ACCESS_ANSWER };
}

/** The admin's decision on a Pending contact: approval admits them to accounts, a denial emails the reason. */
export async function updateAccess(ctx: Ctx, caller: Caller, body: UpdateAccessBody): Promise<ContactDetail> {
  const scope: AccessScope = { kind: 'all' };
  await ctx.db.sequelize.transaction(async (transaction) => {
    const contact = await ctx.db.models.Contact.findByPk(body.contactId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!contact) throw notFound('Access request not found');
    if (contact.accessStatus !== AccessStatus.Pending) throw conflict(`This request was already decided: ${contact.accessStatus}`);
    const decided = { accessStatus: body.decision, decidedByUserId: caller.userId, decidedAt: new Date(), decisionReason: body.reason };
    await contact.update(decided, { transaction });
    // The NPI the approval gives (a Physician role needs one: grantAccounts says so when it is missing).
    if (body.decision === AccessStatus.Approved && body.npi && body.npi !== contact.npi) {
      await conflictOnDuplicate(() => contact.update({ npi: body.npi }, { transaction }), { contacts_npi_key: duplicateNpi(body.npi) });
    }
    if (body.decision === AccessStatus.Approved) {
      await assertEmailFree(ctx, contact.email, transaction, { contacts: false });
      await admitProvider(ctx, caller, scope, contact, body.accounts, transaction);
    } else {
      await queueEmail(ctx, transaction, {
        to: contact.email,
        ...accessDeniedEmail({ brand: ctx.config.brand, firstName: contact.firstName, reason: body.reason! }),
        createdByUserId: caller.userId,
      });
    }
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'access.decided', entityKind: 'user', entityId: contact.userId,
      details: { contactId: contact.id, before: { accessStatus: AccessStatus.Pending }, after: { accessStatus: body.decision, accounts: body.accounts } },
    }, transaction);
  });
  return contactDetail(ctx.db, body.contactId, scope);
}
