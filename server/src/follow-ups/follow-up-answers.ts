/**
 * Follow-ups over HTTP (rules: domain/src/follow-ups.ts; schedule, scan and links:
 * server/src/follow-ups):
 * - the patient's side, through an emailed single-use link (no sign-in): the registry survey and
 *   a question about a sample, opened and answered once; a used link (or another link of the
 *   same follow-up) is refused, so is an expired one;
 * - the lab's and the clinic's side: ask the patient a question about a sample, read a follow-up,
 *   list a patient's follow-ups (the clinic) or a sample's (the lab). A clinic sees only its
 *   account's samples (another's is a 404); the lab sees every account's.
 * Every read and write of patient data is audited (ids only: never an answer).
 */
import {
  AuditActorKind, FOLLOW_UP_LINK_MESSAGES, FollowUpKind, FollowUpStatus, NO_EMAIL_REASON, REGISTRY_STUDY,
  type FollowUpView, type NewSampleFollowUpBody, type RegistrySurveyBody, type RegistrySurveyView, type SampleFollowUpPatientView,
  type SampleFollowUpResponseBody, type FollowUpAnswered,
} from '@platform/domain';
import type { Db } from '@platform/db';
import { auditActor, recordAudit, systemCaller, type Caller } from '../audit';
import { Conflict, conflict, Gone, notFound } from '../errors';
import { emailFollowUp, findFollowUpLink, type FollowUpLinkLookup } from './follow-ups';
import { noteOnTimeline } from '../samples/timeline-note';
import type { ServerContext } from '../context';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;
type FollowUpRow = InstanceType<Db['models']['SampleFollowUp']>;
type SampleRow = InstanceType<Db['models']['Sample']>;

/** The questionnaire the registry answers were given to (kept with them). */
const REGISTRY_QUESTIONNAIRE = 'prostox-registry-v1';

const linkInvalid = () => notFound(FOLLOW_UP_LINK_MESSAGES.invalid);
const linkUsed = () => new Conflict(FOLLOW_UP_LINK_MESSAGES.answered, undefined, 'link_used');
const linkExpired = () => new Gone(FOLLOW_UP_LINK_MESSAGES.expired, undefined, 'link_expired');

/** The refusal of a link that cannot be answered, or the open follow-up. */
function openOrRefuse(found: FollowUpLinkLookup) {
  switch (found.kind) {
    case 'invalid': throw linkInvalid();
    case 'answered': throw linkUsed();
    case 'expired': throw linkExpired();
    case 'open': return found;
  }
}

/** A patient acts through their link, never as a user (even where the browser has a staff session too). */
const patientActor = (caller: Caller) => auditActor({ ...caller, userId: null, kind: AuditActorKind.Patient });

async function sampleAndPatient(db: Db, sampleId: number) {
  const sample = await db.models.Sample.findByPk(sampleId);
  const patient = sample ? await db.models.Patient.findByPk(sample.patientId) : null;
  if (!sample || !patient) throw linkInvalid();
  return { sample, patient };
}

// ---------------------------------------------------------------------------------------------
// The patient's side
// ---------------------------------------------------------------------------------------------

/** GET registry/study/prostox/{sampleId}/follow-up-survey?token=: whom the survey greets, which interval. */
export async function openRegistrySurvey(ctx: Ctx, sampleId: number, token: unknown, caller: Caller, now = new Date()): Promise<RegistrySurveyView> {
  const found = await findFollowUpLink(ctx.db, token, { sampleId, kind: FollowUpKind.RegistrySurvey }, { now });
  if (found.kind !== 'invalid') {
    await recordAudit(ctx.db, {
      ...patientActor(caller), action: 'follow_up.link_opened', entityKind: 'sample', entityId: sampleId,
      details: { followUpId: found.followUp.id, linkId: found.link.id, outcome: found.kind },
    });
  }
  const { followUp } = openOrRefuse(found);
  const { patient } = await sampleAndPatient(ctx.db, followUp.sampleId);
  return { firstName: patient.firstName, months: followUp.months!, study: REGISTRY_STUDY };
}

/** POST registry/study/prostox/{sampleId}/follow-up-survey: the answers, once. */
export async function answerRegistrySurvey(ctx: Ctx, sampleId: number, body: RegistrySurveyBody, caller: Caller, now = new Date()): Promise<FollowUpAnswered> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const { followUp, link } = openOrRefuse(await findFollowUpLink(ctx.db, body.token, { sampleId, kind: FollowUpKind.RegistrySurvey }, { now, transaction, lock: true }));
    await followUp.update({
      status: FollowUpStatus.Answered, answeredAt: now,
      answers: { questionnaire: REGISTRY_QUESTIONNAIRE, answers: body.answers, details: body.details ?? {} },
    }, { transaction });
    await recordAudit(ctx.db, {
      ...patientActor(caller), action: 'follow_up.answered', entityKind: 'sample', entityId: sampleId,
      details: { followUpId: followUp.id, linkId: link.id, months: followUp.months },
    }, transaction);
    return { answeredAt: now.toISOString() };
  });
}

/** GET sample-follow-up/{id}?token=: the question, for the patient. */
export async function openSampleQuestion(ctx: Ctx, followUpId: number, token: unknown, caller: Caller, now = new Date()): Promise<SampleFollowUpPatientView> {
  const found = await findFollowUpLink(ctx.db, token, { followUpId, kind: FollowUpKind.Question }, { now });
  if (found.kind !== 'invalid') {
    await recordAudit(ctx.db, {
      ...patientActor(caller), action: 'follow_up.link_opened', entityKind: 'sample', entityId: found.followUp.sampleId,
      details: { followUpId, linkId: found.link.id, outcome: found.kind },
    });
  }
  const { followUp } = openOrRefuse(found);
  const { sample, patient } = await sampleAndPatient(ctx.db, followUp.sampleId);
  const asker = followUp.askedByUserId ? await ctx.db.models.User.findByPk(followUp.askedByUserId, { attributes: ['kind'] }) : null;
  const byClinic = asker?.kind === 'provider';
  const account = byClinic && sample.accountId ? await ctx.db.models.Account.findByPk(sample.accountId, { attributes: ['name'] }) : null;
  return { firstName: patient.firstName, question: followUp.question!, askedBy: byClinic ? 'clinic' : 'lab', clinicName: account?.name ?? null, barcode: sample.barcode };
}

/** The answer of a sample question as the timeline says it. */
export const answerOnTimeline = (answer: string, comment: string | null) =>
  `The patient answered the follow-up question: ${answer}${comment ? ` (${comment})` : ''}`;

/** POST sample-follow-up/{id}/response: the answer, once; it goes on the sample's timeline. */
export async function answerSampleQuestion(ctx: Ctx, followUpId: number, body: SampleFollowUpResponseBody, caller: Caller, now = new Date()): Promise<FollowUpAnswered> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const { followUp, link } = openOrRefuse(await findFollowUpLink(ctx.db, body.token, { followUpId, kind: FollowUpKind.Question }, { now, transaction, lock: true }));
    const sample = await ctx.db.models.Sample.findByPk(followUp.sampleId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!sample) throw linkInvalid();
    const comment = body.comment?.trim() || null;
    await followUp.update({ status: FollowUpStatus.Answered, answeredAt: now, answers: { answer: body.answer, comment } }, { transaction });
    await noteOnTimeline(ctx.db, transaction, sample, { by: systemCaller(caller.requestId), reason: answerOnTimeline(body.answer, comment), at: now });
    await recordAudit(ctx.db, {
      ...patientActor(caller), action: 'follow_up.answered', entityKind: 'sample', entityId: sample.id, details: { followUpId, linkId: link.id },
    }, transaction);
    return { answeredAt: now.toISOString() };
  });
}

// ---------------------------------------------------------------------------------------------
// The lab's and the clinic's side
// ---------------------------------------------------------------------------------------------

/** Where the caller may look: one account (a clinic), or every sample (the lab). */
export type FollowUpScope = { accountId: number } | 'lab';

const inScope = (sample: SampleRow | null, scope: FollowUpScope): sample is SampleRow =>
  sample !== null && (scope === 'lab' || sample.accountId === scope.accountId);

export function followUpView(f: FollowUpRow, barcode: string): FollowUpView {
  const answer = f.kind === FollowUpKind.Question && f.answers ? (f.answers as { answer: string; comment: string | null }) : null;
  return {
    id: f.id, kind: f.kind, sampleId: f.sampleId, barcode, status: f.status, months: f.months, question: f.question,
    dueAt: f.dueAt.toISOString(), sentAt: f.sentAt?.toISOString() ?? null, remindedAt: f.remindedAt?.toISOString() ?? null,
    answeredAt: f.answeredAt?.toISOString() ?? null, answer: answer ? { answer: answer.answer, comment: answer.comment ?? null } : null,
    notSendableReason: f.notSendableReason,
  };
}

/** POST …/sample-follow-up: the question is emailed to the patient now, with a single-use link; noted on the sample's timeline. */
export async function askAboutSample(ctx: Ctx, caller: Caller & { userId: number }, scope: FollowUpScope, body: NewSampleFollowUpBody): Promise<FollowUpView> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const sample = await m.Sample.findByPk(body.sampleId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!inScope(sample, scope)) throw notFound('Sample not found');
    const patient = await m.Patient.findByPk(sample.patientId, { transaction });
    if (!patient) throw notFound('Sample not found');
    if (!patient.email) throw conflict(NO_EMAIL_REASON, [{ field: 'sampleId', message: `${NO_EMAIL_REASON}: the question cannot be emailed` }]);
    const now = new Date();
    const followUp = await m.SampleFollowUp.create(
      { sampleId: sample.id, kind: FollowUpKind.Question, months: null, question: body.question, askedByUserId: caller.userId, dueAt: now },
      { transaction },
    );
    const { emailId, linkId } = await emailFollowUp(ctx, transaction, {
      followUp, sample, patient: patient as typeof patient & { email: string }, reminder: false, now, createdByUserId: caller.userId,
    });
    await noteOnTimeline(ctx.db, transaction, sample, { by: caller, reason: 'A follow-up question was emailed to the patient', at: now });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'follow_up.asked', entityKind: 'sample', entityId: sample.id, details: { followUpId: followUp.id, emailId, linkId },
    }, transaction);
    return followUpView(followUp, sample.barcode);
  });
}

/** GET …/sample-follow-up/{id}: one follow-up of a sample the caller may see (another account's: 404). */
export async function getFollowUp(ctx: Ctx, caller: Caller, scope: FollowUpScope, followUpId: number): Promise<FollowUpView> {
  const followUp = await ctx.db.models.SampleFollowUp.findByPk(followUpId);
  const sample = followUp ? await ctx.db.models.Sample.findByPk(followUp.sampleId) : null;
  if (!followUp || !inScope(sample, scope)) throw notFound('Follow-up not found');
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'follow_up.viewed', entityKind: 'sample', entityId: sample.id, details: { followUpId } });
  return followUpView(followUp, sample.barcode);
}

/** GET provider-clinic/{accountId}/patient/{patientId}/follow-ups: every follow-up of the patient's samples in the account, newest first. */
export async function listPatientFollowUps(ctx: Ctx, caller: Caller & { accountId: number }, patientId: number): Promise<FollowUpView[]> {
  const m = ctx.db.models;
  const patient = await m.Patient.findOne({ where: { id: patientId, accountId: caller.accountId }, attributes: ['id'] });
  if (!patient) throw notFound('Patient not found');
  const samples = await m.Sample.findAll({ where: { patientId, accountId: caller.accountId }, attributes: ['id', 'barcode'] });
  const barcodes = new Map(samples.map((s) => [s.id, s.barcode]));
  const rows = samples.length
    ? await m.SampleFollowUp.findAll({ where: { sampleId: [...barcodes.keys()] }, order: [['dueAt', 'DESC'], ['id', 'DESC']] })
    : [];
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'follow_ups.listed', entityKind: 'patient', entityId: patientId, details: { accountId: caller.accountId, followUpIds: rows.map((r) => r.id) },
  });
  return rows.map((r) => followUpView(r, barcodes.get(r.sampleId)!));
}

/** GET lab-toolbox/sample/{sampleId}/follow-ups: every follow-up of one sample (questions and registry surveys), newest first. */
export async function listSampleFollowUps(ctx: Ctx, caller: Caller, scope: FollowUpScope, sampleId: number): Promise<FollowUpView[]> {
  const m = ctx.db.models;
  const sample = await m.Sample.findByPk(sampleId, { attributes: ['id', 'barcode', 'accountId'] });
  if (!inScope(sample, scope)) throw notFound('Sample not found');
  const rows = await m.SampleFollowUp.findAll({ where: { sampleId }, order: [['dueAt', 'DESC'], ['id', 'DESC']] });
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'follow_ups.listed', entityKind: 'sample', entityId: sampleId, details: { followUpIds: rows.map((r) => r.id) },
  });
  return rows.map((r) => followUpView(r, sample.barcode));
}
