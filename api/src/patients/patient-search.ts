/**
 * The one patient search: a clinic's (its own account), the admin's financial-aid picker and the
 * lab's cross-account search (sfpatient/search) all find patients here, with the same rule:
 * a date of birth (YYYY-MM-DD or MM/DD/YYYY), or words that each appear in the first name, the
 * last name or the email ("car", "john car", "Carter, John"). Every search is audited (ids and
 * counts, never the words searched for).
 */
import { literal, Op, type WhereOptions } from 'sequelize';
import { isDataDate } from '@platform/domain';
import type { Patient } from '@platform/db';
import { auditActor, recordAudit, type Caller } from '@platform/server';
import type { AppContext } from '../context';
import { containsPattern } from '../http/answer-values';
import { offsetOf } from '../http/paging';

type Ctx = Pick<AppContext, 'db'>;

/** Whose patients: one account's, or every account's (and those of none). */
export type PatientScope = { accountId: number } | 'all-accounts';

export interface PatientSearch {
  q: string;
  page: number;
  pageSize: number;
}

/** The most words of a search that count. */
const MAX_WORDS = 5;

/** A US-style date as people type it (MM/DD/YYYY), as YYYY-MM-DD; null when it is not one. */
function usDate(q: string): string | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(q);
  if (!m) return null;
  const iso = `${m[3]}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}`;
  return isDataDate(iso) ? iso : null;
}

/** The date of birth a search names, or null when it is words. */
export function searchedDateOfBirth(q: string): string | null {
  const trimmed = q.trim();
  return isDataDate(trimmed) ? trimmed : usDate(trimmed);
}

/** What a search matches, within a scope. */
export function patientSearchWhere(q: string, scope: PatientScope): WhereOptions<Patient> {
  const inScope = scope === 'all-accounts' ? {} : { accountId: scope.accountId };
  const dob = searchedDateOfBirth(q);
  if (dob) return { ...inScope, dateOfBirth: dob };
  const words = q.trim().split(/[\s,]+/).filter(Boolean).slice(0, MAX_WORDS);
  const anyField = (w: string) => ({
    [Op.or]: ['firstName', 'lastName', 'email'].map((field) => ({ [field]: { [Op.iLike]: containsPattern(w) } })),
  });
  return { ...inScope, [Op.and]: words.map(anyField) };
}

/**
 * One page of the patients a search finds (by last name, first name, date of birth), with the
 * total, and its audit row: who searched, in which scope, how many were found and which were shown.
 */
export async function findPatients(ctx: Ctx, caller: Caller, scope: PatientScope, search: PatientSearch): Promise<{ rows: Patient[]; total: number }> {
  const where = patientSearchWhere(search.q, scope);
  const { Patient, Account } = ctx.db.models;
  // The page and the number of matches from one search of the indexes (a window count), not two.
  const rows = await Patient.findAll({
    where,
    attributes: { include: [[literal('count(*) OVER ()'), 'matches']] },
    include: [{ model: Account, as: 'account', attributes: ['id', 'name'] }],
    order: [['lastName', 'ASC'], ['firstName', 'ASC'], ['dateOfBirth', 'ASC'], ['id', 'ASC']],
    limit: search.pageSize,
    offset: offsetOf(search.page, search.pageSize),
  });
  // A page past the last match has no row to carry the count: only then is it counted apart.
  const total = rows.length ? Number(rows[0].get('matches')) : search.page > 1 ? await Patient.count({ where }) : 0;
  await recordAudit(ctx.db, {
    ...auditActor(caller),
    action: 'patient.searched',
    entityKind: 'patient',
    details: {
      scope: scope === 'all-accounts' ? 'all-accounts' : 'account',
      accountId: scope === 'all-accounts' ? null : scope.accountId,
      by: searchedDateOfBirth(search.q) ? 'dateOfBirth' : 'name',
      total,
      patientIds: rows.map((p) => p.id),
    },
  });
  return { rows, total };
}
