/**
 * Review and release of results. Every entered or imported value waits In Review; a lab user
 * other than the one who entered it approves (Released: the sample moves to Resulted, the lab
 * report and the result notifications are queued) or rejects it with a reason (the sample is
 * tested again or rejected). A correction of a released result is a new version with a reason;
 * its approval supersedes the released one and changes no sample status.
 * Who may release what is the release rule of domain (canRelease), used here and by the review list.
 */
import type { Transaction } from 'sequelize';
import {
  approvalReportsResult,
  canRelease,
  catalogueEntry,
  describeSampleStatus,
  DocumentType,
  isTestName,
  isValidResultValue,
  planStatusChange,
  resultScaleOf,
  SampleStatus,
  scaleValues,
  SignatureMeaning,
  type SignedResultContent,
  TestResultStatus,
  type ApprovalGroup,
  type ApproveResultsAnswer,
  type ApprovedResult,
  type CorrectedResult,
  type CorrectResultBody,
  type RejectResultsAnswer,
  type RejectResultsBody,
  type ReleaseRefusalKind,
  type SampleStatus as Status,
  workStatusOf,
  WebhookEventType,
} from '@platform/domain';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { enqueueJob } from '../jobs/outbox';
import { moveSample } from '../samples/move-sample';
import { scheduleRegistryFollowUps } from '../follow-ups/follow-ups';
import { withdrawResultsInReview } from '../samples/intake';
import { queueResultWebhooks } from '../webhooks/result-webhooks';
import { queueResultMessages } from '../hl7/result-messages';
import { plateChecksForResults } from '../pcr/pcr';
import { dnaOfSamples, extractionsForResults } from '../extractions/extractions';
import type { Models, ReviewCtx } from '../samples/review-rows';
import type { ServerContext } from '../context';
import { recordSignature } from './signatures';
import type { ConfirmedSigner } from '../access/signer';
type Ctx = ReviewCtx;
type ResultRow = InstanceType<Models['TestResult']>;
type TestRow = InstanceType<Models['Test']>;
type SampleRow = InstanceType<Models['Sample']>;

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

/** How each refusal of the release rule is reported. */
const RELEASE_REFUSAL_ERROR: Record<ReleaseRefusalKind, (message: string) => Error> = {
  'wrong-group': (message) => badRequest(message),
  'own-result': (message) => forbidden(message),
  'not-in-review': (message) => conflict(message),
  'sample-status': (message) => conflict(message),
  'controls-failed': (message) => conflict(message),
  'extraction-flagged': (message) => conflict(message),
  'dna-held': (message) => conflict(message),
};

/** What a result version's signature binds (domain's signedResultText). */
const signedContent = (r: ResultRow, test: TestRow, sample: SampleRow): SignedResultContent => ({
  resultId: r.id, version: r.version, sampleBarcode: sample.barcode, test: test.name, value: r.value, enteredByUserId: r.enteredByUserId,
  enteredAt: r.createdAt.toISOString(), correctionReason: r.correctionReason ?? null,
});

/** The signer must be the user who acts: a confirmation is never carried over to another caller. */
function assertSignerIsCaller(signer: ConfirmedSigner, caller: UserCaller): void {
  if (signer.userId !== caller.userId) throw forbidden('Only the signer can sign');
}

/**
 * POST approve-tests-<group>: all or nothing, each result checked by the release rule, signed once
 * for the batch by the approver ("Reviewed and approved for release"), each version's content recorded.
 */
export async function approveResults(ctx: Ctx & Pick<ServerContext, 'config'>, caller: UserCaller, group: ApprovalGroup, resultIds: number[], signer: ConfirmedSigner): Promise<ApproveResultsAnswer> {
  assertSignerIsCaller(signer, caller);
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const { results, tests, samples } = await loadForReview(ctx, transaction, resultIds);
    const releasedNow = await m.TestResult.findAll({
      where: { testId: [...tests.keys()], status: TestResultStatus.Released },
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    const plates = await plateChecksForResults(ctx, results.map((r) => r.id), transaction);
    const extractions = await extractionsForResults(ctx, results.map((r) => r.id), transaction);
    const dna = await dnaOfSamples(ctx, [...samples.keys()], transaction);
    const testsSeen = new Set<number>();
    for (const r of results) {
      const test = tests.get(r.testId)!;
      const sample = samples.get(test.sampleId)!;
      const plate = plates.get(r.id);
      const decision = canRelease({
        resultId: r.id, resultStatus: r.status, testName: test.name, enteredByUserId: r.enteredByUserId, barcode: sample.barcode,
        sampleStatus: sample.status, statusBeforeStorage: sample.statusBeforeStorage,
        correction: releasedNow.some((x) => x.testId === test.id),
        plate: plate ? { name: plate.plateName, ok: plate.check.ok, problems: plate.check.ok ? [] : plate.check.problems } : null,
        extraction: extractions.get(r.id) ?? null,
        sampleDna: dna.get(sample.id) ?? null,
      }, caller.userId, group);
      if (!decision.ok) throw RELEASE_REFUSAL_ERROR[decision.kind](decision.message);
      if (testsSeen.has(test.id)) throw conflict(`Two results of the ${test.name} test of sample ${sample.barcode} were chosen: approve one`);
      testsSeen.add(test.id);
    }

    const now = new Date();
    const signatureId = await recordSignature(ctx, transaction, signer, {
      meaning: SignatureMeaning.Release, at: now,
      results: results.map((r) => signedContent(r, tests.get(r.testId)!, samples.get(tests.get(r.testId)!.sampleId)!)),
    });
    const approved: ApprovedResult[] = [];
    for (const r of results) {
      const test = tests.get(r.testId)!;
      const sample = samples.get(test.sampleId)!;
      const previous = releasedNow.find((x) => x.testId === test.id);
      if (previous) await previous.update({ status: TestResultStatus.Superseded }, { transaction });
      await r.update({ status: TestResultStatus.Released, reviewedByUserId: caller.userId, reviewedAt: now }, { transaction });
      const reports = isTestName(test.name) && approvalReportsResult(test.name);
      // A processing step (DNA extraction) reports nothing: its sample stays In Testing. A sample
      // In Storage stays there, Resulted when taken out (moveSample).
      if (reports && workStatusOf(sample) === SampleStatus.InTesting) {
        await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Resulted, by: caller });
      }
      await recordAudit(ctx.db, {
        ...auditActor(caller), action: 'result.approved', entityKind: 'test', entityId: test.id,
        details: { resultId: r.id, version: r.version, sampleId: sample.id, supersededResultId: previous?.id ?? null, signatureId },
      }, transaction);
      if (reports) {
        await enqueueJob(ctx, transaction, 'render-pdf', { sampleId: sample.id, documentType: DocumentType.LabReport, testResultId: r.id }, { idempotencyKey: `lab-report:${r.id}`, createdByUserId: caller.userId });
        await enqueueJob(ctx, transaction, 'notify-result', { testResultId: r.id }, { idempotencyKey: `notify-result:${r.id}`, createdByUserId: caller.userId });
        const event = {
          type: previous ? WebhookEventType.ResultCorrected : WebhookEventType.ResultReleased, sampleId: sample.id, testIds: [test.id], createdByUserId: caller.userId,
        };
        await queueResultWebhooks(ctx, transaction, event);
        await queueResultMessages(ctx, transaction, event);
        // A first release of a PROSTOX result: the registry's follow-up surveys (3, 6, 12 months).
        if (!previous) await scheduleRegistryFollowUps(ctx.db, transaction, { sampleId: sample.id, testName: test.name, releasedAt: now, timeZone: ctx.config.labTimeZone });
      }
      approved.push({ resultId: r.id, barcode: sample.barcode, test: test.name, value: r.value, correction: Boolean(previous), sampleStatus: sample.status as Status });
    }
    return { approved };
  });
}

/** POST import-tests-reject: the versions are Rejected; each sample is tested again or rejected. */
export async function rejectResults(ctx: Ctx, caller: UserCaller, body: RejectResultsBody): Promise<RejectResultsAnswer> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const { results, tests, samples } = await loadForReview(ctx, transaction, body.resultIds);
    for (const r of results) {
      const sample = samples.get(tests.get(r.testId)!.sampleId)!;
      if (r.status !== TestResultStatus.InReview) throw conflict(`Result ${r.id} (${sample.barcode}) is ${r.status}: only results in review can be rejected`);
    }
    const toReject = body.sampleOutcome === 'reject-sample' ? [...new Set(results.map((r) => tests.get(r.testId)!.sampleId))].map((id) => samples.get(id)!) : [];
    for (const sample of toReject) {
      // A sample In Storage is rejected where it stays (Rejected when taken out), as its status would have been.
      const check = planStatusChange(sample, { to: SampleStatus.Rejected, actor: 'lab', reason: body.rejectionReason });
      if (!check.ok) throw conflict(`Sample ${sample.barcode} is ${describeSampleStatus(sample)}: it cannot be rejected (reject the result for a retest instead)`);
    }

    const now = new Date();
    for (const r of results) {
      const test = tests.get(r.testId)!;
      // The database refuses a reviewer who entered the result: a user withdrawing their own entry is recorded in the audit log only.
      const reviewer = r.enteredByUserId === caller.userId ? null : caller.userId;
      await r.update({ status: TestResultStatus.Rejected, reviewNote: body.reason, reviewedByUserId: reviewer, reviewedAt: now }, { transaction });
      await recordAudit(ctx.db, {
        ...auditActor(caller), action: 'result.rejected', entityKind: 'test', entityId: test.id,
        details: { resultId: r.id, sampleId: test.sampleId, sampleOutcome: body.sampleOutcome, ownEntry: reviewer === null },
      }, transaction);
    }
    for (const sample of toReject) {
      await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Rejected, by: caller, reason: body.rejectionReason });
      await withdrawResultsInReview(ctx, transaction, sample.id, `Sample rejected: ${body.rejectionReason}`, caller.userId);
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

/** POST results/correct: a new In Review version of a released result, with the reason, signed by who enters it. */
export async function correctResult(ctx: Ctx, caller: UserCaller, body: CorrectResultBody, signer: ConfirmedSigner): Promise<CorrectedResult> {
  assertSignerIsCaller(signer, caller);
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
    const signatureId = await recordSignature(ctx, transaction, signer, {
      meaning: SignatureMeaning.Correction, reason: body.reason, results: [signedContent(created, test, sample)],
    });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'result.correction_entered', entityKind: 'test', entityId: test.id,
      details: { resultId: created.id, version: created.version, correctsResultId: released.id, sampleId: sample.id, signatureId },
    }, transaction);
    return { resultId: created.id, version: created.version, barcode: sample.barcode, test: name, value: created.value, releasedValue: released.value, status: created.status };
  });
}
