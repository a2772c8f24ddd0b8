/**
 * Follow-ups of a sample's patient (domain/src/follow-ups.ts has the rules), the part both
 * processes need:
 * - scheduling the PROSTOX registry surveys when a PROSTOX result is released (inside the
 *   release's transaction);
 * - the scan a worker runs every minute: due follow-ups are emailed, unanswered ones get their one
 *   reminder. `now` is passed in (the tests move the clock), never read here;
 * - emailing a follow-up: a new single-use link (only its hash is kept) and the logged email that
 *   carries it, queued through the outbox;
 * - finding the follow-up a link names.
 * Exactly one email per follow-up: the row is locked (SKIP LOCKED: two workers never take the same
 * row), its status moves Scheduled → Sent (or Sent → Reminded) in the same transaction that writes
 * the email and its send-email job, so a crash before the commit leaves nothing and a crash after it
 * leaves the status that stops a second email. send-email itself sends each email once.
 */
import { Op, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import {
  addLabDays, enrolsInRegistry, FOLLOW_UP_LINK_VALID_DAYS, FOLLOW_UP_REMINDER_DAYS, FOLLOW_UP_SCAN_BATCH, FollowUpKind, FollowUpStatus, NO_EMAIL_REASON,
  REGISTRY_STUDY, registrySchedule,
} from '@platform/domain';
import type { Config } from '../config';
import type { OutboxRelay } from '../jobs';
import { queueEmail } from '../email/queue-email';
import { registrySurveyEmail, sampleFollowUpQuestionEmail, type SampleQuestionAsker } from '../email/templates';
import { auditActor, recordAudit, systemCaller } from '../audit';
import { linkTokenHash, newLinkToken } from '../auth/tokens';

export type FollowUpCtx = { db: Db; relay: OutboxRelay; config: Pick<Config, 'publicUrl' | 'brand' | 'labTimeZone'> };

type FollowUpRow = InstanceType<Db['models']['SampleFollowUp']>;
type SampleRow = InstanceType<Db['models']['Sample']>;
type PatientRow = InstanceType<Db['models']['Patient']>;
type LinkRow = InstanceType<Db['models']['SampleFollowUpLink']>;

/** The page a follow-up's link opens. */
export function followUpUrl(config: Pick<Config, 'publicUrl'>, followUp: Pick<FollowUpRow, 'id' | 'kind' | 'sampleId'>, token: string): string {
  return followUp.kind === FollowUpKind.RegistrySurvey
    ? `${config.publicUrl}/registry/study/${REGISTRY_STUDY}/${followUp.sampleId}/survey/new?token=${token}`
    : `${config.publicUrl}/patient-portal/sample-follow-up/${followUp.id}/response?token=${token}`;
}

/**
 * Called where a result is released, in its transaction: a first release of a PROSTOX result
 * schedules the registry surveys (3, 6 and 12 months later). A correction, or a second PROSTOX
 * test of the same sample, schedules nothing more (one survey per sample and interval).
 */
export async function scheduleRegistryFollowUps(
  db: Db,
  transaction: Transaction,
  args: { sampleId: number; testName: string; releasedAt: Date; timeZone: string },
): Promise<number> {
  if (!enrolsInRegistry(args.testName)) return 0;
  const existing = await db.models.SampleFollowUp.count({ where: { sampleId: args.sampleId, kind: FollowUpKind.RegistrySurvey }, transaction });
  if (existing > 0) return 0;
  const rows = registrySchedule(args.releasedAt, args.timeZone).map(({ months, dueAt }) => ({
    sampleId: args.sampleId, kind: FollowUpKind.RegistrySurvey, months, question: null, askedByUserId: null, dueAt,
  }));
  await db.models.SampleFollowUp.bulkCreate(rows, { transaction });
  await recordAudit(db, {
    ...auditActor(systemCaller()), action: 'follow_up.scheduled', entityKind: 'sample', entityId: args.sampleId,
    details: { study: REGISTRY_STUDY, months: rows.map((r) => r.months), releasedAt: args.releasedAt.toISOString() },
  }, transaction);
  return rows.length;
}

/** Who asked a question: the lab, or the sample's clinic (by name), as the patient's email says it. */
async function askerOf(db: Db, followUp: FollowUpRow, sample: SampleRow, transaction: Transaction): Promise<SampleQuestionAsker> {
  const asker = followUp.askedByUserId ? await db.models.User.findByPk(followUp.askedByUserId, { attributes: ['kind'], transaction }) : null;
  if (asker?.kind !== 'provider' || !sample.accountId) return { kind: 'lab' };
  const account = await db.models.Account.findByPk(sample.accountId, { attributes: ['name'], transaction });
  return { kind: 'clinic', clinicName: account?.name ?? null };
}

/**
 * Issues a link and queues the email carrying it (first email or reminder), inside the caller's
 * transaction, and moves the follow-up on. The caller has locked the row and checked the patient's address.
 */
export async function emailFollowUp(
  ctx: FollowUpCtx,
  transaction: Transaction,
  args: { followUp: FollowUpRow; sample: SampleRow; patient: PatientRow & { email: string }; reminder: boolean; now: Date; createdByUserId: number | null },
): Promise<{ emailId: number; linkId: number }> {
  const { followUp, sample, patient, reminder, now } = args;
  const { token, tokenHash } = newLinkToken();
  const link = await ctx.db.models.SampleFollowUpLink.create(
    { followUpId: followUp.id, tokenHash, expiresAt: addLabDays(now, FOLLOW_UP_LINK_VALID_DAYS, ctx.config.labTimeZone) },
    { transaction },
  );
  const url = followUpUrl(ctx.config, followUp, token);
  const content = followUp.kind === FollowUpKind.RegistrySurvey
    ? registrySurveyEmail({
        language: patient.preferredLanguage, brand: ctx.config.brand, firstName: patient.firstName, months: followUp.months!, url, reminder,
        validDays: FOLLOW_UP_LINK_VALID_DAYS,
      })
    : sampleFollowUpQuestionEmail({
        language: patient.preferredLanguage, brand: ctx.config.brand, firstName: patient.firstName,
        askedBy: await askerOf(ctx.db, followUp, sample, transaction), url, reminder,
        validDays: FOLLOW_UP_LINK_VALID_DAYS,
      });
  const email = await queueEmail(ctx, transaction, {
    to: patient.email, ...content, entity: { kind: 'sample', id: sample.id }, createdByUserId: args.createdByUserId,
  });
  await followUp.update(
    reminder
      ? { status: FollowUpStatus.Reminded, reminderEmailId: email.id, remindedAt: now }
      : { status: FollowUpStatus.Sent, emailId: email.id, sentAt: now },
    { transaction },
  );
  return { emailId: email.id, linkId: link.id };
}

export interface ScanOutcome {
  sent: number;
  reminded: number;
  notSendable: number;
}

/**
 * One look for work, at `now`: follow-ups due and not yet emailed get their email (or are
 * recorded Not Sendable when the patient has no address); those emailed FOLLOW_UP_REMINDER_DAYS
 * ago and still unanswered get their one reminder. One transaction per follow-up; a row another
 * worker holds is skipped (it is that worker's).
 */
export async function sendDueFollowUps(ctx: FollowUpCtx, options: { now: Date; limit?: number }): Promise<ScanOutcome> {
  const { now } = options;
  const limit = options.limit ?? FOLLOW_UP_SCAN_BATCH;
  const m = ctx.db.models;
  const outcome: ScanOutcome = { sent: 0, reminded: 0, notSendable: 0 };
  const due = await m.SampleFollowUp.findAll({
    where: { status: FollowUpStatus.Scheduled, dueAt: { [Op.lte]: now } }, attributes: ['id'], order: [['dueAt', 'ASC'], ['id', 'ASC']], limit,
  });
  const remindBefore = addLabDays(now, -FOLLOW_UP_REMINDER_DAYS, ctx.config.labTimeZone);
  const unanswered = await m.SampleFollowUp.findAll({
    where: { status: FollowUpStatus.Sent, sentAt: { [Op.lte]: remindBefore } }, attributes: ['id'], order: [['sentAt', 'ASC'], ['id', 'ASC']], limit,
  });
  const work = [...due.map((r) => ({ id: r.id, reminder: false })), ...unanswered.map((r) => ({ id: r.id, reminder: true }))];
  for (const { id, reminder } of work) {
    const done = await ctx.db.sequelize.transaction(async (transaction) => {
      const followUp = await m.SampleFollowUp.findOne({
        where: reminder
          ? { id, status: FollowUpStatus.Sent, sentAt: { [Op.lte]: remindBefore } }
          : { id, status: FollowUpStatus.Scheduled, dueAt: { [Op.lte]: now } },
        transaction, lock: transaction.LOCK.UPDATE, skipLocked: true,
      });
      if (!followUp) return null;
      const sample = await m.Sample.findByPk(followUp.sampleId, { transaction });
      const patient = sample ? await m.Patient.findByPk(sample.patientId, { transaction }) : null;
      if (!sample || !patient) return null;
      const system = auditActor(systemCaller());
      if (!patient.email) {
        // Nothing to send to: recorded once, never looked at again (the status leaves the scan).
        await followUp.update({ status: FollowUpStatus.NotSendable, notSendableReason: NO_EMAIL_REASON }, { transaction });
        await recordAudit(ctx.db, { ...system, action: 'follow_up.not_sendable', entityKind: 'sample', entityId: sample.id, details: { followUpId: followUp.id } }, transaction);
        return 'notSendable' as const;
      }
      const { emailId, linkId } = await emailFollowUp(ctx, transaction, {
        followUp, sample, patient: patient as PatientRow & { email: string }, reminder, now, createdByUserId: null,
      });
      await recordAudit(ctx.db, {
        ...system, action: reminder ? 'follow_up.reminded' : 'follow_up.emailed', entityKind: 'sample', entityId: sample.id,
        details: { followUpId: followUp.id, kind: followUp.kind, months: followUp.months, emailId, linkId },
      }, transaction);
      return reminder ? ('reminded' as const) : ('sent' as const);
    });
    if (done) outcome[done] += 1;
  }
  return outcome;
}

export type FollowUpLinkLookup =
  | { kind: 'invalid' }
  | { kind: 'expired'; link: LinkRow; followUp: FollowUpRow }
  | { kind: 'answered'; link: LinkRow; followUp: FollowUpRow }
  | { kind: 'open'; link: LinkRow; followUp: FollowUpRow };

/**
 * The follow-up a link names, and whether it may still be answered: `invalid` (no such token, or
 * it names another follow-up than `expect`), `answered` (this link or another of the same
 * follow-up was used: a link works once), `expired`, or `open`. With `lock`, the follow-up row is
 * locked for the caller's transaction (two answers at once: the second sees the first).
 */
export async function findFollowUpLink(
  db: Db,
  token: unknown,
  expect: { followUpId?: number; sampleId?: number; kind: FollowUpKind },
  options: { now: Date; transaction?: Transaction; lock?: boolean },
): Promise<FollowUpLinkLookup> {
  const tokenHash = linkTokenHash(token);
  if (!tokenHash) return { kind: 'invalid' };
  const link = await db.models.SampleFollowUpLink.findOne({ where: { tokenHash }, transaction: options.transaction });
  if (!link) return { kind: 'invalid' };
  const followUp = await db.models.SampleFollowUp.findByPk(link.followUpId, {
    transaction: options.transaction,
    lock: options.lock && options.transaction ? options.transaction.LOCK.UPDATE : undefined,
  });
  if (!followUp || followUp.kind !== expect.kind) return { kind: 'invalid' };
  if (expect.followUpId !== undefined && followUp.id !== expect.followUpId) return { kind: 'invalid' };
  if (expect.sampleId !== undefined && followUp.sampleId !== expect.sampleId) return { kind: 'invalid' };
  if (followUp.status === FollowUpStatus.Answered) return { kind: 'answered', link, followUp };
  if (link.expiresAt.getTime() <= options.now.getTime()) return { kind: 'expired', link, followUp };
  return { kind: 'open', link, followUp };
}
