/**
 * Intake: a kit scanned at the lab's door is looked up (its requisition's patient, the collection
 * time its order gave), then received (In Transit or Pending Shipment -> In Queue, with the receipt
 * time) or rejected with one of the spec's reasons. Each records the specimen's condition, its
 * collection time and, for a kit with a requisition, who confirmed the tube's name and date of
 * birth against it (the rules: domain/src/samples/specimen-checks.ts; docs/intake.md), with a
 * timeline step saying so. Every refusal says why in one sentence and changes nothing; the refused
 * scan of a known kit is still audited.
 */
import type { Transaction } from 'sequelize';
import {
  checkTransition,
  collectionTimeProblem,
  describeIntakeCheck,
  orderHasRequisition,
  receiveConditionProblem,
  type IntakeKit,
  type SpecimenCondition,
  describeBarcodeProblem,
  patientShortName,
  RECEIPT_CLOCK_SKEW_MS,
  RECEIVABLE_STATUSES,
  RECEIVED_STATUSES,
  SampleStatus,
  CONDITION_RULES,
  TestResultStatus,
  WebhookEventType,
  type IntakeOutcome,
  type IntakeReceiveBody,
  type IntakeRejectBody,
  type SampleStatus as Status, formatDate,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { dataDate, toIso } from '../answer-values';
import { noteOnTimeline } from './timeline-note';
import { badRequest, conflict, DomainError, notFound } from '../errors';
import { moveSample } from './move-sample';
import { queueResultWebhooks } from '../webhooks/result-webhooks';
import { queueResultMessages } from '../hl7/result-messages';

type Ctx = Pick<ServerContext, 'db' | 'relay'>;
/** What a use case that prints a date needs besides: the lab's clock. */
type ClockCtx = Ctx & Pick<ServerContext, 'config'>;
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
    condition: sample.condition ?? null,
    collectedAt: toIso(sample.collectedAt),
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

function alreadyReceived(sample: SampleRow, zone: string): Refusal {
  const when = sample.receivedAt ? ` on ${formatDate(sample.receivedAt, zone)}` : '';
  const now = sample.receivedAt ? '' : ` (it is ${sample.status})`;
  return { error: conflict(`Sample ${sample.barcode} was already received${when}${now}`), sampleId: sample.id, reason: 'already received' };
}

const fieldError = (field: string, message: string) => badRequest(message, [{ field, message }]);

/** GET intake/kits/{barcode}: the kit as the technician checks it (the requisition's patient is read: audited). */
export async function intakeKit(ctx: ClockCtx, caller: UserCaller, barcode: string): Promise<IntakeKit> {
  checkBarcode(barcode);
  const m = ctx.db.models;
  const sample = await m.Sample.findOne({ where: { barcode } });
  if (!sample) throw notFound(`No sample has barcode ${barcode}`);
  const order = await m.Order.findByPk(sample.orderId, { attributes: ['id', 'origin'] });
  const patient = await m.Patient.findByPk(sample.patientId, { attributes: ['firstName', 'lastName', 'dateOfBirth', 'studyId'] });
  const tests = await m.Test.findAll({ where: { sampleId: sample.id }, attributes: ['name'], order: [['id', 'ASC']] });
  const account = sample.accountId ? await m.Account.findByPk(sample.accountId, { attributes: ['name'] }) : null;
  const status = sample.status as Status;
  const receivable = RECEIVABLE_STATUSES.includes(status);
  const problem = receivable ? null
    : RECEIVED_STATUSES.includes(status) ? alreadyReceived(sample, ctx.config.labTimeZone).error.message
    : `Sample ${barcode} is ${status}: it cannot be received`;
  const requisition = order && orderHasRequisition(order.origin) && patient
    ? { firstName: patient.firstName, lastName: patient.lastName, dateOfBirth: patient.dateOfBirth ? dataDate(patient.dateOfBirth) : null, studyId: patient.studyId ?? null }
    : null;
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'sample.intake_viewed', entityKind: 'sample', entityId: sample.id, details: { status } });
  return {
    sampleId: sample.id,
    barcode: sample.barcode,
    tests: tests.map((t) => t.name),
    account: account?.name ?? null,
    status,
    receivable,
    problem,
    sampleType: sample.sampleType,
    orderedAt: sample.createdAt.toISOString(),
    collectedAt: toIso(sample.collectedAt),
    requisition,
  };
}

/**
 * The collection time a scan records: the one typed (checked against the order and the receipt),
 * else the one the order gave. Answers a refusal, or the time and whether it changed the order's.
 */
function collectionOf(sample: SampleRow, typed: Date | undefined, receivedAt: Date | null, required: boolean, zone: string): Refusal | { collectedAt: Date | null } {
  const collectedAt = typed ?? sample.collectedAt ?? null;
  if (!collectedAt) {
    if (!required) return { collectedAt: null };
    const message = 'Collection time is required to receive a kit: type the date and time written on the tube';
    return { error: fieldError('collectedAt', message), sampleId: sample.id, reason: 'no collection time' };
  }
  if (typed) {
    const problem = collectionTimeProblem(typed, { orderedAt: sample.createdAt, receivedAt, timeZone: zone });
    if (problem) return { error: fieldError('collectedAt', problem), sampleId: sample.id, reason: 'collection time refused' };
  }
  return { collectedAt };
}

/** What a scan's check writes on the sample (besides its status) and on its timeline, in the scan's transaction. */
async function recordCheck(
  ctx: ClockCtx, transaction: Transaction, caller: UserCaller, sample: SampleRow,
  check: { condition: SpecimenCondition; note: string | null; collectedAt: Date | null; identityConfirmed: boolean | null; at: Date },
): Promise<void> {
  const previousCollectedAt = sample.collectedAt;
  await sample.update(
    {
      condition: check.condition,
      conditionNote: check.note,
      collectedAt: check.collectedAt,
      ...(check.identityConfirmed ? { identityConfirmedByUserId: caller.userId, identityConfirmedAt: new Date() } : {}),
    },
    { transaction },
  );
  await noteOnTimeline(ctx.db, transaction, sample, { by: caller, at: check.at, reason: describeIntakeCheck(check, ctx.config.labTimeZone) });
  const collectionChanged = (previousCollectedAt?.getTime() ?? null) !== (check.collectedAt?.getTime() ?? null);
  await recordAudit(
    ctx.db,
    {
      ...auditActor(caller), action: 'sample.intake_checked', entityKind: 'sample', entityId: sample.id,
      details: {
        condition: check.condition,
        identityConfirmed: check.identityConfirmed,
        ...(collectionChanged ? { collectedAt: { from: toIso(previousCollectedAt), to: toIso(check.collectedAt) } } : {}),
      },
    },
    transaction,
  );
}

const noteOf = (note: string | undefined) => (note?.trim() ? note.trim() : null);

/** POST intake/receive. */
export async function receiveKit(ctx: ClockCtx, caller: UserCaller, body: IntakeReceiveBody): Promise<IntakeOutcome> {
  const { barcode, condition } = body;
  checkBarcode(barcode);
  const receivedAt = body.receivedAt ?? new Date();
  if (receivedAt.getTime() > Date.now() + RECEIPT_CLOCK_SKEW_MS) {
    throw badRequest('The receipt time cannot be in the future', [{ field: 'receivedAt', message: 'The receipt time cannot be in the future' }]);
  }
  const note = noteOf(body.conditionNote);
  return scan(ctx, caller, 'sample.intake_receive', async (transaction) => {
    const sample = await lockSample(ctx, transaction, barcode);
    if (!sample) return { error: notFound(`No sample has barcode ${barcode}`), sampleId: null, reason: 'unknown' };
    const from = sample.status as Status;
    if (RECEIVED_STATUSES.includes(from)) return alreadyReceived(sample, ctx.config.labTimeZone);
    if (!RECEIVABLE_STATUSES.includes(from)) {
      return { error: conflict(`Sample ${barcode} is ${from}: it cannot be received`), sampleId: sample.id, reason: 'wrong status' };
    }
    if (receivedAt < sample.createdAt) {
      const message = `The receipt time cannot be before the order was placed (${formatDate(sample.createdAt, ctx.config.labTimeZone)})`;
      return { error: badRequest(message, [{ field: 'receivedAt', message }]), sampleId: sample.id, reason: 'receipt before order' };
    }
    const conditionProblem = receiveConditionProblem(condition, note);
    if (conditionProblem) {
      const field = CONDITION_RULES[condition].receive === 'reject' ? 'condition' : 'conditionNote';
      return { error: fieldError(field, conditionProblem), sampleId: sample.id, reason: `condition ${condition}` };
    }
    const collection = collectionOf(sample, body.collectedAt, receivedAt, true, ctx.config.labTimeZone);
    if ('error' in collection) return collection;
    const order = await ctx.db.models.Order.findByPk(sample.orderId, { attributes: ['id', 'origin'], transaction });
    const needsIdentity = order !== null && orderHasRequisition(order.origin);
    if (needsIdentity && body.identityConfirmed !== true) {
      const message = 'Confirm that the name and date of birth on the tube match the requisition (or reject the kit: Rejected - identification mismatch)';
      return { error: fieldError('identityConfirmed', message), sampleId: sample.id, reason: 'identity not confirmed' };
    }
    await moveSample(ctx.db, transaction, sample, { to: SampleStatus.InQueue, by: caller, at: receivedAt });
    await recordCheck(ctx, transaction, caller, sample, {
      condition, note, collectedAt: collection.collectedAt, identityConfirmed: needsIdentity ? true : null, at: receivedAt,
    });
    const tests = (await ctx.db.models.Test.findAll({ where: { sampleId: sample.id }, attributes: ['name'], transaction })).map((t) => t.name);
    return outcomeOf(ctx, transaction, sample, from, `Received ${barcode}${tests.length ? ` (${tests.join(', ')})` : ''}: now In Queue`);
  });
}

/** POST intake/reject. */
export async function rejectKit(ctx: ClockCtx, caller: UserCaller, body: IntakeRejectBody): Promise<IntakeOutcome> {
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
    // A kit rejected at intake records what was found; a sample the lab already has keeps its intake record.
    const atIntake = RECEIVABLE_STATUSES.includes(from);
    if (atIntake && !body.condition) {
      const message = 'Specimen condition is required: choose what the specimen looks like';
      return { error: fieldError('condition', message), sampleId: sample.id, reason: 'no condition' };
    }
    const collection = atIntake ? collectionOf(sample, body.collectedAt, new Date(), false, ctx.config.labTimeZone) : null;
    if (collection && 'error' in collection) return collection;
    const at = new Date();
    await moveSample(ctx.db, transaction, sample, { to: SampleStatus.Rejected, by: caller, reason, at });
    if (atIntake && body.condition) {
      await recordCheck(ctx, transaction, caller, sample, {
        condition: body.condition, note: noteOf(body.conditionNote), collectedAt: collection!.collectedAt, identityConfirmed: null, at,
      });
    }
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
