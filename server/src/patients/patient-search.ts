/**
 * The one patient search: a clinic's (its own account), the admin's financial-aid picker and the
 * lab's cross-account search (sfpatient/search) all find patients here, with the same rule:
 * a date of birth (YYYY-MM-DD or MM/DD/YYYY), or words that each appear in the first name, the
 * last name or the email ("car", "john car", "Carter, John"). Every search is audited (ids and
 * counts, never the words searched for).
 */
import { isDataDate } from '@platform/domain';
import { patientSearchText } from '@platform/db';
import { auditActor, type Caller } from '../audit';
import type { ServerContext } from '../context';
import { containsPattern } from '../answer-values';
import { auditedPage, offsetOf } from '../paging';

type Ctx = Pick<ServerContext, 'db'>;

/** Whose patients: one account's, or every account's (and those of none). */
export type PatientScope = { accountId: number } | 'all-accounts';

export interface PatientSearch {
  q: string;
  page: number;
  pageSize: number;
}

/** The most words of a search that count. */
const MAX_WORDS = 5;

/** The words of a search that count ("Carter, John" is two words; at most MAX_WORDS). */
export const searchWords = (q: string): string[] => q.trim().split(/[\s,]+/).filter(Boolean).slice(0, MAX_WORDS);

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

/** A patient a search found: what the search pages show, and their account (null for one who orders for themselves). */
export interface FoundPatient {
  id: number;
  firstName: string | null;
  lastName: string | null;
  dateOfBirth: string | null;
  sex: string | null;
  email: string | null;
  phone: string | null;
  account: { id: number; name: string } | null;
  /** With `samples: true` (the lab's search): the patient's samples, newest first. */
  samples?: { id: number; barcode: string; status: string }[];
}

/** What a search matches, within a scope: SQL over patients `p`, and its values. */
function patientSearchWhere(q: string, scope: PatientScope): { sql: string; values: Record<string, unknown> } {
  const conditions: string[] = scope === 'all-accounts' ? [] : ['p.account_id = :accountId'];
  const values: Record<string, unknown> = scope === 'all-accounts' ? {} : { accountId: scope.accountId };
  const dob = searchedDateOfBirth(q);
  if (dob) {
    conditions.push('p.date_of_birth = :dob');
    values.dob = dob;
  } else {
    // Each word anywhere in the first name, last name or email (one trigram index: patientSearchText).
    searchWords(q).forEach((word, i) => {
      conditions.push(`${patientSearchText('p')} ILIKE :word${i}`);
      values[`word${i}`] = containsPattern(word);
    });
  }
  return { sql: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', values };
}

export interface FindPatientsOptions {
  /** Each patient's samples too (the lab's search). */
  samples?: boolean;
}

/**
 * One page of the patients a search finds (by last name, first name, date of birth), with the
 * total, and its audit row (who searched, in which scope, how many were found and which were
 * shown): one prepared statement (auditedPage).
 */
export async function findPatients(ctx: Ctx, caller: Caller, scope: PatientScope, search: PatientSearch, options: FindPatientsOptions = {}): Promise<{ rows: FoundPatient[]; total: number }> {
  const where = patientSearchWhere(search.q, scope);
  const samples = options.samples
    ? `, COALESCE((SELECT jsonb_agg(jsonb_build_object('id', s.id, 'barcode', s.barcode, 'status', s.status) ORDER BY s.created_at DESC, s.id DESC)
                    FROM samples s WHERE s.patient_id = p.id), '[]'::jsonb) AS samples`
    : '';
  // Answered under FoundPatient's own names: the rows go on as they are.
  return auditedPage<FoundPatient>(ctx.db, {
    select: `SELECT p.id, p.first_name AS "firstName", p.last_name AS "lastName", p.date_of_birth AS "dateOfBirth", p.sex, p.email, p.phone,
              (SELECT jsonb_build_object('id', a.id, 'name', a.name) FROM accounts a WHERE a.id = p.account_id) AS account${samples}
         FROM patients p ${where.sql}
        ORDER BY p.last_name, p.first_name, p.date_of_birth, p.id
        LIMIT :limit OFFSET :offset`,
    fromWhere: `FROM patients p ${where.sql}`,
    replacements: { ...where.values, limit: search.pageSize, offset: offsetOf(search.page, search.pageSize) },
    audit: {
      ...auditActor(caller),
      action: 'patient.searched',
      entityKind: 'patient',
      details: {
        scope: scope === 'all-accounts' ? 'all-accounts' : 'account',
        accountId: scope === 'all-accounts' ? null : scope.accountId,
        by: searchedDateOfBirth(search.q) ? 'dateOfBirth' : 'name',
      },
    },
    idsKey: 'patientIds',
  });
}
