/** Accounts as the admin creates and finds them, and what needs an admin's attention now. */
import { Op, QueryTypes } from 'sequelize';
import type { Account } from '@platform/db';
import { AccessStatus, AccountAddressKind, EmailStatus, JobStatus, type AccountsQuery, type AdminAccountRow, type AdminAttention, type CreateAccountBody } from '@platform/domain';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflict, conflictOnDuplicate } from '../errors';
import type { ServerContext } from '../context';
import { containsPattern, toIso } from '../answer-values';
import { offsetOf } from '../paging';
import { saveAccountAddress } from './account-addresses';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

const duplicateName = (name: string) => ({ field: 'name', message: `An account named "${name}" already exists` });

export async function accountRows(ctx: Ctx, accounts: Account[]): Promise<AdminAccountRow[]> {
  if (!accounts.length) return [];
  const ids = accounts.map((a) => a.id);
  const counts = await ctx.db.sequelize.query<{ id: string; departments: string[] | null; physicians: string; users: string; samples: string }>(
    `SELECT a.id,
            (SELECT array_agg(d.name ORDER BY d.name) FROM departments d WHERE d.account_id = a.id) AS departments,
            (SELECT count(*) FROM physicians p WHERE p.account_id = a.id) AS physicians,
            (SELECT count(*) FROM account_memberships m WHERE m.account_id = a.id AND m.is_active) AS users,
            (SELECT count(*) FROM samples s WHERE s.account_id = a.id) AS samples
       FROM accounts a WHERE a.id IN (:ids)`,
    { replacements: { ids }, type: QueryTypes.SELECT },
  );
  return accounts.map((a) => {
    const c = counts.find((row) => Number(row.id) === a.id);
    return {
      id: a.id, name: a.name, type: a.type, eapPartner: a.eapPartner, international: a.international, clinicAccess: a.clinicAccess,
      researchAccess: a.researchAccess, takesPatientOrders: a.takesPatientOrders, isActive: a.isActive, departments: c?.departments ?? [],
      physicianCount: Number(c?.physicians ?? 0), userCount: Number(c?.users ?? 0), sampleCount: Number(c?.samples ?? 0),
      phone: a.phone ?? null, createdAt: toIso(a.createdAt)!,
    };
  });
}

/** GET admin/accounts: by name, with a portal's access, of a type; a page of them and how many match. */
export async function listAccounts(ctx: Ctx, query: AccountsQuery): Promise<{ rows: AdminAccountRow[]; total: number }> {
  const where = {
    ...(query.q ? { name: { [Op.iLike]: containsPattern(query.q) } } : {}),
    ...(query.access === 'clinic' ? { clinicAccess: true } : query.access === 'research' ? { researchAccess: true } : {}),
    ...(query.type ? { type: query.type } : {}),
  };
  const { rows, count } = await ctx.db.models.Account.findAndCountAll({
    where, order: [['name', 'ASC'], ['id', 'ASC']], limit: query.pageSize, offset: offsetOf(query.page, query.pageSize),
  });
  return { rows: await accountRows(ctx, rows), total: count };
}

/** A new account with its departments and ordering physicians, in one transaction; a taken name is a 409 naming it. */
export async function createAccount(ctx: Ctx, caller: Caller, body: CreateAccountBody): Promise<AdminAccountRow> {
  const { Account, Department, Physician } = ctx.db.models;
  const account = await ctx.db.sequelize.transaction(async (transaction) => {
    const taken = await Account.count({ where: ctx.db.sequelize.where(ctx.db.sequelize.fn('lower', ctx.db.sequelize.fn('btrim', ctx.db.sequelize.col('name'))), body.name.toLowerCase()), transaction });
    if (taken) throw conflict(duplicateName(body.name).message, [duplicateName(body.name)]);
    const created = await conflictOnDuplicate(
      () => Account.create(
        {
          name: body.name, type: body.type, eapPartner: body.eapPartner, international: body.international, clinicAccess: body.clinicAccess,
          researchAccess: body.researchAccess, takesPatientOrders: body.takesPatientOrders, phone: body.phone, isActive: true,
        },
        { transaction },
      ),
      { accounts_name_lower_key: duplicateName(body.name) },
    );
    await saveAccountAddress(ctx.db, transaction, created.id, AccountAddressKind.Shipping, body.shippingAddress);
    await saveAccountAddress(ctx.db, transaction, created.id, AccountAddressKind.Billing, body.billingAddress);
    await Department.bulkCreate(body.departments.map((name) => ({ accountId: created.id, name })), { transaction });
    await Physician.bulkCreate(body.physicians.map((p) => ({ accountId: created.id, contactId: null, ...p })), { transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'account.created', entityKind: 'account', entityId: created.id,
      details: { before: null, after: { ...body, physicians: body.physicians.map((p) => p.npi) } },
    }, transaction);
    return created;
  });
  const [row] = await accountRows(ctx, [account]);
  return row;
}

/** Counts for the admin home: who waits for a decision, what failed. */
export async function adminAttention(ctx: Ctx): Promise<AdminAttention> {
  const { Contact, Job, Email } = ctx.db.models;
  const [pendingProviders, failedJobs, failedEmails] = await Promise.all([
    Contact.count({ where: { accessStatus: AccessStatus.Pending } }),
    Job.count({ where: { status: JobStatus.Failed } }),
    Email.count({ where: { status: EmailStatus.Failed } }),
  ]);
  return { pendingProviders, failedJobs, failedEmails };
}
