/**
 * The LIMS reference reads for lab staff (SPEC §7 lims/…): accounts, an account's departments and
 * physicians, the lab's technicians; and the cross-account patient search (sfpatient/search, lab
 * staff and admins) through the one patient search.
 */
import { col, fn, Op, type WhereOptions } from 'sequelize';
import {
  fullName,
  type CrossAccountPatientRow,
  type CrossAccountPatientSearchAnswer,
  type LimsAccountRow,
  type LimsAccountsQuery,
  type LimsDepartment,
  type LimsPhysician,
  type LimsTechnician,
  type PatientSearchBody,
} from '@platform/domain';
import type { Account } from '@platform/db';
import { notFound } from '../errors';
import { type Caller } from '../audit';
import type { ServerContext } from '../context';
import { containsPattern } from '../answer-values';
import { offsetOf } from '../paging';
import { findPatients } from '../patients/patient-search';
import { patientSummary } from '../patients/clinic-patients';

type Ctx = Pick<ServerContext, 'db'>;

/** GET lims/accounts: every account by name (active or not: old samples keep theirs). */
export async function limsAccounts(ctx: Ctx, query: LimsAccountsQuery): Promise<{ rows: LimsAccountRow[]; total: number }> {
  const where: WhereOptions<Account> = query.q ? { name: { [Op.iLike]: containsPattern(query.q) } } : {};
  const { rows, count } = await ctx.db.models.Account.findAndCountAll({
    where,
    // As a person reads a list of names, whatever the database's collation (C sorts "Zeta" before "alpha").
    order: [[fn('lower', col('name')), 'ASC'], ['name', 'ASC'], ['id', 'ASC']],
    limit: query.pageSize,
    offset: offsetOf(query.page, query.pageSize),
  });
  return {
    total: count,
    rows: rows.map((a) => ({
      id: a.id, name: a.name, type: a.type, isActive: a.isActive, clinicAccess: a.clinicAccess, researchAccess: a.researchAccess,
      eapPartner: a.eapPartner, international: a.international,
    })),
  };
}

async function requireAccount(ctx: Ctx, accountId: number): Promise<void> {
  if (!(await ctx.db.models.Account.findByPk(accountId, { attributes: ['id'] }))) throw notFound('Account not found');
}

/** GET lims/accounts/{id}/departments, by name. */
export async function limsDepartments(ctx: Ctx, accountId: number): Promise<LimsDepartment[]> {
  await requireAccount(ctx, accountId);
  const rows = await ctx.db.models.Department.findAll({ where: { accountId }, order: [['name', 'ASC'], ['id', 'ASC']] });
  return rows.map((d) => ({ id: d.id, name: d.name }));
}

/** GET lims/accounts/{id}/physicians, by last name. */
export async function limsPhysicians(ctx: Ctx, accountId: number): Promise<LimsPhysician[]> {
  await requireAccount(ctx, accountId);
  const rows = await ctx.db.models.Physician.findAll({ where: { accountId }, order: [['lastName', 'ASC'], ['firstName', 'ASC'], ['id', 'ASC']] });
  return rows.map((p) => ({ id: p.id, name: fullName(p)!, firstName: p.firstName, lastName: p.lastName, npi: p.npi, specialty: p.specialty }));
}

/** GET lims/contact/technicians: the lab's people, by last name; active when their lab sign-in is. */
export async function limsTechnicians(ctx: Ctx): Promise<LimsTechnician[]> {
  const m = ctx.db.models;
  const rows = await m.Technician.findAll({
    include: [{ model: m.User, as: 'user', attributes: ['id', 'isActive'] }],
    order: [['lastName', 'ASC'], ['firstName', 'ASC'], ['id', 'ASC']],
  });
  return rows.map((t) => ({
    id: t.id, userId: t.userId ?? null, name: fullName(t)!, firstName: t.firstName, lastName: t.lastName, email: t.email, active: t.user?.isActive ?? false,
  }));
}

/** POST sfpatient/search: patients of every account (and of none), one page, each with their samples. */
export async function searchPatientsEverywhere(ctx: Ctx, caller: Caller, search: PatientSearchBody): Promise<CrossAccountPatientSearchAnswer> {
  const { rows, total } = await findPatients(ctx, caller, 'all-accounts', search, { samples: true });
  return { rows: rows.map((p): CrossAccountPatientRow => ({ ...patientSummary(p), account: p.account, samples: p.samples ?? [] })), total };
}
