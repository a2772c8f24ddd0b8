/**
 * The review lists: results waiting in review (with whether the caller may release each, by the
 * release rule of domain), released toxicity results, and one import's standing in review.
 */
import { Op, type WhereOptions } from 'sequelize';
import {
  APPROVAL_GROUP_TESTS,
  approvalGroupOf,
  canRelease,
  CANCER_TOXICITY_TESTS,
  fullName,
  isTestName,
  isValidResultValue,
  patientShortName,
  resultInterpretation,
  TestResultStatus,
  type ImportReview,
  type ReleasedResultRow,
  type ReleasedResultsQuery,
  type ReviewListQuery,
  type ReviewListRow,
  type SampleStatus as Status,
  type TestName,
} from '@platform/domain';
import { auditActor, notFound, recordAudit } from '@platform/server';
import { containsPattern, toIso } from '../http/answer-values';
import type { UserCaller } from '../http/caller';
import { listTotal, offsetOf } from '../http/paging';
import { LAB_IMPORT_JOB } from './imports.service';
import { plateChecksForResults } from './pcr.service';
import { extractionsForResults } from './extractions.service';
import { includeTestSampleAccount, type ReviewCtx } from './review-rows';
type Ctx = ReviewCtx;

function interpretation(test: string, value: string): string | null {
  if (!isTestName(test) || !isValidResultValue(test, value)) return null;
  return resultInterpretation(test, value);
}

/**
 * What the review list's filters select: results In Review of an import job, of a plate, entered
 * by a user; of a test or an approval group; of samples whose barcode holds the text given.
 */
async function reviewFilters(ctx: Ctx, query: ReviewListQuery) {
  const where: WhereOptions = { status: TestResultStatus.InReview };
  if (query.jobId) Object.assign(where, { importJobId: query.jobId });
  if (query.enteredBy) Object.assign(where, { enteredByUserId: query.enteredBy });
  if (query.plateId) {
    const wells = await ctx.db.models.PcrPlateWell.findAll({ where: { plateId: query.plateId, testResultId: { [Op.ne]: null } }, attributes: ['testResultId'] });
    Object.assign(where, { id: wells.map((w) => w.testResultId!) });
  }
  const groupTests: readonly string[] | null = query.group ? APPROVAL_GROUP_TESTS[query.group] : null;
  const tests = query.test ? (groupTests && !groupTests.includes(query.test) ? [] : [query.test]) : groupTests;
  const testWhere: WhereOptions = tests ? { name: tests as TestName[] } : {};
  const sampleWhere: WhereOptions = query.barcode ? { barcode: { [Op.iLike]: containsPattern(query.barcode) } } : {};
  return { where, testWhere, sampleWhere };
}

/** GET get-review-list: results In Review, oldest first, with who entered each and where it came from. */
export async function reviewList(ctx: Ctx, caller: UserCaller, query: ReviewListQuery): Promise<{ total: number; rows: ReviewListRow[] }> {
  const m = ctx.db.models;
  const { where, testWhere, sampleWhere } = await reviewFilters(ctx, query);
  // The whole queue (no filter) is counted from the status index alone (every result has its test and sample).
  const unfiltered = !query.jobId && !query.enteredBy && !query.plateId && !query.group && !query.test && !query.barcode;
  const [rows, count] = await Promise.all([
    m.TestResult.findAll({
      where,
      include: [
        includeTestSampleAccount(m, testWhere, sampleWhere),
        { model: m.User, as: 'enteredBy', attributes: ['id', 'firstName', 'lastName'] },
        { model: m.Job, as: 'importJob', attributes: ['id', 'payload'] },
      ],
      order: [['createdAt', 'ASC'], ['id', 'ASC']],
      limit: query.pageSize,
      offset: offsetOf(query.page, query.pageSize),
    }),
    unfiltered
      ? listTotal(ctx.db, 'FROM test_results WHERE status = :inReview', { inReview: TestResultStatus.InReview })
      : m.TestResult.count({ where, include: [includeTestSampleAccount(m, testWhere, sampleWhere)], distinct: true, col: 'id' }),
  ]);

  const fileIds = [...new Set(rows.flatMap((r) => (r.importJob ? [Number((r.importJob.payload as { fileId?: number }).fileId)] : [])))];
  const files = fileIds.length ? await m.StoredFile.findAll({ where: { id: fileIds }, attributes: ['id', 'name'] }) : [];
  const plates = await plateChecksForResults(ctx, rows.map((r) => r.id));
  const extractions = await extractionsForResults(ctx, rows.map((r) => r.id));
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
      patient: sample.patient ? patientShortName(sample.patient) : '',
      account: sample.account?.name ?? null,
      enteredBy: { id: r.enteredByUserId, name: fullName(r.enteredBy) ?? 'Unknown' },
      enteredAt: r.createdAt.toISOString(),
      importJobId: r.importJobId ?? null,
      importFile: file ? { id: file.id, name: file.name } : null,
      plate: plate ? { id: plate.plateId, name: plate.plateName, well: plate.well, controlsPassed: plate.check.ok, controlProblems: plate.check.ok ? [] : plate.check.problems } : null,
      correctionReason: r.correctionReason ?? null,
      releasedValue: released.find((x) => x.testId === r.testId)?.value ?? null,
      canApprove: canRelease({
        resultId: r.id, resultStatus: r.status, testName: test.name, enteredByUserId: r.enteredByUserId, barcode: sample.barcode,
        sampleStatus: sample.status as Status, correction: released.some((x) => x.testId === r.testId),
        plate: plate ? { name: plate.plateName, ok: plate.check.ok, problems: plate.check.ok ? [] : plate.check.problems } : null,
        extraction: extractions.get(r.id) ?? null,
      }, caller.userId).ok,
    };
  });
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'results.review_list_viewed', details: { results: out.map((r) => r.id), total: count, filters: filtersOf(query) } });
  return { total: count, rows: out };
}

/** The filters a review list was read with, for its audit row. */
function filtersOf(query: ReviewListQuery) {
  const { group, jobId, plateId, test, enteredBy, barcode } = query;
  return { group, jobId, plateId, test, enteredBy, barcode };
}

/** GET get-cancer-toxicity-results: released results of the cancer and CFRT toxicity tests, newest first. */
export async function releasedToxicityResults(ctx: Ctx, caller: UserCaller, query: ReleasedResultsQuery): Promise<{ total: number; rows: ReleasedResultRow[] }> {
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
    patient: r.test!.sample!.patient ? patientShortName(r.test!.sample!.patient) : '',
    account: r.test!.sample!.account?.name ?? null,
    enteredBy: { id: r.enteredByUserId, name: fullName(r.enteredBy) ?? 'Unknown' },
    releasedBy: r.reviewedBy ? { id: r.reviewedBy.id, name: fullName(r.reviewedBy) ?? 'Unknown' } : null,
    releasedAt: toIso(r.reviewedAt),
    correctionReason: r.correctionReason ?? null,
  }));
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'results.released_list_viewed', details: { results: out.map((r) => r.id), total: count } });
  return { total: count, rows: out };
}

/** GET import-tests-review?jobId=: one committed import, and where its results stand in review. */
export async function importReview(ctx: Ctx, caller: UserCaller, jobId: number): Promise<ImportReview> {
  const m = ctx.db.models;
  const job = await m.Job.findOne({ where: { id: jobId, name: LAB_IMPORT_JOB }, include: [{ model: m.User, as: 'createdBy', attributes: ['id', 'firstName', 'lastName'] }] });
  if (!job) throw notFound('Import job not found');
  const payload = job.payload as { fileId: number; kind: string; mode: string };
  const file = await m.StoredFile.findByPk(payload.fileId, { attributes: ['id', 'name'] });
  const counts = (await m.TestResult.count({ where: { importJobId: jobId }, group: ['status'] })) as unknown as { status: string; count: number }[];
  const byStatus = Object.fromEntries(Object.values(TestResultStatus).map((s) => [s, Number(counts.find((c) => c.status === s)?.count ?? 0)]));
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'lab_import.review_viewed', entityKind: 'file', entityId: payload.fileId, details: { jobId } });
  return {
    jobId: job.id,
    mode: payload.mode,
    kind: payload.kind,
    status: job.status,
    file: file ? { id: file.id, name: file.name } : null,
    importedBy: job.createdBy ? { id: job.createdBy.id, name: fullName(job.createdBy) ?? 'Unknown' } : null,
    importedAt: toIso(job.finishedAt),
    results: byStatus as Record<TestResultStatus, number>,
    total: Object.values(byStatus).reduce((a, b) => a + b, 0),
  };
}
