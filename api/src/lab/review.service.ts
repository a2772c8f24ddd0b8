/**
 * Review and release of results. Every entered or imported value waits In Review; a lab user
 * other than the one who entered it approves (Released: the sample moves to Resulted, the lab
 * report and the result notifications are queued) or rejects it with a reason (the sample is
 * tested again or rejected). A correction of a released result is a new version with a reason;
 * its approval supersedes the released one and changes no sample status.
 */
import { Op, type Transaction, type WhereOptions } from 'sequelize';
import {
  APPROVAL_GROUP_TESTS,
  approvalGroupOf,
  approvalReportsResult,
  CANCER_TOXICITY_TESTS,
  catalogueEntry,
  checkTransition,
  DocumentType,
  isTestName,
  isValidResultValue,
  patientShortName,
  resultInterpretation,
  resultScaleOf,
  SampleStatus,
  scaleValues,
  SELF_APPROVAL_MESSAGE,
  TestResultStatus,
  type ApprovalGroup,
  type ApproveResultsAnswer,
  type ApprovedResult,
  type CorrectedResult,
  type CorrectResultBody,
  type ImportReview,
  type RejectResultsAnswer,
  type RejectResultsBody,
  type ReleasedResultRow,
  type ReleasedResultsQuery,
  type ReviewListQuery,
  type ReviewListRow,
  type SampleStatus as Status,
  type TestName,
} from '@platform/domain';
import { recordAudit } from '../audit/audit';
import type { AppContext } from '../context';
import { badRequest, conflict, forbidden, notFound } from '../http/errors';
import { enqueueJob } from '../jobs';
import { moveSample } from '../samples/sample-status';
import { withdrawResultsInReview } from './intake.service';
import { LAB_IMPORT_JOB } from './imports.service';
import { auditBy, fullName, toIso, type LabCaller } from './lab-http';
import { plateChecksForResults } from './pcr.service';

type Ctx = Pick<AppContext, 'db' | 'relay'>;
type Models = AppContext['db']['models'];
type ResultRow = InstanceType<Models['TestResult']>;
type TestRow = InstanceType<Models['Test']>;
type SampleRow = InstanceType<Models['Sample']>;

function interpretation(test: string, value: string): string | null {
  if (!isTestName(test) || !isValidResultValue(test, value)) return null;
  return resultInterpretation(test, value);
}

const includeTestSampleAccount = (m: Models, testWhere: WhereOptions = {}) => ({
  model: m.Test,
  as: 'test',
  required: true,
  where: testWhere,
  attributes: ['id', 'name', 'sampleId'],
  include: [{
    model: m.Sample,
    as: 'sample',
    required: true,
    attributes: ['id', 'barcode', 'status', 'accountId'],
    include: [
      { model: m.Patient, as: 'patient', attributes: ['firstName', 'lastName'] },
      { model: m.Account, as: 'account', attributes: ['name'] },
    ],
  }],
});

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

/** GET get-review-list: results In Review, oldest first, with who entered each and where it came from. */
export async function reviewList(ctx: Ctx, caller: LabCaller, query: ReviewListQuery): Promise<{ total: number; rows: ReviewListRow[] }> {
  const m = ctx.db.models;
  const where: WhereOptions = { status: TestResultStatus.InReview };
  if (query.jobId) Object.assign(where, { importJobId: query.jobId });
  if (query.plateId) {
    const wells = await m.PcrPlateWell.findAll({ where: { plateId: query.plateId, testResultId: { [Op.ne]: null } }, attributes: ['testResultId'] });
    Object.assign(where, { id: wells.map((w) => w.testResultId!) });
  }
  const testWhere = query.group ? { name: APPROVAL_GROUP_TESTS[query.group] as TestName[] } : {};
  const { rows, count } = await m.TestResult.findAndCountAll({
    where,
    include: [
      includeTestSampleAccount(m, testWhere),
      { model: m.User, as: 'enteredBy', attributes: ['id', 'firstName', 'lastName'] },
      { model: m.Job, as: 'importJob', attributes: ['id', 'payload'] },
    ],
    order: [['createdAt', 'ASC'], ['id', 'ASC']],
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
    distinct: true,
  });

  const fileIds = [...new Set(rows.flatMap((r) => (r.importJob ? [Number((r.importJob.payload as { fileId?: number }).fileId)] : [])))];
  const files = fileIds.length ? await m.StoredFile.findAll({ where: { id: fileIds }, attributes: ['id', 'name'] }) : [];
  const plates = await plateChecksForResults(ctx, rows.map((r) => r.id));
  const released = rows.length
    ? await m.TestResult.findAll({ where: { testId: rows.map((r) => r.testId), status: TestResultStatus.Released }, attributes: ['testId', 'value'] })
    : [];

  const out = rows.map((r): ReviewListRow => {
    const test = r.test!;
    const sample = test.sample!;
    const fileId = r.importJob ? Number((r.importJob.payload as { fileId?: number }).fileId) : null;
    const file = fileId ? files.find((f) => f.id === fileId) : undefined;
    const plate = plates.get(r.id);
    const group = isTestName(test.name) ? approvalGroupOf(test.name) : null;
    return {
      id: r.id,
      version: r.version,
      value: r.value,
      interpretation: interpretation(test.name, r.value),
      status: r.status,
      test: test.name,
      approvalGroup: group,
      sampleId: sample.id,
      barcode: sample.barcode,
      sampleStatus: sample.status,
      patient: sample.patient ? patientShortName(sample.patient.firstName, sample.patient.lastName) : '',
      account: sample.account?.name ?? null,
      enteredBy: { id: r.enteredByUserId, name: fullName(r.enteredBy) },
      enteredAt: r.createdAt.toISOString(),
      importJobId: r.importJobId ?? null,
      importFile: file ? { id: file.id, name: file.name } : null,
      plate: plate ? { id: plate.plateId, name: plate.plateName, well: plate.well, controlsPassed: plate.check.ok, controlProblems: plate.check.ok ? [] : plate.check.problems } : null,
      correctionReason: r.correctionReason ?? null,
      releasedValue: released.find((x) => x.testId === r.testId)?.value ?? null,
      canApprove: r.enteredByUserId !== caller.userId && group !== null && (!plate || plate.check.ok),
    };
  });
  await recordAudit(ctx.db, { ...auditBy(caller), action: 'results.review_list_viewed', details: { results: out.map((r) => r.id), total: count } });
  return { total: count, rows: out };
}

/** GET get-cancer-toxicity-results: released results of the cancer and CFRT toxicity tests, newest first. */
export async function releasedToxicityResults(ctx: Ctx, caller: LabCaller, query: ReleasedResultsQuery): Promise<{ total: number; rows: ReleasedResultRow[] }> {
  const m = ctx.db.models;
  const include = includeTestSampleAccount(m, { name: CANCER_TOXICITY_TESTS as TestName[] });
  if (query.barcode) (include.include[0] as { where?: WhereOptions }).where = { barcode: query.barcode };
  const { rows, count } = await m.TestResult.findAndCountAll({
    where: { status: TestResultStatus.Released },
    include: [
      include,
      { model: m.User, as: 'enteredBy', attributes: ['id', 'firstName', 'lastName'] },
      { model: m.User, as: 'reviewedBy', attributes: ['id', 'firstName', 'lastName'] },
    ],
    order: [['reviewedAt', 'DESC'], ['id', 'DESC']],
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
    distinct: true,
  });
  const out = rows.map((r): ReleasedResultRow => ({
    id: r.id,
    version: r.version,
    value: r.value,
    test: r.test!.name,
    sampleId: r.test!.sample!.id,
    barcode: r.test!.sample!.barcode,
    sampleStatus: r.test!.sample!.status,
    patient: r.test!.sample!.patient ? patientShortName(r.test!.sample!.patient.firstName, r.test!.sample!.patient.lastName) : '',
    account: r.test!.sample!.account?.name ?? null,
    enteredBy: { id: r.enteredByUserId, name: fullName(r.enteredBy) },
    releasedBy: r.reviewedBy ? { id: r.reviewedBy.id, name: fullName(r.reviewedBy) } : null,
    releasedAt: toIso(r.reviewedAt),
    correctionReason: r.correctionReason ?? null,
  }));
  await recordAudit(ctx.db, { ...auditBy(caller), action: 'results.released_list_viewed', details: { results: out.map((r) => r.id), total: count } });
  return { total: count, rows: out };
}

/** GET import-tests-review?jobId=: one committed import, and where its results stand in review. */
export async function importReview(ctx: Ctx, caller: LabCaller, jobId: number): Promise<ImportReview> {
  const m = ctx.db.models;
  const job = await m.Job.findOne({ where: { id: jobId, name: LAB_IMPORT_JOB }, include: [{ model: m.User, as: 'createdBy', attributes: ['id', 'firstName', 'lastName'] }] });
  if (!job) throw notFound('Import job not found');
  const payload = job.payload as { fileId: number; kind: string; mode: string };
  const file = await m.StoredFile.findByPk(payload.fileId, { attributes: ['id', 'name'] });
  const counts = (await m.TestResult.count({ where: { importJobId: jobId }, group: ['status'] })) as unknown as { status: string; count: number }[];
  const byStatus = Object.fromEntries(Object.values(TestResultStatus).map((s) => [s, Number(counts.find((c) => c.status === s)?.count ?? 0)]));
  await recordAudit(ctx.db, { ...auditBy(caller), action: 'lab_import.review_viewed', entityKind: 'file', entityId: payload.fileId, details: { jobId } });
  return {
    jobId: job.id,
    mode: payload.mode,
    kind: payload.kind,
    status: job.status,
    file: file ? { id: file.id, name: file.name } : null,
    importedBy: job.createdBy ? { id: job.createdBy.id, name: fullName(job.createdBy) } : null,
    importedAt: toIso(job.finishedAt),
    results: byStatus as Record<TestResultStatus, number>,
    total: Object.values(byStatus).reduce((a, b) => a + b, 0),
  };
}

// ---------------------------------------------------------------------------------------------
// Approve, reject, correct
// ---------------------------------------------------------------------------------------------

interface Loaded {
  results: ResultRow[];
  tests: Map<number, TestRow>;
  samples: Map<number, SampleRow>;
}

/**
 * The results (in the order asked), their tests and their samples. Locks are taken as every
 * command here takes them: the samples first (by id), then the result rows (by id).
 */
async function loadForReview(ctx: Ctx, transaction: Transaction, resultIds: number[]): Promise<Loaded> {
  const m = ctx.db.models;
  const peek = await m.TestResult.findAll({ where: { id: resultIds }, attributes: ['id', 'testId'], transaction });
  const missing = resultIds.find((id) => !peek.some((r) => r.id === id));
  if (missing !== undefined) throw notFound(`Result ${missing} not found`);
  const tests = await m.Test.findAll({ where: { id: [...new Set(peek.map((r) => r.testId))] }, transaction });
  const samples = await m.Sample.findAll({ where: { id: [...new Set(tests.map((t) => t.sampleId))] }, order: [['id', 'ASC']], transaction, lock: transaction.LOCK.UPDATE });
  const found = await m.TestResult.findAll({ where: { id: resultIds }, order: [['id', 'ASC']], transaction, lock: transaction.LOCK.UPDATE });
  const results = resultIds.map((id) => found.find((r) => r.id === id)!);
  return { results, tests: new Map(tests.map((t) => [t.id, t])), samples: new Map(samples.map((s) => [s.id, s])) };
}

/** POST approve-tests-<group>: all or nothing. */
export async function approveResults(ctx: Ctx, caller: LabCaller, group: ApprovalGroup, resultIds: number[]): Promise<ApproveResultsAnswer> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const { results, tests, samples } = await loadForReview(ctx, transaction, resultIds);
    const releasedNow = await m.TestResult.findAll({
      where: { testId: [...tests.keys()], status: TestResultStatus.Released },
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    const testsSeen = new Set<number>();
    for (const r of results) {
      const test = tests.get(r.testId)!;
      const sample = samples.get(test.sampleId)!;
      if (!APPROVAL_GROUP_TESTS[group].includes(test.name)) {
        const own = isTestName(test.name) ? approvalGroupOf(test.name) : null;
        throw badRequest(`Result ${r.id} is a ${test.name} result${own ? `: approve it with approve-tests-${own}` : ''}`);
      }
      if (r.enteredByUserId === caller.userId) throw forbidden(SELF_APPROVAL_MESSAGE);
      if (r.status !== TestResultStatus.InReview) throw conflict(`Result ${r.id} (${sample.barcode}) is ${r.status}: only results in review can be approved`);
      if (testsSeen.has(test.id)) throw conflict(`Two results of the ${test.name} test of sample ${sample.barcode} were chosen: approve one`);
      testsSeen.add(test.id);
      const correction = releasedNow.some((x) => x.testId === test.id);
      if (sample.status !== SampleStatus.InTesting && !(correction && sample.status !== SampleStatus.Rejected && sample.status !== SampleStatus.Discarded)) {
        throw conflict(`Sample ${sample.barcode} is ${sample.status}: its result cannot be released`);
      }
    }
    const plates = await plateChecksForResults(ctx, results.map((r) => r.id), transaction);
    for (const plate of plates.values()) {
      if (!plate.check.ok) throw conflict(`Plate ${plate.plateName} cannot be released: its controls failed (${plate.check.problems.join('; ')})`);
    }

    const now = new Date();
    const approved: ApprovedResult[] = [];
    for (const r of results) {
      const test = tests.get(r.testId)!;
      const sample = samples.get(test.sampleId)!;
      const previous = releasedNow.find((x) => x.testId === test.id);
      if (previous) await previous.update({ status: TestResultStatus.Superseded }, { transaction });
      await r.update({ status: TestResultStatus.Released, reviewedByUserId: caller.userId, reviewedAt: now }, { transaction });
      const reports = isTestName(test.name) && approvalReportsResult(test.name);
      // A processing step (DNA extraction) reports nothing: its sample stays In Testing.
      if (reports && sample.status === SampleStatus.InTesting) {
        await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Resulted, actor: { kind: 'lab', userId: caller.userId }, meta: caller.meta });
      }
      await recordAudit(ctx.db, {
        ...auditBy(caller), action: 'result.approved', entityKind: 'test', entityId: test.id,
        details: { resultId: r.id, version: r.version, sampleId: sample.id, supersededResultId: previous?.id ?? null },
      }, transaction);
      if (reports) {
        await enqueueJob(ctx, transaction, 'render-pdf', { sampleId: sample.id, documentType: DocumentType.LabReport, testResultId: r.id }, { idempotencyKey: `lab-report:${r.id}`, createdByUserId: caller.userId });
        await enqueueJob(ctx, transaction, 'notify-result', { testResultId: r.id }, { idempotencyKey: `notify-result:${r.id}`, createdByUserId: caller.userId });
      }
      approved.push({ resultId: r.id, barcode: sample.barcode, test: test.name, value: r.value, correction: Boolean(previous), sampleStatus: sample.status as Status });
    }
    return { approved };
  });
}

/** POST import-tests-reject: the versions are Rejected; each sample is tested again or rejected. */
export async function rejectResults(ctx: Ctx, caller: LabCaller, body: RejectResultsBody): Promise<RejectResultsAnswer> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const { results, tests, samples } = await loadForReview(ctx, transaction, body.resultIds);
    for (const r of results) {
      const sample = samples.get(tests.get(r.testId)!.sampleId)!;
      if (r.status !== TestResultStatus.InReview) throw conflict(`Result ${r.id} (${sample.barcode}) is ${r.status}: only results in review can be rejected`);
    }
    const toReject = body.sampleOutcome === 'reject-sample' ? [...new Set(results.map((r) => tests.get(r.testId)!.sampleId))].map((id) => samples.get(id)!) : [];
    for (const sample of toReject) {
      const check = checkTransition({ from: sample.status as Status, to: SampleStatus.Rejected, actor: 'lab', reason: body.rejectionReason });
      if (!check.ok) throw conflict(`Sample ${sample.barcode} is ${sample.status}: it cannot be rejected (reject the result for a retest instead)`);
    }

    const now = new Date();
    for (const r of results) {
      const test = tests.get(r.testId)!;
      // The database refuses a reviewer who entered the result: a user withdrawing their own entry is recorded in the audit log only.
      const reviewer = r.enteredByUserId === caller.userId ? null : caller.userId;
      await r.update({ status: TestResultStatus.Rejected, reviewNote: body.reason, reviewedByUserId: reviewer, reviewedAt: now }, { transaction });
      await recordAudit(ctx.db, {
        ...auditBy(caller), action: 'result.rejected', entityKind: 'test', entityId: test.id,
        details: { resultId: r.id, sampleId: test.sampleId, sampleOutcome: body.sampleOutcome, ownEntry: reviewer === null },
      }, transaction);
    }
    for (const sample of toReject) {
      await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Rejected, actor: { kind: 'lab', userId: caller.userId }, reason: body.rejectionReason, meta: caller.meta });
      await withdrawResultsInReview(ctx, transaction, sample.id, `Sample rejected: ${body.rejectionReason}`);
    }
    return {
      rejected: results.map((r) => {
        const test = tests.get(r.testId)!;
        const sample = samples.get(test.sampleId)!;
        return { resultId: r.id, barcode: sample.barcode, test: test.name, sampleStatus: sample.status as Status };
      }),
    };
  });
}

/** POST results/correct: a new In Review version of a released result, with the reason. */
export async function correctResult(ctx: Ctx, caller: LabCaller, body: CorrectResultBody): Promise<CorrectedResult> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const sample = await m.Sample.findOne({ where: { barcode: body.sampleBarcode }, transaction, lock: transaction.LOCK.UPDATE });
    if (!sample) throw notFound(`No sample has barcode ${body.sampleBarcode}`);
    const tests = await m.Test.findAll({ where: { sampleId: sample.id }, order: [['id', 'ASC']], transaction });
    const versions = tests.length ? await m.TestResult.findAll({ where: { testId: tests.map((t) => t.id) }, transaction, lock: transaction.LOCK.UPDATE }) : [];
    const releasedOf = (t: TestRow) => versions.find((v) => v.testId === t.id && v.status === TestResultStatus.Released);

    let test: TestRow | undefined;
    if (body.testName) {
      test = tests.find((t) => t.name === body.testName);
      if (!test) throw notFound(`Sample ${sample.barcode} has no ${body.testName} test`);
    } else {
      const withRelease = tests.filter((t) => releasedOf(t));
      if (withRelease.length > 1) throw badRequest(`Sample ${sample.barcode} has several released results (${withRelease.map((t) => t.name).join(', ')}): choose the test`, [{ field: 'testName', message: 'Choose the test to correct' }]);
      test = withRelease[0];
      if (!test) throw conflict(`Sample ${sample.barcode} has no released result to correct`);
    }
    const released = releasedOf(test);
    if (!released) throw conflict(`Sample ${sample.barcode} has no released ${test.name} result to correct`);
    if (versions.some((v) => v.testId === test.id && v.status === TestResultStatus.InReview)) {
      throw conflict(`Sample ${sample.barcode} already has a ${test.name} result waiting for review`);
    }
    const name = test.name;
    if (!isTestName(name) || !isValidResultValue(name, body.value)) {
      const allowed = isTestName(name) ? catalogueEntry(name).acceptedScales.flatMap((s) => scaleValues(s) ?? []).join(', ') : '';
      const message = `"${body.value}" is not a result of ${name}${allowed ? ` (use one of: ${allowed})` : ''}`;
      throw badRequest(message, [{ field: 'value', message }]);
    }
    if (body.value === released.value) {
      throw badRequest(`The released ${name} result is already ${released.value}`, [{ field: 'value', message: 'The corrected value is the same as the released one' }]);
    }
    const created = await m.TestResult.create(
      {
        testId: test.id,
        version: Math.max(...versions.filter((v) => v.testId === test.id).map((v) => v.version)) + 1,
        value: body.value,
        scale: resultScaleOf(name, body.value),
        status: TestResultStatus.InReview,
        enteredByUserId: caller.userId,
        correctionReason: body.reason,
      },
      { transaction },
    );
    await recordAudit(ctx.db, {
      ...auditBy(caller), action: 'result.correction_entered', entityKind: 'test', entityId: test.id,
      details: { resultId: created.id, version: created.version, correctsResultId: released.id, sampleId: sample.id },
    }, transaction);
    return { resultId: created.id, version: created.version, barcode: sample.barcode, test: name, value: created.value, releasedValue: released.value, status: created.status };
  });
}
