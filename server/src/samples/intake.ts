/**
 * Intake: a kit scanned at the lab's door is received (In Transit or Pending Shipment -> In Queue,
 * with the receipt time) or rejected with one of the spec's reasons. Every refusal says why in
 * one sentence and changes nothing; the refused scan of a known kit is still audited.
 */
import type { Transaction } from 'sequelize';
import {
  checkTransition,
  describeBarcodeProblem,
  patientShortName,
  RECEIPT_CLOCK_SKEW_MS,
  RECEIVABLE_STATUSES,
  RECEIVED_STATUSES,
  SampleStatus,
  TestResultStatus,
  WebhookEventType,
  type IntakeOutcome,
  type IntakeReceiveBody,
  type IntakeRejectBody,
  type SampleStatus as Status, formatDate,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { toIso } from '../answer-values';
import { badRequest, conflict, DomainError, notFound } from '../errors';
import { moveSample } from './move-sample';
import { queueResultWebhooks } from '../webhooks/result-webhooks';
import { queueResultMessages } from '../hl7/result-messages';

type Ctx = Pick<ServerContext, 'db' | 'relay'>;
type SampleRow = InstanceType<ServerContext['db']['models']['Sample']>;

/** A refused scan: the error to answer and, for a known sample, what to audit. */
interface Refusal {
  error: DomainError;
  sampleId: number | null;
  reason: string;
}

function checkBarcode(barcode: string): void {
  const problem = describeBarcodeProblem(barcode);
  if (problem) throw badRequest(problem, [{ field: 'barcode', message: problem }]);
}

async function lockSample(ctx: Ctx, transaction: Transaction, barcode: string): Promise<SampleRow | null> {
  return ctx.db.models.Sample.findOne({ where: { barcode }, transaction, lock: transaction.LOCK.UPDATE });
}

async function outcomeOf(ctx: Ctx, transaction: Transaction, sample: SampleRow, previousStatus: Status, message: string): Promise<IntakeOutcome> {
  const m = ctx.db.models;
  // One after the other: a transaction's queries share one connection.
  const tests = await m.Test.findAll({ where: { sampleId: sample.id }, attributes: ['name'], order: [['id', 'ASC']], transaction });
  const patient = await m.Patient.findByPk(sample.patientId, { attributes: ['firstName', 'lastName', 'studyId'], transaction });
  const account = sample.accountId ? await m.Account.findByPk(sample.accountId, { attributes: ['name'], transaction }) : null;
  return {
    sampleId: sample.id,
    barcode: sample.barcode,
    tests: tests.map((t) => t.name),
    account: account?.name ?? null,
    patient: patient ? patientShortName(patient) : '',
    previousStatus,
    status: sample.status as Status,
    receivedAt: toIso(sample.receivedAt),
    rejectionReason: sample.rejectionReason ?? null,
    message,
  };
}

/** Runs a scan in one transaction; a refusal rolls back, then is audited on its own and thrown. */
async function scan(
  ctx: Ctx,
  caller: UserCaller,
  action: string,
  work: (transaction: Transaction) => Promise<IntakeOutcome | Refusal>,
): Promise<IntakeOutcome> {
  const outcome = await ctx.db.sequelize.transaction(work);
  if ('error' in outcome) {
    if (outcome.sampleId !== null) {
      await recordAudit(ctx.db, { ...auditActor(caller), action, entityKind: 'sample', entityId: outcome.sampleId, details: { outcome: 'refused', reason: outcome.reason } });
    }
    throw outcome.error;
  }
  return outcome;
}

function alreadyReceived(sample: SampleRow): Refusal {
  const when = sample.receivedAt ? ` on ${formatDate(sample.receivedAt)}` : '';
  const now = sample.receivedAt ? '' : ` (it is ${sample.status})`;
  return { error: conflict(`Sample ${sample.barcode} was already received${when}${now}`), sampleId: sample.id, reason: 'already received' };
}

/** POST intake/receive. */
export async function receiveKit(ctx: Ctx, caller: UserCaller, body: IntakeReceiveBody): Promise<IntakeOutcome> {
  const { barcode } = body;
  checkBarcode(barcode);
  const receivedAt = body.receivedAt ?? new Date();
  if (receivedAt.getTime() > Date.now() + RECEIPT_CLOCK_SKEW_MS) {
    throw badRequest('The receipt time cannot be in the future', [{ field: 'receivedAt', message: 'The receipt time cannot be in the future' }]);
  }
  return scan(ctx, caller, 'sample.intake_receive', async (transaction) => {
    const sample = await lockSample(ctx, transaction, barcode);
    if (!sample) return { error: notFound(`No sample has barcode ${barcode}`), sampleId: null, reason: 'unknown' };
    const from = sample.status as Status;
    if (RECEIVED_STATUSES.includes(from)) return alreadyReceived(sample);
    if (!RECEIVABLE_STATUSES.includes(from)) {
      return { error: conflict(`Sample ${barcode} is ${from}: it cannot be received`), sampleId: sample.id, reason: 'wrong status' };
    }
    if (receivedAt < sample.createdAt) {
      const message = `The receipt time cannot be before the order was placed (${formatDate(sample.createdAt)})`;
      return { error: badRequest(message, [{ field: 'receivedAt', message }]), sampleId: sample.id, reason: 'receipt before order' };
    }
    await moveSample(ctx.db, transaction, sample, { to: SampleStatus.InQueue, by: caller, at: receivedAt });
    const tests = (await ctx.db.models.Test.findAll({ where: { sampleId: sample.id }, attributes: ['name'], transaction })).map((t) => t.name);
    return outcomeOf(ctx, transaction, sample, from, `Received ${barcode}${tests.length ? ` (${tests.join(', ')})` : ''}: now In Queue`);
  });
}

/** POST intake/reject. */
export async function rejectKit(ctx: Ctx, caller: UserCaller, body: IntakeRejectBody): Promise<IntakeOutcome> {
  const { barcode, reason } = body;
  checkBarcode(barcode);
  return scan(ctx, caller, 'sample.intake_reject', async (transaction) => {
    const sample = await lockSample(ctx, transaction, barcode);
    if (!sample) return { error: notFound(`No sample has barcode ${barcode}`), sampleId: null, reason: 'unknown' };
    const from = sample.status as Status;
    if (from === SampleStatus.Rejected) {
      return { error: conflict(`Sample ${barcode} was already rejected (${sample.rejectionReason ?? 'no reason recorded'})`), sampleId: sample.id, reason: 'already rejected' };
    }
    const check = checkTransition({ from, to: SampleStatus.Rejected, actor: 'lab', reason });
    if (!check.ok) return { error: conflict(`Sample ${barcode} is ${from}: it cannot be rejected`), sampleId: sample.id, reason: 'wrong status' };
    await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Rejected, by: caller, reason });
    await withdrawResultsInReview(ctx, transaction, sample.id, `Sample rejected: ${reason}`, caller.userId);
    return outcomeOf(ctx, transaction, sample, from, `Rejected ${barcode}: ${reason}`);
  });
}

/**
 * What follows a sample's rejection, wherever it was decided (intake, review, a failed DNA
 * extraction): its results waiting for review can no longer be released, so they are marked
 * Rejected with a note (no reviewer: the rejection of the sample decided it); and the account's
 * API clients with a webhook are told (`sample.rejected`, one notice per test), and its EHR through
 * its HL7 interface (an ORU^R01 with status X per test). Answers how many
 * results were withdrawn.
 */
export async function withdrawResultsInReview(ctx: Ctx, transaction: Transaction, sampleId: number, note: string, rejectedByUserId: number | null): Promise<number> {
  const m = ctx.db.models;
  const tests = await m.Test.findAll({ where: { sampleId }, attributes: ['id'], transaction });
  if (!tests.length) return 0;
  const [count] = await m.TestResult.update(
    { status: TestResultStatus.Rejected, reviewNote: note },
    { where: { testId: tests.map((t) => t.id), status: TestResultStatus.InReview }, transaction },
  );
  const event = { type: WebhookEventType.SampleRejected, sampleId, testIds: tests.map((t) => t.id), createdByUserId: rejectedByUserId };
  await queueResultWebhooks(ctx, transaction, event);
  await queueResultMessages(ctx, transaction, event);
  return count;
}
