/** Contacts as the admin pages and the account-users page read them: the person, their sign-in and their accounts. */
import { queryPrepared, type Db } from '@platform/db';
import { fullName, type AccountRole as Role, type ContactDetail, type ContactRow } from '@platform/domain';
import { notFound } from '../errors';
import { toIso } from '../answer-values';
import { type AccessScope, scopedAccountId } from './scope';

/**
 * What a contact row reads, for contacts `c`: the person, their sign-in (`u`, joined by the caller:
 * CONTACT_USER_JOIN) and their standing memberships (not removed ones) as JSON, limited to the
 * account `:membershipAccountId` when it is not null (the scope's account).
 */
export const CONTACT_ROW_SELECT = `c.id, c.first_name, c.last_name, c.email, c.phone, c.title, c.specialty, c.npi, c.access_status,
  c.requested_account_name, c.request_note, c.decision_reason, c.decided_at, c.user_id, c.created_at,
  u.is_active AS user_active, u.last_login_at,
  COALESCE((SELECT jsonb_agg(jsonb_build_object('accountId', m.account_id, 'accountName', a.name, 'role', m.role, 'isActive', m.is_active) ORDER BY m.id)
              FROM account_memberships m JOIN accounts a ON a.id = m.account_id
             WHERE m.contact_id = c.id AND m.removed_at IS NULL AND (CAST(:membershipAccountId AS bigint) IS NULL OR m.account_id = :membershipAccountId)), '[]'::jsonb) AS memberships`;
export const CONTACT_USER_JOIN = 'LEFT JOIN users u ON u.id = c.user_id';

export interface ContactRowRaw {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  title: ContactRow['title'];
  specialty: ContactRow['specialty'];
  npi: string | null;
  access_status: ContactRow['accessStatus'];
  requested_account_name: string | null;
  request_note: string | null;
  decision_reason: string | null;
  decided_at: Date | null;
  user_id: number | null;
  created_at: Date;
  user_active: boolean | null;
  last_login_at: Date | null;
  memberships: { accountId: number; accountName: string; role: Role; isActive: boolean }[];
}

export function contactRowOf(c: ContactRowRaw): ContactRow {
  return {
    id: c.id,
    firstName: c.first_name,
    lastName: c.last_name,
    email: c.email,
    phone: c.phone,
    title: c.title,
    specialty: c.specialty,
    npi: c.npi,
    accessStatus: c.access_status,
    requestedAccountName: c.requested_account_name,
    requestNote: c.request_note,
    decisionReason: c.decision_reason,
    decidedAt: toIso(c.decided_at),
    userId: c.user_id,
    userActive: c.user_active,
    lastLoginAt: toIso(c.last_login_at),
    memberships: c.memberships,
    createdAt: new Date(c.created_at).toISOString(),
  };
}

/**
 * Contact rows matching `where` (SQL over contacts `c`, with `values`), in the order `tail` gives
 * (and its LIMIT), their standing memberships limited to the scope's account when it has one.
 */
export async function contactRowsWhere(db: Db, where: string, values: Record<string, unknown>, scope: AccessScope, tail = ''): Promise<ContactRow[]> {
  const raw = await queryPrepared<ContactRowRaw>(db,
    `SELECT ${CONTACT_ROW_SELECT} FROM contacts c ${CONTACT_USER_JOIN} WHERE ${where} ${tail}`,
    { ...values, membershipAccountId: scopedAccountId(scope) });
  return raw.map(contactRowOf);
}

/**
 * One contact in the scope, with their staff links. An account's super admin sees only the
 * account's people: those with access to it and those whose access was removed (no memberships shown).
 */
export async function contactDetail(db: Db, contactId: number, scope: AccessScope): Promise<ContactDetail> {
  const [row] = await contactRowsWhere(db, 'c.id = :contactId', { contactId }, scope);
  if (!row) throw notFound('User not found');
  if (scope.kind === 'account' && !(await db.models.AccountMembership.count({ where: { contactId, accountId: scope.accountId } }))) throw notFound('User not found');
  return { ...row, staffLinks: await staffLinksOf(db, contactId, scopedAccountId(scope)) };
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
