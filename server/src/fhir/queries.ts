/**
 * The SQL of the FHIR capability: what of an account the FHIR API may show, and the rows each
 * resource is built from. Scoped to one account always; research participants (a patient with a
 * study id) and Research Portal orders (a research project's) never appear; the lab's processing
 * steps (DNA Extraction) are not the clinic's tests. Only released result versions are shown
 * (Released, and Superseded ones for a vread).
 *
 * Sample-derived searches walk the account's samples newest first through
 * samples_account_newest_idx (account_id, created_at DESC, id DESC), tests by tests_sample_id_idx,
 * the released version by test_results_one_released_key; Patient searches walk
 * patients_account_fhir_idx (account_id, id) (migration 20261128130000-fhir-search).
 */
import { QueryTypes } from 'sequelize';
import type { Db } from '@platform/db';
import { COVID_RESULT_CODES, DocumentType, labReportFileName, SampleStatus, TestOrigin, TestResultStatus } from '@platform/domain';
import type { AccountRow, PatientRow, PhysicianRow, ResultRow, SampleRow, TestRow } from './builders';
import { sampleDocumentNamed } from '../files';
import { OUTSIDE_SAMPLE_FROM, OUTSIDE_SAMPLE_SCOPE, OUTSIDE_SQL_CONSTANTS, OUTSIDE_TEST_JOIN } from '../outside-scope';

/** The enumerations the statements name, written into them as literals. */
export const FHIR_SQL_CONSTANTS = {
  ...OUTSIDE_SQL_CONSTANTS,
  released: TestResultStatus.Released,
  superseded: TestResultStatus.Superseded,
  shownStatuses: [TestResultStatus.Released, TestResultStatus.Superseded],
  noResultValues: Object.entries(COVID_RESULT_CODES).filter(([, c]) => c.noResult).map(([v]) => v),
  rejected: SampleStatus.Rejected,
  discarded: SampleStatus.Discarded,
  patientOrdered: TestOrigin.PatientOrdered,
};

/** The account's samples of named patients, outside research: `s`, its order `o`, its patient `p`. */
export const SAMPLE_FROM = OUTSIDE_SAMPLE_FROM;
/**
 * (A sample's patient is of the sample's account, as every write makes them. The patient is read
 * through the join by its key only, as the clinic lists read it: a condition on its account made
 * PostgreSQL's generic plan hash the account's patients and sort the account's samples.)
 */
export const SAMPLE_SCOPE = `s.account_id = :accountId AND ${OUTSIDE_SAMPLE_SCOPE}`;
/** Its clinic tests `t`. */
export const TEST_JOIN = OUTSIDE_TEST_JOIN;
/** The released version `r` of each test. */
export const RELEASED_JOIN = 'JOIN test_results r ON r.test_id = t.id AND r.status = :released';

export const SAMPLE_COLUMNS = `s.id AS sample_id, s.barcode, s.sample_type, s.status AS sample_status, s.collected_at, s.received_at,
  s.updated_at AS sample_updated_at, s.created_at AS sample_created_at,
  to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sample_key,
  s.patient_id, o.id AS order_id, o.order_number,
  (SELECT array_agg(t2.id ORDER BY t2.id) FROM tests t2 WHERE t2.sample_id = s.id AND t2.name NOT IN (:processingSteps)) AS sample_test_ids`;

/** (A scalar subquery, not EXISTS: inside a CASE, PostgreSQL hashed an EXISTS over every result of the database.) */
const HAS_RESULT = 'COALESCE((SELECT true FROM test_results x WHERE x.test_id = t.id AND x.status IN (:shownStatuses) LIMIT 1), false)';
export const TEST_COLUMNS = `${SAMPLE_COLUMNS}, t.id AS test_id, t.name AS test_name, t.updated_at AS test_updated_at,
  o.created_at AS order_created_at, o.updated_at AS order_updated_at, o.physician_id, o.origin, o.signed_off_at, o.cancelled_at,
  ${HAS_RESULT} AS has_result`;

/** A version corrects: it names a reason, or it replaced a released version (released-results' isCorrection). */
const CORRECTED = `(btrim(COALESCE(r.correction_reason, '')) <> '' OR EXISTS (SELECT 1 FROM test_results x WHERE x.test_id = r.test_id AND x.version < r.version AND x.status = :superseded))`;
export const RESULT_COLUMNS = `${SAMPLE_COLUMNS}, t.id AS test_id, t.name AS test_name, r.id AS result_id, r.version, r.value,
  r.correction_reason, r.reviewed_at, o.physician_id, ${CORRECTED} AS corrected`;

/** The statuses as SQL, the same rules as builders.ts (resultStatus, serviceRequestStatus, specimenStatus). */
export const RESULT_STATUS_SQL = `(CASE WHEN r.value IN (:noResultValues) THEN 'cancelled' WHEN ${CORRECTED} THEN 'corrected' ELSE 'final' END)`;
export const SERVICE_REQUEST_STATUS_SQL = `(CASE WHEN ${HAS_RESULT} THEN 'completed'
  WHEN o.cancelled_at IS NOT NULL OR s.status = :rejected THEN 'revoked'
  WHEN o.origin = :patientOrdered AND o.signed_off_at IS NULL THEN 'draft' ELSE 'active' END)`;
export const SPECIMEN_STATUS_SQL = `(CASE WHEN s.status = :rejected THEN 'unsatisfactory' WHEN s.status = :discarded THEN 'unavailable'
  WHEN s.received_at IS NOT NULL THEN 'available' END)`;
export const SERVICE_REQUEST_UPDATED_SQL = 'GREATEST(t.updated_at, s.updated_at, o.updated_at)';

export const PATIENT_COLUMNS = `p.id, p.account_id, p.first_name, p.last_name, p.date_of_birth, p.sex, p.email, p.phone, p.address_line1, p.address_line2,
  p.city, p.state, p.postal_code, p.country, p.medical_record_number, p.preferred_language, p.updated_at`;
export const PATIENT_SCOPE = 'p.account_id = :accountId AND p.study_id IS NULL';
export const PHYSICIAN_COLUMNS = 'ph.id, ph.account_id, ph.first_name, ph.last_name, ph.npi, ph.updated_at';

type Ctx = { db: Db };

async function select<R extends object>(ctx: Ctx, sql: string, replacements: Record<string, unknown>): Promise<R[]> {
  return ctx.db.sequelize.query<R>(sql, { replacements: { ...FHIR_SQL_CONSTANTS, ...replacements }, type: QueryTypes.SELECT });
}

export async function patientOfAccount(ctx: Ctx, accountId: number, id: number): Promise<PatientRow | null> {
  const [row] = await select<PatientRow>(ctx, `SELECT ${PATIENT_COLUMNS} FROM patients p WHERE p.id = :id AND ${PATIENT_SCOPE}`, { accountId, id });
  return row ?? null;
}

export async function physicianOfAccount(ctx: Ctx, accountId: number, id: number): Promise<PhysicianRow | null> {
  const [row] = await select<PhysicianRow>(ctx, `SELECT ${PHYSICIAN_COLUMNS} FROM physicians ph WHERE ph.id = :id AND ph.account_id = :accountId`, { accountId, id });
  return row ?? null;
}

export async function accountRow(ctx: Ctx, accountId: number): Promise<AccountRow | null> {
  const [row] = await select<AccountRow>(ctx, 'SELECT a.id, a.name, a.is_active, a.updated_at FROM accounts a WHERE a.id = :accountId', { accountId });
  return row ?? null;
}

export async function sampleOfAccount(ctx: Ctx, accountId: number, sampleId: number): Promise<SampleRow | null> {
  const [row] = await select<SampleRow>(ctx, `SELECT ${SAMPLE_COLUMNS} ${SAMPLE_FROM} WHERE s.id = :sampleId AND ${SAMPLE_SCOPE}`, { accountId, sampleId });
  return row ?? null;
}

export async function testOfAccount(ctx: Ctx, accountId: number, testId: number): Promise<TestRow | null> {
  const [row] = await select<TestRow>(ctx, `SELECT ${TEST_COLUMNS} ${SAMPLE_FROM} ${TEST_JOIN} WHERE t.id = :testId AND ${SAMPLE_SCOPE}`, { accountId, testId });
  return row ?? null;
}

/** The released version of a test's result (`version` null), or one version that was released (a vread). */
export async function resultOfAccount(ctx: Ctx, accountId: number, testId: number, version: number | null): Promise<ResultRow | null> {
  const versionSql = version === null ? 'r.status = :released' : 'r.version = :version AND r.status IN (:shownStatuses)';
  const [row] = await select<ResultRow>(ctx,
    `SELECT ${RESULT_COLUMNS} ${SAMPLE_FROM} ${TEST_JOIN} JOIN test_results r ON r.test_id = t.id AND ${versionSql}
      WHERE t.id = :testId AND ${SAMPLE_SCOPE}`,
    { accountId, testId, version });
  return row ?? null;
}

/** The stored lab report PDF of one released result version (the worker files it under labReportFileName), with its bytes. */
export async function reportPdfOfAccount(ctx: Ctx, accountId: number, resultId: number) {
  const [target] = await select<{ sample_id: number; result_id: number; barcode: string }>(ctx,
    `SELECT s.id AS sample_id, r.id AS result_id, s.barcode
       ${SAMPLE_FROM} ${TEST_JOIN} JOIN test_results r ON r.test_id = t.id AND r.status IN (:shownStatuses)
      WHERE r.id = :resultId AND ${SAMPLE_SCOPE}`,
    { accountId, resultId });
  if (!target) return null;
  const row = await sampleDocumentNamed(ctx.db, target.sample_id, DocumentType.LabReport, labReportFileName(target.barcode, target.result_id));
  return row ? { ...row, sample_id: target.sample_id, result_id: target.result_id } : null;
}
