/**
 * An account as the admin reads and edits it (issue 31, part 2): name, type, portal flags, phone,
 * shipping and billing addresses, departments, ordering physicians and the support mailbox per
 * test line. One transaction per edit; the audit event keeps the old and new value of each field
 * that changed (nothing when nothing did).
 */
import { Op, QueryTypes, type Transaction } from 'sequelize';
import {
  AccountAddressKind, type AdminAccountDetail, type SupportMailbox, type UpdateAccountBody,
} from '@platform/domain';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { conflict, conflictOnDuplicate, notFound } from '../errors';
import type { ServerContext } from '../context';
import { toIso } from '../answer-values';
import { accountAddress, saveAccountAddress } from './account-addresses';

type Ctx = Pick<ServerContext, 'db'>;

const accountNotFound = () => notFound('Account not found');
const duplicateName = (name: string) => ({ field: 'name', message: `An account named "${name}" already exists` });

/** The physicians of an account, each with whether an order names them. */
async function physiciansOf(ctx: Ctx, accountId: number, transaction?: Transaction): Promise<AdminAccountDetail['physicians']> {
  return ctx.db.sequelize.query<AdminAccountDetail['physicians'][number]>(
    `SELECT p.id::int AS id, p.first_name AS "firstName", p.last_name AS "lastName", p.npi, p.specialty,
            EXISTS (SELECT 1 FROM orders o WHERE o.physician_id = p.id) AS "hasOrders"
       FROM physicians p WHERE p.account_id = :accountId ORDER BY p.last_name, p.first_name, p.id`,
    { replacements: { accountId }, type: QueryTypes.SELECT, transaction },
  );
}

/** GET admin/accounts/{accountId}: everything the account page edits. */
export async function accountDetail(ctx: Ctx, accountId: number, transaction?: Transaction): Promise<AdminAccountDetail> {
  const { Account, Department, AccountSupportMailbox } = ctx.db.models;
  const account = await Account.findByPk(accountId, { transaction });
  if (!account) throw accountNotFound();
  // One after the other: inside the edit's transaction they share one connection.
  const shippingAddress = await accountAddress(ctx.db, accountId, AccountAddressKind.Shipping, transaction);
  const billingAddress = await accountAddress(ctx.db, accountId, AccountAddressKind.Billing, transaction);
  const departments = await Department.findAll({ where: { accountId }, order: [['name', 'ASC']], transaction });
  const physicians = await physiciansOf(ctx, accountId, transaction);
  const mailboxes = await AccountSupportMailbox.findAll({ where: { accountId }, order: [['testLine', 'ASC']], transaction });
  const counts = await ctx.db.sequelize.query<{ users: number; samples: number }>(
    `SELECT (SELECT count(*)::int FROM account_memberships m WHERE m.account_id = :accountId AND m.is_active) AS users,
            (SELECT count(*)::int FROM samples s WHERE s.account_id = :accountId) AS samples`,
    { replacements: { accountId }, type: QueryTypes.SELECT, transaction },
  );
  return {
    id: account.id, name: account.name, type: account.type, eapPartner: account.eapPartner, international: account.international,
    clinicAccess: account.clinicAccess, researchAccess: account.researchAccess, takesPatientOrders: account.takesPatientOrders,
    isActive: account.isActive, phone: account.phone ?? null, shippingAddress, billingAddress,
    departments: departments.map((d) => d.name), physicians,
    supportMailboxes: mailboxes.map((m) => ({ testLine: m.testLine, email: m.email })),
    userCount: counts[0].users, sampleCount: counts[0].samples,
    createdAt: toIso(account.createdAt)!, updatedAt: toIso(account.updatedAt)!,
  };
}

/** What the audit compares: the edited fields as plain values (physicians by NPI and name, mailboxes by line). */
function auditedValues(a: AdminAccountDetail) {
  return {
    name: a.name, type: a.type, eapPartner: a.eapPartner, international: a.international, clinicAccess: a.clinicAccess,
    researchAccess: a.researchAccess, takesPatientOrders: a.takesPatientOrders, phone: a.phone,
    shippingAddress: a.shippingAddress, billingAddress: a.billingAddress,
    departments: [...a.departments].sort((x, y) => x.localeCompare(y)),
    physicians: a.physicians.map((p) => `${p.firstName} ${p.lastName} (NPI ${p.npi}${p.specialty ? `, ${p.specialty}` : ''})`).sort(),
    supportMailboxes: Object.fromEntries([...a.supportMailboxes].sort((x, y) => x.testLine.localeCompare(y.testLine)).map((m) => [m.testLine, m.email])),
  };
}

/** The fields whose value differs, as { before, after } of those fields only. */
function changedFields<T extends Record<string, unknown>>(before: T, after: T): { before: Partial<T>; after: Partial<T> } | null {
  const keys = (Object.keys(after) as (keyof T)[]).filter((k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null));
  if (!keys.length) return null;
  return { before: Object.fromEntries(keys.map((k) => [k, before[k] ?? null])) as Partial<T>, after: Object.fromEntries(keys.map((k) => [k, after[k] ?? null])) as Partial<T> };
}

/** Departments: the removed names go, the new ones come (a name's row stays while it is kept). */
async function saveDepartments(ctx: Ctx, transaction: Transaction, accountId: number, names: string[]): Promise<void> {
  const { Department } = ctx.db.models;
  const kept = new Set(names.map((n) => n.toLowerCase()));
  const existing = await Department.findAll({ where: { accountId }, transaction });
  const gone = existing.filter((d) => !kept.has(d.name.toLowerCase()));
  if (gone.length) await Department.destroy({ where: { id: { [Op.in]: gone.map((d) => d.id) } }, transaction });
  const have = new Set(existing.filter((d) => kept.has(d.name.toLowerCase())).map((d) => d.name.toLowerCase()));
  const added = names.filter((n) => !have.has(n.toLowerCase()));
  if (added.length) await Department.bulkCreate(added.map((name) => ({ accountId, name })), { transaction });
}

/**
 * Physicians: a listed id must be one of this account's (else 404, as for any id the caller may
 * not touch); an id left out is removed, unless an order names that physician (409 naming them:
 * the order keeps its physician); a row without id is a new physician.
 */
async function savePhysicians(ctx: Ctx, transaction: Transaction, accountId: number, physicians: UpdateAccountBody['physicians']): Promise<void> {
  const { Physician } = ctx.db.models;
  const current = await physiciansOf(ctx, accountId, transaction);
  const byId = new Map(current.map((p) => [p.id, p]));
  physicians.forEach((p, i) => {
    if (p.id !== null && !byId.has(p.id)) throw notFound(`Physician ${i + 1} is not a physician of this account`);
  });
  const listed = new Set(physicians.map((p) => p.id).filter((id): id is number => id !== null));
  const removed = current.filter((p) => !listed.has(p.id));
  const ordered = removed.filter((p) => p.hasOrders);
  if (ordered.length) {
    const names = ordered.map((p) => `${p.firstName} ${p.lastName}`).join(', ');
    throw conflict(`${names} ${ordered.length === 1 ? 'is' : 'are'} named on orders and cannot be removed from the account`, [{ field: 'physicians', message: `${names} ${ordered.length === 1 ? 'is' : 'are'} named on orders and cannot be removed` }]);
  }
  if (removed.length) await Physician.destroy({ where: { id: { [Op.in]: removed.map((p) => p.id) }, accountId }, transaction });
  for (const p of physicians) {
    const values = { firstName: p.firstName, lastName: p.lastName, npi: p.npi, specialty: p.specialty };
    if (p.id === null) await Physician.create({ accountId, contactId: null, ...values }, { transaction });
    else await Physician.update(values, { where: { id: p.id, accountId }, transaction });
  }
}

/** Support mailboxes: one row per test line given; a line left out goes back to the lab's address. */
async function saveSupportMailboxes(ctx: Ctx, transaction: Transaction, accountId: number, mailboxes: SupportMailbox[]): Promise<void> {
  const { AccountSupportMailbox } = ctx.db.models;
  await AccountSupportMailbox.destroy({ where: { accountId }, transaction });
  if (mailboxes.length) await AccountSupportMailbox.bulkCreate(mailboxes.map((m) => ({ accountId, testLine: m.testLine, email: m.email })), { transaction });
}

/** PUT admin/accounts/{accountId}: the account as edited, in one transaction, audited with the old and new value of each changed field. */
export async function updateAccount(ctx: Ctx, caller: UserCaller, accountId: number, body: UpdateAccountBody): Promise<AdminAccountDetail> {
  const { Account } = ctx.db.models;
  const { sequelize } = ctx.db;
  return sequelize.transaction(async (transaction) => {
    const account = await Account.findByPk(accountId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!account) throw accountNotFound();
    const before = await accountDetail(ctx, accountId, transaction);
    const taken = await Account.count({
      where: { [Op.and]: [sequelize.where(sequelize.fn('lower', sequelize.fn('btrim', sequelize.col('name'))), body.name.toLowerCase()), { id: { [Op.ne]: accountId } }] },
      transaction,
    });
    if (taken) throw conflict(duplicateName(body.name).message, [duplicateName(body.name)]);
    await conflictOnDuplicate(
      () => account.update({
        name: body.name, type: body.type, eapPartner: body.eapPartner, international: body.international, clinicAccess: body.clinicAccess,
        researchAccess: body.researchAccess, takesPatientOrders: body.takesPatientOrders, phone: body.phone,
      }, { transaction }),
      { accounts_name_lower_key: duplicateName(body.name) },
    );
    await saveAccountAddress(ctx.db, transaction, accountId, AccountAddressKind.Shipping, body.shippingAddress);
    await saveAccountAddress(ctx.db, transaction, accountId, AccountAddressKind.Billing, body.billingAddress);
    await saveDepartments(ctx, transaction, accountId, body.departments);
    await savePhysicians(ctx, transaction, accountId, body.physicians);
    await saveSupportMailboxes(ctx, transaction, accountId, body.supportMailboxes);
    const after = await accountDetail(ctx, accountId, transaction);
    const changes = changedFields(auditedValues(before), auditedValues(after));
    if (changes) {
      await recordAudit(ctx.db, { ...auditActor(caller), action: 'account.updated', entityKind: 'account', entityId: accountId, details: changes }, transaction);
    }
    return after;
  });
}
