/**
 * When a released result reaches the patient (issue 29, part 5), in one place:
 * - the lab admin's policy per test (GET / PUT, audited with the old and new values);
 * - notify-result's decision at release (decidePatientRelease): today's patient email and link, or,
 *   for a test set "To the clinic first", a hold with its due time instead;
 * - the clinic's "Mark reviewed" (markSampleReviewed) and the hold's end (releaseDueHolds, a worker
 *   scanner): the held results go to the patient (the link email through the outbox), audited with
 *   what released them;
 * - what the patient may see of a sample (patientHeldResults): a Released result the patient was
 *   not yet given is held from every patient endpoint, with the date it is available by.
 * A result with no row here is the patient's when its test's policy is the default (results
 * released before the table existed were written as released to the patient).
 */
import { QueryTypes, type Transaction } from 'sequelize';
import {
  addLabDays, clinicReviewMessage, DEFAULT_PATIENT_HOLD_DAYS, DEFAULT_PATIENT_RELEASE_POLICY, PATIENT_HOLD_SCAN_BATCH, PATIENT_RELEASE_TESTS,
  PatientReleasePolicy, PatientReleaseTrigger, TestResultStatus,
  type ClinicReviewAnswer, type PatientReleasePolicyBody, type PatientReleasePolicyView, type PatientResultInReview,
} from '@platform/domain';
import type { Db } from '@platform/db';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, systemCaller, type AccountCaller, type Caller } from '../audit';
import { conflict, notFound } from '../errors';
import { toIso } from '../answer-values';
import { describeResult } from './released-results';
import { sendPatientResultLink, type ResultLinkCtx } from './result-links';

type SampleRow = InstanceType<Db['models']['Sample']>;
type PatientRow = InstanceType<Db['models']['Patient']>;

// ---- The admin's policies ----

interface PolicyRow {
  test_name: string;
  policy: PatientReleasePolicy;
  hold_days: number;
  updated_at: Date;
  updated_by: string | null;
}

const POLICY_SELECT = `SELECT pp.test_name, pp.policy, pp.hold_days, pp.updated_at,
         nullif(trim(concat_ws(' ', u.first_name, u.last_name)), '') AS updated_by
    FROM patient_release_policies pp LEFT JOIN users u ON u.id = pp.updated_by_user_id`;

function policyView(testName: string, row: PolicyRow | undefined): PatientReleasePolicyView {
  return row
    ? { testName, policy: row.policy, holdDays: row.hold_days, custom: true, updatedAt: toIso(row.updated_at), updatedBy: row.updated_by }
    : { testName, policy: DEFAULT_PATIENT_RELEASE_POLICY, holdDays: DEFAULT_PATIENT_HOLD_DAYS, custom: false, updatedAt: null, updatedBy: null };
}

/** GET /api/admin/patient-release/policies: every test whose results go to patients, in catalogue order, with its policy. */
export async function listPatientReleasePolicies(ctx: Pick<ServerContext, 'db'>): Promise<PatientReleasePolicyView[]> {
  const rows = await ctx.db.sequelize.query<PolicyRow>(POLICY_SELECT, { type: QueryTypes.SELECT });
  return PATIENT_RELEASE_TESTS.map((name) => policyView(name, rows.find((r) => r.test_name === name)));
}

/** PUT /api/admin/patient-release/policies: one test's policy, audited with the old and new values. */
export async function putPatientReleasePolicy(ctx: Pick<ServerContext, 'db'>, caller: Caller, body: PatientReleasePolicyBody): Promise<PatientReleasePolicyView> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const [before] = await ctx.db.sequelize.query<PolicyRow>(`${POLICY_SELECT} WHERE pp.test_name = :testName FOR UPDATE OF pp`, {
      replacements: { testName: body.testName }, type: QueryTypes.SELECT, transaction,
    });
    await ctx.db.sequelize.query(
      `INSERT INTO patient_release_policies (test_name, policy, hold_days, updated_by_user_id)
       VALUES (:testName, :policy, :holdDays, :userId)
       ON CONFLICT (test_name) DO UPDATE SET policy = EXCLUDED.policy, hold_days = EXCLUDED.hold_days,
         updated_by_user_id = EXCLUDED.updated_by_user_id, updated_at = now()`,
      { replacements: { ...body, userId: caller.userId }, transaction },
    );
    const [after] = await ctx.db.sequelize.query<PolicyRow>(`${POLICY_SELECT} WHERE pp.test_name = :testName`, {
      replacements: { testName: body.testName }, type: QueryTypes.SELECT, transaction,
    });
    const old = policyView(body.testName, before);
    await recordAudit(ctx.db, {
      ...auditActor(caller),
      action: 'patient_release_policy.updated',
      details: {
        testName: body.testName,
        old: { policy: old.policy, holdDays: old.holdDays, custom: old.custom },
        new: { policy: after.policy, holdDays: after.hold_days },
      },
    }, transaction);
    return policyView(body.testName, after);
  });
}

/** A test's policy now (the default when the admin never set one). */
export async function patientReleasePolicyOf(db: Db, testName: string, transaction?: Transaction): Promise<{ policy: PatientReleasePolicy; holdDays: number }> {
  const [row] = await db.sequelize.query<{ policy: PatientReleasePolicy; hold_days: number }>(
    'SELECT policy, hold_days FROM patient_release_policies WHERE test_name = :testName',
    { replacements: { testName }, type: QueryTypes.SELECT, transaction },
  );
  return row ? { policy: row.policy, holdDays: row.hold_days } : { policy: DEFAULT_PATIENT_RELEASE_POLICY, holdDays: DEFAULT_PATIENT_HOLD_DAYS };
}

// ---- At release (notify-result) ----

export type PatientReleaseDecision =
  | { kind: 'sent'; linkId: number | null; emailId: number | null }
  | { kind: 'held'; releaseDueAt: Date; holdDays: number };

/**
 * notify-result's patient part, in its transaction, for a released result that goes to a patient:
 * by the test's policy, today's link email (recorded as released to the patient now), or a hold
 * until the clinic's review or `holdDays` from now, whichever comes first (audited).
 */
export async function decidePatientRelease(
  ctx: ResultLinkCtx,
  transaction: Transaction,
  args: { resultId: number; testId: number; testName: string; sample: SampleRow; patient: PatientRow; corrected: boolean; now?: Date },
): Promise<PatientReleaseDecision> {
  const now = args.now ?? new Date();
  const { policy, holdDays } = await patientReleasePolicyOf(ctx.db, args.testName, transaction);
  if (policy === PatientReleasePolicy.ClinicFirst) {
    // `holdDays` calendar days on the lab's clock: the same time of day, across a daylight-saving change too.
    const releaseDueAt = addLabDays(now, holdDays, ctx.config.labTimeZone);
    await ctx.db.sequelize.query(
      `INSERT INTO patient_result_releases (test_result_id, sample_id, policy, held_at, release_due_at)
       VALUES (:resultId, :sampleId, :policy, :now, :releaseDueAt) ON CONFLICT (test_result_id) DO NOTHING`,
      { replacements: { resultId: args.resultId, sampleId: args.sample.id, policy, now, releaseDueAt }, transaction },
    );
    await recordAudit(ctx.db, {
      ...auditActor(systemCaller()),
      action: 'result.held_for_clinic',
      entityKind: 'test',
      entityId: args.testId,
      details: { testResultId: args.resultId, sampleId: args.sample.id, holdDays, releaseDueAt: releaseDueAt.toISOString() },
    }, transaction);
    return { kind: 'held', releaseDueAt, holdDays };
  }
  const sent = args.patient.email
    ? await sendPatientResultLink(ctx, transaction, { sample: args.sample, patient: args.patient, testNames: [args.testName], corrected: args.corrected, createdByUserId: null })
    : null;
  await ctx.db.sequelize.query(
    `INSERT INTO patient_result_releases (test_result_id, sample_id, policy, released_to_patient_at, released_by)
     VALUES (:resultId, :sampleId, :policy, :now, :trigger) ON CONFLICT (test_result_id) DO NOTHING`,
    { replacements: { resultId: args.resultId, sampleId: args.sample.id, policy, now, trigger: PatientReleaseTrigger.Release }, transaction },
  );
  return { kind: 'sent', linkId: sent?.linkId ?? null, emailId: sent?.emailId ?? null };
}

// ---- Releasing held results (the review, the hold's end) ----

interface HeldRow {
  test_result_id: string;
  test_id: string;
  test_name: string;
  reviewed_at: Date | null;
  released_to_patient_at: Date | null;
  release_due_at: Date;
}

/** The clinic-first rows of a sample's Released results, locked (`skipLocked`: rows another worker holds are left out). */
async function lockHeldRows(db: Db, transaction: Transaction, sampleId: number, options: { dueBy?: Date; skipLocked?: boolean } = {}): Promise<HeldRow[]> {
  return db.sequelize.query<HeldRow>(
    `SELECT pr.test_result_id, t.id AS test_id, t.name AS test_name, pr.reviewed_at, pr.released_to_patient_at, pr.release_due_at
       FROM patient_result_releases pr
       JOIN test_results r ON r.id = pr.test_result_id AND r.status = :released
       JOIN tests t ON t.id = r.test_id
      WHERE pr.sample_id = :sampleId AND pr.held_at IS NOT NULL
        ${options.dueBy ? 'AND pr.released_to_patient_at IS NULL AND pr.release_due_at <= :dueBy' : ''}
      ORDER BY t.id
      FOR UPDATE OF pr${options.skipLocked ? ' SKIP LOCKED' : ''}`,
    { replacements: { sampleId, released: TestResultStatus.Released, dueBy: options.dueBy ?? null }, type: QueryTypes.SELECT, transaction },
  );
}

/**
 * Gives the patient the held results (rows locked by the caller): marks them released with what
 * released them, emails the patient a new link naming them (when the patient has an address), and
 * audits each. Answers the tests released.
 */
async function releaseToPatient(
  ctx: ResultLinkCtx,
  transaction: Transaction,
  args: { sample: SampleRow; rows: HeldRow[]; trigger: PatientReleaseTrigger; caller: Caller; now: Date },
): Promise<string[]> {
  const { sample, rows, trigger, now } = args;
  if (!rows.length) return [];
  const m = ctx.db.models;
  await ctx.db.sequelize.query(
    `UPDATE patient_result_releases SET released_to_patient_at = :now, released_by = :trigger, updated_at = now()
      WHERE test_result_id IN (:ids) AND released_to_patient_at IS NULL`,
    { replacements: { now, trigger, ids: rows.map((r) => r.test_result_id) }, transaction },
  );
  const patient = await m.Patient.findByPk(sample.patientId, { transaction });
  let corrected = false;
  for (const row of rows) {
    const test = await m.Test.findByPk(row.test_id, { transaction, rejectOnEmpty: true });
    const result = await m.TestResult.findByPk(row.test_result_id, { transaction, rejectOnEmpty: true });
    corrected ||= (await describeResult(ctx.db, test, result, transaction)).corrected;
  }
  const testNames = rows.map((r) => r.test_name);
  const sent = patient?.email && patient.firstName
    ? await sendPatientResultLink(ctx, transaction, { sample, patient, testNames, corrected, createdByUserId: null })
    : null;
  for (const row of rows) {
    await recordAudit(ctx.db, {
      ...auditActor(args.caller),
      action: 'result.released_to_patient',
      entityKind: 'test',
      entityId: row.test_id,
      details: {
        testResultId: Number(row.test_result_id), sampleId: sample.id, trigger,
        emailId: sent?.emailId ?? null, linkId: sent?.linkId ?? null, ...(sent ? {} : { patientEmail: 'none on file' }),
      },
    }, transaction);
  }
  return testNames;
}

const sampleNotFound = () => notFound('Sample not found');

/**
 * POST provider-clinic/{accountId}/samples/{sampleId}/mark-reviewed: a provider of the sample's
 * account reviewed its held results; those not yet the patient's go to the patient now. Idempotent:
 * a second call changes nothing and sends nothing. 404 for a sample of another account; 409 when
 * the sample has no result its clinic reviews first.
 */
export async function markSampleReviewed(ctx: ResultLinkCtx, caller: AccountCaller, sampleId: number): Promise<ClinicReviewAnswer> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const sample = await ctx.db.models.Sample.findOne({ where: { id: sampleId, accountId: caller.accountId }, transaction, lock: transaction.LOCK.UPDATE });
    if (!sample) throw sampleNotFound();
    const rows = await lockHeldRows(ctx.db, transaction, sample.id);
    if (!rows.length) throw conflict('This sample has no result waiting for the clinic\'s review.');
    const now = new Date();
    const unreviewed = rows.filter((r) => r.reviewed_at === null);
    if (!unreviewed.length) {
      const reviewedAt = rows.map((r) => r.reviewed_at!).sort((a, b) => a.getTime() - b.getTime())[0];
      return { sampleId: sample.id, reviewedAt: reviewedAt.toISOString(), releasedToPatient: [], message: clinicReviewMessage([]) };
    }
    await ctx.db.sequelize.query(
      `UPDATE patient_result_releases SET reviewed_at = :now, reviewed_by_user_id = :userId, updated_at = now()
        WHERE test_result_id IN (:ids)`,
      { replacements: { now, userId: caller.userId, ids: unreviewed.map((r) => r.test_result_id) }, transaction },
    );
    await recordAudit(ctx.db, {
      ...auditActor(caller),
      action: 'result.clinic_reviewed',
      entityKind: 'sample',
      entityId: sample.id,
      details: { accountId: caller.accountId, testResultIds: unreviewed.map((r) => Number(r.test_result_id)) },
    }, transaction);
    const released = await releaseToPatient(ctx, transaction, {
      sample, rows: unreviewed.filter((r) => r.released_to_patient_at === null), trigger: PatientReleaseTrigger.Review, caller, now,
    });
    return { sampleId: sample.id, reviewedAt: now.toISOString(), releasedToPatient: released, message: clinicReviewMessage(released) };
  });
}

/**
 * One look at `now` (the worker's scanner): every hold whose time has come goes to the patient,
 * one transaction per sample, each hold taken locked (FOR UPDATE SKIP LOCKED: a hold another worker
 * or a review is releasing is left to it). Answers how many results it released.
 */
export async function releaseDueHolds(ctx: ResultLinkCtx, options: { now: Date; limit?: number }): Promise<{ released: number }> {
  const due = await ctx.db.sequelize.query<{ sample_id: string }>(
    `SELECT pr.sample_id FROM patient_result_releases pr
       JOIN test_results r ON r.id = pr.test_result_id AND r.status = :released
      WHERE pr.held_at IS NOT NULL AND pr.released_to_patient_at IS NULL AND pr.release_due_at <= :now
      GROUP BY pr.sample_id ORDER BY min(pr.release_due_at) LIMIT :limit`,
    { replacements: { now: options.now, released: TestResultStatus.Released, limit: options.limit ?? PATIENT_HOLD_SCAN_BATCH }, type: QueryTypes.SELECT },
  );
  let released = 0;
  for (const { sample_id: sampleId } of due) {
    released += await ctx.db.sequelize.transaction(async (transaction) => {
      const rows = await lockHeldRows(ctx.db, transaction, Number(sampleId), { dueBy: options.now, skipLocked: true });
      if (!rows.length) return 0;
      const sample = await ctx.db.models.Sample.findByPk(Number(sampleId), { transaction, rejectOnEmpty: true });
      const names = await releaseToPatient(ctx, transaction, { sample, rows, trigger: PatientReleaseTrigger.Timeout, caller: systemCaller(), now: options.now });
      return names.length;
    });
  }
  return { released };
}

// ---- What the patient may see ----

/**
 * The Released results of a sample that are not yet the patient's, by result id, with the date
 * each is available by: a hold not yet released, or (before notify-result decided) a result of a
 * test whose policy is "To the clinic first" (available by its release plus the hold's days).
 */
export async function patientHeldResults(db: Db, sampleId: number, transaction?: Transaction): Promise<Map<number, PatientResultInReview>> {
  const rows = await db.sequelize.query<{ id: string; test_name: string; available_by: Date }>(
    `SELECT r.id, t.name AS test_name,
            coalesce(pr.release_due_at, coalesce(r.reviewed_at, r.updated_at) + make_interval(days => pp.hold_days)) AS available_by
       FROM tests t
       JOIN test_results r ON r.test_id = t.id AND r.status = :released
       LEFT JOIN patient_result_releases pr ON pr.test_result_id = r.id
       LEFT JOIN patient_release_policies pp ON pp.test_name = t.name
      WHERE t.sample_id = :sampleId
        AND ((pr.test_result_id IS NOT NULL AND pr.released_to_patient_at IS NULL)
          OR (pr.test_result_id IS NULL AND pp.policy = :clinicFirst))
      ORDER BY t.id`,
    { replacements: { sampleId, released: TestResultStatus.Released, clinicFirst: PatientReleasePolicy.ClinicFirst }, type: QueryTypes.SELECT, transaction },
  );
  return new Map(rows.map((r) => [Number(r.id), { testName: r.test_name, availableBy: new Date(r.available_by).toISOString() }]));
}
