/**
 * DNA extractions in the Lab Toolbox. An extraction run is imported through the result-file
 * pipeline (imports.service.ts, kind dna-extraction; the worker writes a DNA Extraction result
 * In Review and a dna_extractions row per sample). Here: the imported extractions (one import's,
 * the flagged ones still waiting for a decision), the decision on a flagged one (re-extraction:
 * the `<sampleId>.reex` id, the sample stays In Testing, a step on its timeline; or rejection
 * 'Rejected - quantity not sufficient' through moveSample), and the flags the release rule needs.
 */
import { Op, QueryTypes, literal, type Transaction, type WhereOptions } from 'sequelize';
import {
  dnaQcOf,
  EXTRACTION_OUTCOMES,
  EXTRACTION_REJECTION_REASON,
  extractionDecisionRefusal,
  fullName,
  reextractionIdOf,
  SampleStatus,
  TestResultStatus,
  type ExtractionDecisionAnswer,
  type ExtractionDecisionBody,
  type ExtractionListQuery,
  type ExtractionOutcome,
  type ExtractionView,
  type SampleDna,
  type SampleStatus as Status,
} from '@platform/domain';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { conflict, conflictOnDuplicate, notFound } from '../errors';
import { moveSample } from '../samples/move-sample';
import { noteOnTimeline } from '../samples/timeline-note';
import { containsPattern, toIso } from '../answer-values';
import { withdrawResultsInReview } from '../samples/intake';
import type { Models, ReviewCtx } from '../samples/review-rows';

type Ctx = ReviewCtx;
type ExtractionRow = InstanceType<Models['DnaExtraction']>;

const FLAGGED = literal(`"DnaExtraction"."flags" <> '[]'::jsonb`);

const userName = (u: { id: number; firstName: string; lastName: string } | null | undefined) => (u ? { id: u.id, name: fullName(u) ?? 'Unknown' } : null);

function viewOf(e: ExtractionRow): ExtractionView {
  const sample = e.sample!;
  const result = e.testResult!;
  const state = {
    label: e.label, barcode: sample.barcode, flags: e.flags, outcome: e.outcome, reextractionId: e.reextractionId,
    resultStatus: result.status, sampleStatus: sample.status as Status,
  };
  return {
    id: e.id,
    label: e.label,
    barcode: sample.barcode,
    sampleId: sample.id,
    sampleStatus: sample.status,
    concentration: Number(e.concentrationNgPerUl),
    a260280: Number(e.a260280),
    volume: Number(e.volumeUl),
    plate: e.plate,
    well: e.well,
    flags: e.flags,
    importJobId: e.importJobId,
    fileRow: e.fileRow,
    result: { id: result.id, version: result.version, status: result.status },
    enteredBy: userName(result.enteredBy) ?? { id: result.enteredByUserId, name: 'Unknown' },
    enteredAt: result.createdAt.toISOString(),
    outcome: e.outcome,
    reextractionId: e.reextractionId,
    decidedBy: userName(e.decidedBy),
    decidedAt: toIso(e.decidedAt),
    refusals: Object.fromEntries(EXTRACTION_OUTCOMES.map((o) => [o, extractionDecisionRefusal(state, o)])) as Record<ExtractionOutcome, string | null>,
  };
}

const includeView = (m: Models, resultWhere?: WhereOptions, sampleWhere?: WhereOptions) => [
  { model: m.Sample, as: 'sample', required: true, attributes: ['id', 'barcode', 'status'], ...(sampleWhere ? { where: sampleWhere } : {}) },
  {
    model: m.TestResult,
    as: 'testResult',
    required: true,
    ...(resultWhere ? { where: resultWhere } : {}),
    attributes: ['id', 'version', 'status', 'enteredByUserId', 'createdAt'],
    include: [{ model: m.User, as: 'enteredBy', attributes: ['id', 'firstName', 'lastName'] }],
  },
  { model: m.User, as: 'decidedBy', attributes: ['id', 'firstName', 'lastName'] },
];

/** GET dna-extractions: imported extractions, oldest first (one import's; flagged ones; those still to decide). */
export async function listExtractions(ctx: Ctx, caller: UserCaller, query: ExtractionListQuery): Promise<{ total: number; rows: ExtractionView[] }> {
  const m = ctx.db.models;
  const and: WhereOptions[] = [];
  if (query.jobId) and.push({ importJobId: query.jobId });
  if (query.flagged || query.awaitingDecision) and.push(FLAGGED);
  if (query.flagged === false) and.push(literal(`"DnaExtraction"."flags" = '[]'::jsonb`));
  if (query.awaitingDecision) and.push({ outcome: null });
  const { rows, count } = await m.DnaExtraction.findAndCountAll({
    where: { [Op.and]: and },
    include: includeView(m, query.awaitingDecision ? { status: TestResultStatus.InReview } : undefined,
      query.barcode ? { barcode: { [Op.iLike]: containsPattern(query.barcode) } } : undefined),
    order: [['id', 'ASC']],
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
    distinct: true,
  });
  const out = rows.map(viewOf);
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'dna_extractions.viewed', details: { extractions: out.map((e) => e.id), total: count } });
  return { total: count, rows: out };
}

async function loadView(ctx: Ctx, id: number, transaction: Transaction): Promise<ExtractionView> {
  const m = ctx.db.models;
  const e = await m.DnaExtraction.findByPk(id, { include: includeView(m), transaction, rejectOnEmpty: true });
  return viewOf(e);
}

/**
 * POST dna-extractions/{id}/decide: for a flagged extraction, in one transaction, either
 * - re-extraction: the extraction records `<sampleId>.reex` (unique: a sample is re-extracted
 *   once), its result version is withdrawn (Rejected, 'Sent to re-extraction as …'), the sample
 *   stays In Testing with a step on its timeline; the next extraction file names the sample
 *   `<sampleId>.reex`; or
 * - reject-sample: the sample moves to Rejected with 'Rejected - quantity not sufficient'
 *   (moveSample: status event and audit) and its results in review are withdrawn.
 * Any lab user may decide (it releases nothing). Locks: the sample, then the extraction, then its result.
 */
export async function decideExtraction(ctx: Ctx, caller: UserCaller, extractionId: number, body: ExtractionDecisionBody): Promise<ExtractionDecisionAnswer> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const peek = await m.DnaExtraction.findByPk(extractionId, { attributes: ['id', 'sampleId'], transaction });
    if (!peek) throw notFound('DNA extraction not found');
    const sample = await m.Sample.findByPk(peek.sampleId, { transaction, lock: transaction.LOCK.UPDATE, rejectOnEmpty: true });
    const extraction = await m.DnaExtraction.findByPk(extractionId, { transaction, lock: transaction.LOCK.UPDATE, rejectOnEmpty: true });
    const result = await m.TestResult.findByPk(extraction.testResultId, { transaction, lock: transaction.LOCK.UPDATE, rejectOnEmpty: true });
    const refusal = extractionDecisionRefusal({
      label: extraction.label, barcode: sample.barcode, flags: extraction.flags, outcome: extraction.outcome, reextractionId: extraction.reextractionId,
      resultStatus: result.status, sampleStatus: sample.status as Status,
    }, body.outcome);
    if (refusal) throw conflict(refusal);

    const now = new Date();
    const decided = { outcome: body.outcome, decidedByUserId: caller.userId, decidedAt: now };
    let message: string;
    if (body.outcome === 're-extraction') {
      const reextractionId = reextractionIdOf(sample.barcode);
      await conflictOnDuplicate(() => extraction.update({ ...decided, reextractionId }, { transaction }), {
        dna_extractions_reextraction_id_key: { field: 'outcome', message: `Sample ${sample.barcode} was already sent to re-extraction (${reextractionId})` },
      });
      // The flagged extraction is not released: its version is withdrawn (the database refuses a reviewer who entered it).
      await result.update({
        status: TestResultStatus.Rejected, reviewNote: `Sent to re-extraction as ${reextractionId}`,
        reviewedByUserId: result.enteredByUserId === caller.userId ? null : caller.userId, reviewedAt: now,
      }, { transaction });
      await noteOnTimeline(ctx.db, transaction, sample, { by: caller, reason: `Sent to re-extraction as ${reextractionId}`, at: now });
      await recordAudit(ctx.db, {
        ...auditActor(caller), action: 'dna_extraction.sent_to_reextraction', entityKind: 'sample', entityId: sample.id,
        details: { extractionId: extraction.id, resultId: result.id, reextractionId, flags: extraction.flags.length },
      }, transaction);
      message = `${extraction.label} sent to re-extraction: its new extraction goes by ${reextractionId}; the sample stays In Testing`;
    } else {
      await extraction.update(decided, { transaction });
      await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Rejected, by: caller, reason: EXTRACTION_REJECTION_REASON, at: now });
      const withdrawn = await withdrawResultsInReview(ctx, transaction, sample.id, `Sample rejected: ${EXTRACTION_REJECTION_REASON}`, caller.userId);
      await recordAudit(ctx.db, {
        ...auditActor(caller), action: 'dna_extraction.sample_rejected', entityKind: 'sample', entityId: sample.id,
        details: { extractionId: extraction.id, resultId: result.id, reason: EXTRACTION_REJECTION_REASON, resultsWithdrawn: withdrawn, flags: extraction.flags.length },
      }, transaction);
      message = `Sample ${sample.barcode} rejected: ${EXTRACTION_REJECTION_REASON}`;
    }
    return { extraction: await loadView(ctx, extraction.id, transaction), message };
  });
}

/**
 * Each sample's DNA state by its newest extraction (dnaQcOf), for the release rule and the review
 * list: samples with no extraction are absent. One statement whatever the number of samples.
 */
export async function dnaOfSamples(ctx: Ctx, sampleIds: number[], transaction?: Transaction): Promise<Map<number, SampleDna>> {
  const map = new Map<number, SampleDna>();
  if (!sampleIds.length) return map;
  const rows = await ctx.db.sequelize.query<{ sample_id: number; label: string; flags: string[]; outcome: ExtractionOutcome | null; result_status: string }>(
    `SELECT DISTINCT ON (e.sample_id) e.sample_id, e.label, e.flags, e.outcome, r.status AS result_status
       FROM dna_extractions e JOIN test_results r ON r.id = e.test_result_id
      WHERE e.sample_id IN (:sampleIds)
      ORDER BY e.sample_id, e.id DESC`,
    { replacements: { sampleIds: [...new Set(sampleIds)] }, type: QueryTypes.SELECT, transaction },
  );
  for (const e of rows) {
    map.set(Number(e.sample_id), { label: e.label, flags: e.flags, qc: dnaQcOf({ label: e.label, flags: e.flags, outcome: e.outcome, resultStatus: e.result_status }) });
  }
  return map;
}

/** The extraction each result records (label and flags), for the release rule: results that record none are absent. */
export async function extractionsForResults(ctx: Ctx, resultIds: number[], transaction?: Transaction): Promise<Map<number, { label: string; flags: string[] }>> {
  const map = new Map<number, { label: string; flags: string[] }>();
  if (!resultIds.length) return map;
  const rows = await ctx.db.models.DnaExtraction.findAll({ where: { testResultId: resultIds }, attributes: ['testResultId', 'label', 'flags'], transaction });
  for (const e of rows) map.set(e.testResultId, { label: e.label, flags: e.flags });
  return map;
}
