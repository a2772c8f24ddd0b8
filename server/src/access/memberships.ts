/**
 * Who may act in which account, and as what: account access and roles, super admins, activation,
 * and the physicians a support staff member works for. Admins act on every account; an account's
 * Super Admin on theirs only (the scope). One transaction and one audit event (before and after) per command.
 */
import { Op, type Transaction } from 'sequelize';
import type { Contact, Db } from '@platform/db';
import {
  AccessStatus, AccountRole, ProviderTitle, type AccountAccessBody, type AccountGrant, type ActivateDeactivateBody, type ContactDetail,
  type ContactInAccountBody, type StaffLinksBody, type SupportStaffRow, fullName,
} from '@platform/domain';
import { auditActor, recordAudit, type Caller } from '../audit';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import type { ServerContext } from '../context';
import { endSessionsOf } from './password-links';
import { contactDetail } from './contact-rows';
import { assertAccountInScope, type AccessScope } from './scope';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

/** The accounts exist and are in scope; an account may be named once. */
async function checkGrants(db: Db, scope: AccessScope, grants: AccountGrant[], transaction: Transaction): Promise<void> {
  for (const g of grants) assertAccountInScope(scope, g.accountId);
  const found = await db.models.Account.count({ where: { id: { [Op.in]: grants.map((g) => g.accountId) } }, transaction });
  if (found !== grants.length) throw notFound('Account not found');
}

/**
 * Gives a contact access to accounts with roles (re-activating access that was removed or
 * deactivated: the same row comes back); a Physician gets a physician entry in the account, so orders can name them.
 */
export async function grantAccounts(db: Db, scope: AccessScope, contact: Contact, grants: AccountGrant[], transaction: Transaction): Promise<void> {
  await checkGrants(db, scope, grants, transaction);
  const { AccountMembership, Physician } = db.models;
  for (const g of grants) {
    if (g.role === AccountRole.Physician && !contact.npi) {
      throw badRequest('A physician needs an NPI to order', [{ field: 'npi', message: 'NPI is required for the Physician role' }]);
    }
    const existing = await AccountMembership.findOne({ where: { accountId: g.accountId, contactId: contact.id }, transaction, lock: transaction.LOCK.UPDATE });
    if (existing) await existing.update({ role: g.role, isActive: true, removedAt: null }, { transaction });
    else await AccountMembership.create({ accountId: g.accountId, contactId: contact.id, role: g.role, isActive: true }, { transaction });
    if (g.role === AccountRole.Physician || contact.title === ProviderTitle.Physician) {
      const doctor = await Physician.findOne({ where: { accountId: g.accountId, contactId: contact.id }, transaction });
      if (!doctor && contact.npi) {
        await Physician.create(
          { accountId: g.accountId, contactId: contact.id, firstName: contact.firstName, lastName: contact.lastName, npi: contact.npi, specialty: contact.specialty },
          { transaction },
        );
      }
    }
  }
}

/**
 * A contact the scope may manage, locked for the command. Super admins manage only their account's
 * people: those with access to it, and those whose access was removed (to give it back).
 */
async function managedContact(db: Db, scope: AccessScope, contactId: number, transaction: Transaction): Promise<Contact> {
  const contact = await db.models.Contact.findByPk(contactId, { transaction, lock: transaction.LOCK.UPDATE });
  if (!contact) throw notFound('User not found');
  if (scope.kind === 'account') {
    const member = await db.models.AccountMembership.count({ where: { contactId, accountId: scope.accountId }, transaction });
    if (!member) throw notFound('User not found');
  }
  return contact;
}

/** The contact's standing memberships (removed ones are not access), for the audit's before and after. */
function membershipSnapshot(db: Db, contactId: number, transaction: Transaction) {
  return db.models.AccountMembership.findAll({ where: { contactId, removedAt: null }, attributes: ['accountId', 'role', 'isActive'], order: [['accountId', 'ASC']], transaction, raw: true });
}

/** Runs one access command on a contact: lock, change, audit with before and after, answer the contact as the scope sees it. */
async function accessCommand(
  ctx: Ctx,
  caller: Caller,
  scope: AccessScope,
  contactId: number,
  action: string,
  change: (contact: Contact, transaction: Transaction) => Promise<Record<string, unknown> | void>,
): Promise<ContactDetail> {
  const { db } = ctx;
  await db.sequelize.transaction(async (transaction) => {
    const contact = await managedContact(db, scope, contactId, transaction);
    if (contact.accessStatus !== AccessStatus.Approved || !contact.userId) throw conflict('This provider has not been approved yet: decide their access request first');
    const before = await membershipSnapshot(db, contact.id, transaction);
    const extra = await change(contact, transaction);
    const after = await membershipSnapshot(db, contact.id, transaction);
    await recordAudit(db, { ...auditActor(caller), action, entityKind: 'user', entityId: contact.userId, details: { contactId: contact.id, before, after, ...(extra ?? {}) } }, transaction);
  });
  return contactDetail(db, contactId, scope);
}

/** An account must keep an active super admin: its users would have no one to manage them. */
async function assertKeepsSuperAdmin(db: Db, accountId: number, leavingContactId: number, transaction: Transaction): Promise<void> {
  const others = await db.models.AccountMembership.count({
    where: { accountId, role: AccountRole.SuperAdmin, isActive: true, contactId: { [Op.ne]: leavingContactId } },
    transaction,
  });
  if (!others) throw conflict('The account must keep at least one active super admin: make someone else super admin first');
}

async function isActiveSuperAdminOf(db: Db, contactId: number, accountId: number, transaction: Transaction) {
  return (await db.models.AccountMembership.count({ where: { contactId, accountId, role: AccountRole.SuperAdmin, isActive: true }, transaction })) > 0;
}

export function addAccountAccess(ctx: Ctx, caller: Caller, scope: AccessScope, body: AccountAccessBody): Promise<ContactDetail> {
  assertAccountInScope(scope, body.accountId);
  return accessCommand(ctx, caller, scope, body.contactId, 'access.account_access_added', async (contact, transaction) => {
    if (scope.kind === 'account' && body.role !== AccountRole.SuperAdmin && (await isActiveSuperAdminOf(ctx.db, contact.id, body.accountId, transaction))) {
      await assertKeepsSuperAdmin(ctx.db, body.accountId, contact.id, transaction);
    }
    await grantAccounts(ctx.db, scope, contact, [{ accountId: body.accountId, role: body.role }], transaction);
  });
}

export function addSuperAdmin(ctx: Ctx, caller: Caller, scope: AccessScope, body: ContactInAccountBody): Promise<ContactDetail> {
  return addAccountAccess(ctx, caller, scope, { ...body, role: AccountRole.SuperAdmin });
}

/**
 * Removes a contact's access to an account (their staff links there go too); the next request they
 * make there is refused. The membership stays as a removed (inactive) row: the account's super
 * admin still finds them, shown with no access, and add-account-access gives it back.
 */
export function removeAccountAccess(ctx: Ctx, caller: Caller, scope: AccessScope, body: ContactInAccountBody): Promise<ContactDetail> {
  assertAccountInScope(scope, body.accountId);
  return accessCommand(ctx, caller, scope, body.contactId, 'access.account_access_removed', async (contact, transaction) => {
    const { AccountMembership, ProviderStaffRelationship } = ctx.db.models;
    const membership = await AccountMembership.findOne({ where: { contactId: contact.id, accountId: body.accountId, removedAt: null }, transaction });
    if (!membership) throw notFound('This user has no access to that account');
    if (scope.kind === 'account' && (await isActiveSuperAdminOf(ctx.db, contact.id, body.accountId, transaction))) {
      await assertKeepsSuperAdmin(ctx.db, body.accountId, contact.id, transaction);
    }
    await ProviderStaffRelationship.destroy({
      where: { accountId: body.accountId, [Op.or]: [{ staffContactId: contact.id }, { physicianContactId: contact.id }] },
      transaction,
    });
    await membership.update({ isActive: false, removedAt: new Date() }, { transaction });
  });
}

/**
 * With an account: the contact's access to it (a super admin's only kind). Without: the user as a
 * whole, admins only; deactivating ends their sessions at once.
 */
export function activateDeactivate(ctx: Ctx, caller: Caller, scope: AccessScope, body: ActivateDeactivateBody): Promise<ContactDetail> {
  if (body.accountId === null && scope.kind === 'account') throw forbidden('Only the lab\'s administrators can deactivate a user in every account');
  if (body.accountId !== null) assertAccountInScope(scope, body.accountId);
  const action = body.active ? 'access.activated' : 'access.deactivated';
  return accessCommand(ctx, caller, scope, body.contactId, action, async (contact, transaction) => {
    const { AccountMembership, User } = ctx.db.models;
    if (body.accountId !== null) {
      const membership = await AccountMembership.findOne({ where: { contactId: contact.id, accountId: body.accountId, removedAt: null }, transaction });
      if (!membership) throw notFound('This user has no access to that account');
      if (!body.active && scope.kind === 'account' && membership.role === AccountRole.SuperAdmin) {
        await assertKeepsSuperAdmin(ctx.db, body.accountId, contact.id, transaction);
      }
      await membership.update({ isActive: body.active }, { transaction });
      return { accountId: body.accountId };
    }
    const user = await User.findByPk(contact.userId!, { transaction, lock: transaction.LOCK.UPDATE });
    const before = user!.isActive;
    await user!.update({ isActive: body.active }, { transaction });
    if (!body.active) await endSessionsOf(ctx, user!.id, transaction);
    return { userActive: { before, after: body.active } };
  });
}

/** The support staff of an account and the physicians each works for. */
export async function supportStaffOf(db: Db, scope: AccessScope, accountId: number): Promise<SupportStaffRow[]> {
  assertAccountInScope(scope, accountId);
  const { AccountMembership, Contact, ProviderStaffRelationship } = db.models;
  if (!(await db.models.Account.count({ where: { id: accountId } }))) throw notFound('Account not found');
  const staff = await AccountMembership.findAll({
    where: { accountId, role: AccountRole.SupportStaff, removedAt: null },
    include: [{ model: Contact, as: 'contact', attributes: ['id', 'firstName', 'lastName', 'email'] }],
  });
  const links = await ProviderStaffRelationship.findAll({
    where: { accountId },
    include: [{ model: Contact, as: 'physician', attributes: ['id', 'firstName', 'lastName'] }],
    order: [['id', 'ASC']],
  });
  return staff
    .map((m) => m.contact!)
    .sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName))
    .map((c) => ({
      contactId: c.id,
      name: fullName(c),
      email: c.email,
      physicians: links.filter((l) => l.staffContactId === c.id).map((l) => ({ contactId: l.physicianContactId, name: fullName(l.physician!) })),
    }));
}

/** Replaces the physicians a support staff member works for in an account (both must hold those roles there). */
export async function upsertStaffLinks(ctx: Ctx, caller: Caller, scope: AccessScope, body: StaffLinksBody): Promise<SupportStaffRow[]> {
  assertAccountInScope(scope, body.accountId);
  const { AccountMembership, ProviderStaffRelationship } = ctx.db.models;
  await ctx.db.sequelize.transaction(async (transaction) => {
    // Locked: two replacements of the same staff member's links at once run one after the other
    // (otherwise both delete, both insert, and the second hits provider_staff_relationships_key).
    const staff = await AccountMembership.findOne({ where: { accountId: body.accountId, contactId: body.staffContactId, removedAt: null }, transaction, lock: transaction.LOCK.UPDATE });
    if (!staff) throw notFound('User not found');
    if (staff.role !== AccountRole.SupportStaff) throw badRequest('Only support staff work for physicians', [{ field: 'staffContactId', message: 'This user is not support staff in the account' }]);
    const physicians = await AccountMembership.count({
      where: { accountId: body.accountId, role: AccountRole.Physician, removedAt: null, contactId: { [Op.in]: body.physicianContactIds } },
      transaction,
    });
    if (physicians !== body.physicianContactIds.length) {
      throw badRequest('Choose physicians of this account', [{ field: 'physicianContactIds', message: 'Every linked person must be a physician of the account' }]);
    }
    const before = (await ProviderStaffRelationship.findAll({ where: { accountId: body.accountId, staffContactId: body.staffContactId }, transaction })).map((l) => l.physicianContactId);
    await ProviderStaffRelationship.destroy({ where: { accountId: body.accountId, staffContactId: body.staffContactId }, transaction });
    await ProviderStaffRelationship.bulkCreate(
      body.physicianContactIds.map((physicianContactId) => ({ accountId: body.accountId, staffContactId: body.staffContactId, physicianContactId })),
      { transaction },
    );
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'access.staff_links_set', entityKind: 'account', entityId: body.accountId,
      details: { staffContactId: body.staffContactId, before, after: body.physicianContactIds },
    }, transaction);
  });
  return supportStaffOf(ctx.db, scope, body.accountId);
}
