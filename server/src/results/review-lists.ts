/**
 * The review lists: results waiting in review (with whether the caller may release each, by the
 * release rule of domain), released toxicity results, and one import's standing in review.
 */
import type { WhereOptions } from 'sequelize';
import {
  APPROVAL_GROUP_TESTS,
  approvalGroupOf,
  canRelease,
  CANCER_TOXICITY_TESTS,
  changedFromLast,
  checkPcrControls,
  controlOutcomes,
  dnaQcOf,
  catalogueEntry,
  DNA_QC_LABELS,
  DnaQc,
  fullName,
  isTestName,
  isValidResultValue,
  patientShortName,
  REVIEW_EARLIER_RESULTS,
  resultInterpretation,
  SampleStatus,
  specimenAgeHours,
  TestResultStatus,
  type ImportReview,
  type ReleasedResultRow,
  type ExtractionOutcome,
  type PcrControlKind,
  type ReleasedResultsQuery,
  type ReviewContext,
  type ReviewListQuery,
  type ReviewListRow,
  type SampleDna,
  type SpecimenCondition,
  type SampleStatus as Status,
  type TestName,
} from '@platform/domain';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { notFound } from '../errors';
import { containsPattern, toIso } from '../answer-values';
import { auditedPage, offsetOf } from '../paging';
import { LAB_IMPORT_JOB } from '../imports/imports';
import { includeTestSampleAccount, type ReviewCtx } from '../samples/review-rows';
type Ctx = ReviewCtx;

function interpretation(test: string, value: string): string | null {
  if (!isTestName(test) || !isValidResultValue(test, value)) return null;
  return resultInterpretation(test, value);
}

/** One result In Review as the review list reads it: the result, its test and sample, who entered it, its import file and the released value it would correct. */
interface ReviewSqlRow {
  id: number;
  test_id: number;
  version: number;
  value: string;
  status: string;
  entered_by_user_id: number;
  import_job_id: number | null;
  correction_reason: string | null;
  created_at: Date;
  test_name: string;
  sample_id: number;
  barcode: string;
  sample_status: string;
  status_before_storage: string | null;
  patient_id: number | null;
  first_name: string | null;
  last_name: string | null;
  study_id: string | null;
  account_name: string | null;
  entered_first_name: string | null;
  entered_last_name: string | null;
  file_id: number | null;
  file_name: string | null;
  released_value: string | null;
  sample_type: string | null;
  condition: SpecimenCondition | null;
  condition_note: string | null;
  collected_at: Date | null;
  received_at: Date | null;
  tested_at: Date | null;
  /** The extraction the result records, or else the sample's newest (own tells which). */
  ex_label: string | null;
  ex_concentration: string | null;
  ex_a260_280: string | null;
  ex_volume: string | null;
  ex_plate: string | null;
  ex_well: string | null;
  ex_flags: string[] | null;
  ex_outcome: ExtractionOutcome | null;
  ex_result_status: string | null;
  ex_own: boolean | null;
  /** The PCR plate well the result was read in, and the plate's control wells. */
  plate_id: number | null;
  plate_name: string | null;
  plate_well: string | null;
  plate_controls: { well: string; label: string; kind: PcrControlKind; result: string | null }[] | null;
  earlier: { resultId: number; barcode: string; value: string; releasedAt: string | null; sameSample: boolean }[] | null;
}

/**
 * What the review list's filters select, as SQL over test_results r, tests t, samples s: results In
 * Review of an import job, of a plate, entered by a user; of a test or an approval group; of
 * samples whose barcode holds the text given.
 */
function reviewFilters(query: ReviewListQuery): { where: string; replacements: Record<string, unknown> } {
  const where = ['r.status = :inReview'];
  const replacements: Record<string, unknown> = {};
  if (query.jobId) (where.push('r.import_job_id = :jobId'), (replacements.jobId = query.jobId));
  if (query.enteredBy) (where.push('r.entered_by_user_id = :enteredBy'), (replacements.enteredBy = query.enteredBy));
  if (query.plateId) {
    where.push('r.id IN (SELECT w.test_result_id FROM pcr_plate_wells w WHERE w.plate_id = :plateId AND w.test_result_id IS NOT NULL)');
    replacements.plateId = query.plateId;
  }
  const groupTests: readonly string[] | null = query.group ? APPROVAL_GROUP_TESTS[query.group] : null;
  const tests = query.test ? (groupTests && !groupTests.includes(query.test) ? [] : [query.test]) : groupTests;
  if (tests) (where.push('t.name IN (:tests)'), (replacements.tests = [...tests]));
  if (query.barcode) (where.push('s.barcode ILIKE :barcode'), (replacements.barcode = containsPattern(query.barcode)));
  return { where: where.join(' AND '), replacements };
}

/** GET get-review-list: results In Review, oldest first, with who entered each and where it came from. */
export async function reviewList(ctx: Ctx, caller: UserCaller, query: ReviewListQuery): Promise<{ total: number; rows: ReviewListRow[] }> {
  const filter = reviewFilters(query);
  // The whole queue (no filter) is counted from the status index alone (every result has its test and sample).
  const unfiltered = Object.keys(filter.replacements).length === 0;
  // One statement per page: the page is chosen first (its order and bounds), and only its rows
  // reach the LATERAL joins that bring each result's context (its extraction, its plate's
  // controls, the patient's earlier released results of the same test, when testing began).
  const { rows, total } = await auditedPage<ReviewSqlRow>(ctx.db, {
    select: `SELECT pg.*,
                    x.label AS ex_label, x.concentration_ng_per_ul AS ex_concentration, x.a260_280 AS ex_a260_280, x.volume_ul AS ex_volume,
                    x.plate AS ex_plate, x.well AS ex_well, x.flags AS ex_flags, x.outcome AS ex_outcome, x.result_status AS ex_result_status, x.own AS ex_own,
                    pw.plate_id, pw.plate_name, pw.well AS plate_well, pw.controls AS plate_controls,
                    ev.earlier,
                    (SELECT min(se.created_at) FROM sample_status_events se WHERE se.sample_id = pg.sample_id AND se.to_status = :inTesting) AS tested_at
               FROM (SELECT r.id, r.test_id, r.version, r.value, r.status, r.entered_by_user_id, r.import_job_id, r.correction_reason, r.created_at,
                            t.name AS test_name, s.id AS sample_id, s.barcode, s.status AS sample_status, s.status_before_storage,
                            s.sample_type, s.condition, s.condition_note, s.collected_at, s.received_at,
                            p.id AS patient_id, p.first_name, p.last_name, p.study_id, a.name AS account_name,
                            u.first_name AS entered_first_name, u.last_name AS entered_last_name,
                            f.id AS file_id, f.name AS file_name, rel.value AS released_value
                       FROM test_results r
                       JOIN tests t ON t.id = r.test_id
                       JOIN samples s ON s.id = t.sample_id
                       LEFT JOIN patients p ON p.id = s.patient_id
                       LEFT JOIN accounts a ON a.id = s.account_id
                       LEFT JOIN users u ON u.id = r.entered_by_user_id
                       LEFT JOIN jobs j ON j.id = r.import_job_id
                       LEFT JOIN files f ON f.id = (j.payload ->> 'fileId')::bigint
                       LEFT JOIN test_results rel ON rel.test_id = r.test_id AND rel.status = :released
                      WHERE ${filter.where}
                      ORDER BY r.created_at ASC, r.id ASC
                      LIMIT :limit OFFSET :offset) pg
               LEFT JOIN LATERAL (
                 SELECT e.label, e.concentration_ng_per_ul, e.a260_280, e.volume_ul, e.plate, e.well, e.flags, e.outcome,
                        er.status AS result_status, e.test_result_id = pg.id AS own
                   FROM dna_extractions e JOIN test_results er ON er.id = e.test_result_id
                  WHERE e.sample_id = pg.sample_id
                  ORDER BY e.test_result_id = pg.id DESC, e.id DESC
                  LIMIT 1) x ON true
               LEFT JOIN LATERAL (
                 SELECT w.plate_id, pp.name AS plate_name, w.well,
                        (SELECT jsonb_agg(jsonb_build_object('well', c.well, 'label', c.label, 'kind', c.control_kind, 'result', c.result) ORDER BY c.id)
                           FROM pcr_plate_wells c WHERE c.plate_id = w.plate_id AND c.control_kind IS NOT NULL) AS controls
                   FROM pcr_plate_wells w JOIN pcr_plates pp ON pp.id = w.plate_id
                  WHERE w.test_result_id = pg.id) pw ON true
               LEFT JOIN LATERAL (
                 SELECT jsonb_agg(jsonb_build_object('resultId', e.id, 'barcode', e.barcode, 'value', e.value, 'releasedAt', e.reviewed_at, 'sameSample', e.sample_id = pg.sample_id)
                                  ORDER BY e.reviewed_at DESC NULLS LAST, e.id DESC) AS earlier
                   FROM (SELECT er.id, es.barcode, er.value, er.reviewed_at, es.id AS sample_id
                           FROM samples es
                           JOIN tests et ON et.sample_id = es.id AND et.name = pg.test_name
                           JOIN test_results er ON er.test_id = et.id AND er.status = :released
                          WHERE es.patient_id = pg.patient_id AND er.id <> pg.id
                          ORDER BY er.reviewed_at DESC NULLS LAST, er.id DESC
                          LIMIT ${REVIEW_EARLIER_RESULTS}) e) ev ON true
              ORDER BY pg.created_at ASC, pg.id ASC`,
    fromWhere: unfiltered ? 'FROM test_results r WHERE r.status = :inReview' : `FROM test_results r JOIN tests t ON t.id = r.test_id JOIN samples s ON s.id = t.sample_id WHERE ${filter.where}`,
    replacements: { ...filter.replacements, limit: query.pageSize, offset: offsetOf(query.page, query.pageSize) },
    constants: { inReview: TestResultStatus.InReview, released: TestResultStatus.Released, inTesting: SampleStatus.InTesting },
    audit: { ...auditActor(caller), action: 'results.review_list_viewed', details: { filters: filtersOf(query) } },
    idsKey: 'results',
    literalFirstPages: true,
  });
  const out = rows.map((r): ReviewListRow => {
    const controls = (r.plate_controls ?? []).map((c) => ({ well: c.well, label: c.label, control: c.kind, result: c.result }));
    const check = r.plate_id !== null ? checkPcrControls(controls) : null;
    const plate = r.plate_id !== null ? { plateId: Number(r.plate_id), plateName: r.plate_name!, well: r.plate_well!, check: check! } : null;
    const group = isTestName(r.test_name) ? approvalGroupOf(r.test_name) : null;
    const ex = r.ex_label !== null
      ? { label: r.ex_label, flags: r.ex_flags ?? [], qc: dnaQcOf({ label: r.ex_label, flags: r.ex_flags ?? [], outcome: r.ex_outcome, resultStatus: r.ex_result_status! }), own: r.ex_own === true }
      : null;
    const extraction = ex?.own ? { label: ex.label, flags: ex.flags } : null;
    const sampleDna: SampleDna | null = ex && !ex.own ? { label: ex.label, qc: ex.qc, flags: ex.flags } : null;
    const decision = canRelease({
      resultId: r.id, resultStatus: r.status as TestResultStatus, testName: r.test_name, enteredByUserId: r.entered_by_user_id, barcode: r.barcode,
      sampleStatus: r.sample_status as Status, statusBeforeStorage: r.status_before_storage as Status | null, correction: r.released_value !== null,
      plate: plate ? { name: plate.plateName, ok: plate.check.ok, problems: plate.check.ok ? [] : plate.check.problems } : null,
      extraction, sampleDna,
    }, caller.userId);
    const earlier = (r.earlier ?? []).map((e) => ({ resultId: Number(e.resultId), barcode: e.barcode, value: e.value, releasedAt: e.releasedAt === null ? null : new Date(e.releasedAt).toISOString(), sameSample: e.sameSample }));
    const testedAt = new Date(r.tested_at ?? r.created_at);
    const context: ReviewContext = {
      extraction: ex && r.ex_label !== null
        ? {
          label: ex.label, concentration: Number(r.ex_concentration), a260280: Number(r.ex_a260_280), volume: Number(r.ex_volume),
          plate: r.ex_plate!, well: r.ex_well!, flags: ex.flags, qc: ex.qc, own: ex.own,
        }
        : null,
      controls: controlOutcomes(controls),
      specimen: {
        sampleType: r.sample_type,
        condition: r.condition,
        conditionNote: r.condition_note,
        collectedAt: toIso(r.collected_at),
        receivedAt: toIso(r.received_at),
        testedAt: testedAt.toISOString(),
        ageAtTestingHours: specimenAgeHours(r.collected_at, testedAt),
      },
      earlier,
      changedFromLast: changedFromLast(r.value, earlier),
    };
    return {
      id: r.id,
      version: r.version,
      value: r.value,
      interpretation: interpretation(r.test_name, r.value),
      status: r.status,
      test: r.test_name,
      approvalGroup: group,
      sampleId: r.sample_id,
      barcode: r.barcode,
      sampleStatus: r.sample_status,
      patient: r.patient_id !== null ? patientShortName({ firstName: r.first_name, lastName: r.last_name, studyId: r.study_id }) : '',
      account: r.account_name,
      enteredBy: { id: r.entered_by_user_id, name: r.entered_first_name === null ? 'Unknown' : fullName({ firstName: r.entered_first_name, lastName: r.entered_last_name ?? '' }) },
      enteredAt: new Date(r.created_at).toISOString(),
      importJobId: r.import_job_id ?? null,
      importFile: r.file_id ? { id: r.file_id, name: r.file_name! } : null,
      plate: plate ? { id: plate.plateId, name: plate.plateName, well: plate.well, controlsPassed: plate.check.ok, controlProblems: plate.check.ok ? [] : plate.check.problems } : null,
      correctionReason: r.correction_reason ?? null,
      releasedValue: r.released_value,
      dna: extraction ? null : dnaView(r.test_name, sampleDna),
      canApprove: decision.ok,
      cannotApprove: decision.ok ? null : decision.message,
      context,
    };
  });
  return { total, rows: out };
}

/** A sample's DNA state as a review row shows it: for the genetic tests (a parent test type), or wherever an extraction was imported. */
function dnaView(test: string, dna: SampleDna | null): ReviewListRow['dna'] {
  if (!dna) return isTestName(test) && catalogueEntry(test).parentType ? { qc: DnaQc.None, label: null, text: DNA_QC_LABELS[DnaQc.None] } : null;
  const flags = dna.qc === DnaQc.Flagged ? ` (${dna.flags.join('; ')})` : '';
  return { qc: dna.qc, label: dna.label, text: `${DNA_QC_LABELS[dna.qc]}: ${dna.label}${flags}` };
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
