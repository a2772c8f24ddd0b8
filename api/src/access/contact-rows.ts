/** Contacts as the admin pages and the account-users page read them: the person, their sign-in and their accounts. */
import { Op } from 'sequelize';
import type { Contact, Db } from '@platform/db';
import { AccountRole, fullName, type AccountRole as Role, type ContactDetail, type ContactRow } from '@platform/domain';
import { notFound } from '@platform/server';
import { toIso } from '../http/answer-values';
import type { AccessScope } from './scope';
import { scopedAccountId } from './scope';

/** Rows for these contacts, their standing memberships (not removed ones) limited to the scope's account when it has one. */
export async function contactRows(db: Db, contacts: Contact[], scope: AccessScope): Promise<ContactRow[]> {
  if (!contacts.length) return [];
  const { User, AccountMembership, Account } = db.models;
  const accountId = scopedAccountId(scope);
  const userIds = contacts.map((c) => c.userId).filter((id): id is number => id !== null);
  const [users, memberships] = await Promise.all([
    userIds.length ? User.findAll({ where: { id: { [Op.in]: userIds } }, attributes: ['id', 'isActive', 'lastLoginAt'] }) : [],
    AccountMembership.findAll({
      where: { contactId: { [Op.in]: contacts.map((c) => c.id) }, removedAt: null, ...(accountId ? { accountId } : {}) },
      include: [{ model: Account, as: 'account', attributes: ['id', 'name'] }],
      order: [['id', 'ASC']],
    }),
  ]);
  return contacts.map((c): ContactRow => {
    const user = users.find((u) => u.id === c.userId);
    return {
      id: c.id,
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email,
      phone: c.phone,
      title: c.title,
      specialty: c.specialty,
      npi: c.npi,
      accessStatus: c.accessStatus,
      requestedAccountName: c.requestedAccountName,
      requestNote: c.requestNote,
      decisionReason: c.decisionReason,
      decidedAt: toIso(c.decidedAt),
      userId: c.userId,
      userActive: user ? user.isActive : null,
      lastLoginAt: toIso(user?.lastLoginAt),
      memberships: memberships
        .filter((m) => m.contactId === c.id)
        .map((m) => ({ accountId: m.accountId, accountName: m.account!.name, role: m.role as Role, isActive: m.isActive })),
      createdAt: c.createdAt.toISOString(),
    };
  });
}

/**
 * One contact in the scope, with their staff links. An account's super admin sees only the
 * account's people: those with access to it and those whose access was removed (no memberships shown).
 */
export async function contactDetail(db: Db, contactId: number, scope: AccessScope): Promise<ContactDetail> {
  const contact = await db.models.Contact.findByPk(contactId);
  if (!contact) throw notFound('User not found');
  if (scope.kind === 'account' && !(await db.models.AccountMembership.count({ where: { contactId, accountId: scope.accountId } }))) throw notFound('User not found');
  const [row] = await contactRows(db, [contact], scope);
  return { ...row, staffLinks: await staffLinksOf(db, contact.id, scopedAccountId(scope)) };
}

async function staffLinksOf(db: Db, staffContactId: number, accountId: number | null): Promise<ContactDetail['staffLinks']> {
  const { ProviderStaffRelationship, Contact } = db.models;
  const links = await ProviderStaffRelationship.findAll({
    where: { staffContactId, ...(accountId ? { accountId } : {}) },
    include: [{ model: Contact, as: 'physician', attributes: ['id', 'firstName', 'lastName'] }],
    order: [['accountId', 'ASC'], ['id', 'ASC']],
  });
  const byAccount = new Map<number, { contactId: number; name: string }[]>();
  for (const l of links) {
    const list = byAccount.get(l.accountId) ?? [];
    list.push({ contactId: l.physicianContactId, name: fullName(l.physician!) });
    byAccount.set(l.accountId, list);
  }
  return [...byAccount].map(([id, physicians]) => ({ accountId: id, physicians }));
}

/** The role a contact holds in an account, or null. */
export async function roleIn(db: Db, contactId: number, accountId: number): Promise<Role | null> {
  const m = await db.models.AccountMembership.findOne({ where: { contactId, accountId, removedAt: null } });
  return (m?.role as Role | undefined) ?? null;
}

export const isSuperAdmin = (role: Role | null | undefined) => role === AccountRole.SuperAdmin;
