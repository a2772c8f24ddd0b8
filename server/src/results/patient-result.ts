/**
 * The patient's side of a result: a tokened link (emailed, never shown to anyone else) plus the
 * date of birth. Before verification a link tells only the first name and last initial; after it,
 * this browser session may read the result, log views, update contact details and download the
 * report. Ten wrong dates of birth lock the link until a provider re-sends it (a new link).
 * A result held for the clinic's review (patient-release.ts) is left out of every answer, and the
 * report is refused while one is held: the page says when it will be available instead.
 */
import {
  AuditActorKind, DEMOGRAPHIC_FIELDS, RESULT_LINK_MAX_DOB_FAILURES, SmsConsentSource,
  type DemographicField, type SetTextMessagesBody, type SmsContact, type PatientResultGreeting, type PatientResultView, type UpdateDemographicInfoBody, type VerifyPatientBody, type SetLanguageBody, type DemographicInfoAnswer, type LanguageAnswer,
} from '@platform/domain';
import type { Db } from '@platform/db';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type Caller } from '../audit';
import { currentLabReportDocument, latestLabReport } from './lab-report-file';
import { findResultLink } from './result-links';
import { Forbidden, Invalid, Locked, notFound, NotFound } from '../errors';
import { releasedResultsOf } from './released-results';
import { patientHeldResults } from './patient-release';
import { resultContactsOf } from './result-contacts';
import { applySmsContact, smsContactOf } from '../sms/consent';

type Ctx = Pick<ServerContext, 'db' | 'config'>;
type LinkRow = InstanceType<Db['models']['PatientResultLink']>;
type SampleRow = InstanceType<Db['models']['Sample']>;
type PatientRow = InstanceType<Db['models']['Patient']>;
/** What a browser session remembers of result links (the api's session carries it). */
export type RequestSession = { verifiedResultLinks?: number[] };

/** How many verified links one session remembers (a family member opening several links, say). */
export const MAX_VERIFIED_LINKS_PER_SESSION = 10;

export const LINK_NOT_FOUND_MESSAGE = 'This result link is not valid. Please use the latest link you received by email.';
export const LINK_LOCKED_MESSAGE = 'This link is locked after too many attempts. Please contact your provider to have it sent again.';
export const DOB_MISMATCH_MESSAGE = 'The date of birth does not match our records';

const linkNotFound = () => notFound(LINK_NOT_FOUND_MESSAGE);
export const linkLocked = () => new Locked(LINK_LOCKED_MESSAGE);
export const reportNotReady = () => new NotFound('The report is not ready yet', undefined, 'not_ready');
/** The report holds a result the patient's clinic reviews first (patient-release.ts). */
export const reportInReview = () => new NotFound('Your report will be available once your clinician has reviewed your result.', undefined, 'in_review');
const notVerified = () => new Forbidden('Please confirm your date of birth first.', undefined, 'not_verified');

function dobMismatch(attemptsLeft: number) {
  const message = `${DOB_MISMATCH_MESSAGE}. You have ${attemptsLeft} attempt${attemptsLeft === 1 ? '' : 's'} left.`;
  return new Invalid(message, [{ field: 'dateOfBirth', message }], 'dob_mismatch');
}

const isVerified = (session: RequestSession, linkId: number) => (session.verifiedResultLinks ?? []).includes(linkId);

function rememberVerified(session: RequestSession, linkId: number): void {
  const kept = (session.verifiedResultLinks ?? []).filter((id) => id !== linkId);
  session.verifiedResultLinks = [...kept, linkId].slice(-MAX_VERIFIED_LINKS_PER_SESSION);
}

/** A patient acts through their link, never as a user (even where the browser has a staff session too). */
const patientAudit = (link: LinkRow, sample: SampleRow, caller: Caller, action: string, details: Record<string, unknown> = {}) => ({
  ...auditActor({ ...caller, userId: null, kind: AuditActorKind.Patient }),
  action,
  entityKind: 'sample' as const,
  entityId: sample.id,
  details: { linkId: link.id, ...details },
});

function contactOf(patient: PatientRow): Record<DemographicField, string | null> {
  return Object.fromEntries(DEMOGRAPHIC_FIELDS.map((f) => [f, patient[f] ?? null])) as Record<DemographicField, string | null>;
}

/** The result as the verified patient sees it. */
async function resultView(ctx: Ctx, sample: SampleRow, patient: PatientRow): Promise<PatientResultView> {
  const { db } = ctx;
  // A result its clinic reviews first is not the patient's yet: only when it will be (patient-release.ts).
  const held = await patientHeldResults(db, sample.id);
  const released = (await releasedResultsOf(db, sample.id)).filter((r) => !held.has(r.result.id));
  const report = await currentLabReportDocument(db, sample.id);
  return {
    patientName: `${patient.firstName} ${patient.lastName}`,
    barcode: sample.barcode,
    sampleType: sample.sampleType,
    collectedAt: sample.collectedAt?.toISOString() ?? null,
    receivedAt: sample.receivedAt?.toISOString() ?? null,
    results: released.map((r) => ({
      testName: r.test.name,
      value: r.result.value,
      valueText: r.valueText,
      releasedAt: r.result.reviewedAt?.toISOString() ?? null,
      corrected: r.corrected,
      correctionReason: r.corrected ? (r.result.correctionReason?.trim() || null) : null,
      previousValue: r.corrected && r.replaced ? r.replaced.value : null,
    })),
    // The report prints every released result of the sample: not the patient's while one is held.
    reportAvailable: report !== null && held.size === 0,
    inReview: [...held.values()],
    contact: contactOf(patient),
    texts: smsContactOf(patient),
    contacts: await resultContactsOf(db, ctx.config.lab, sample),
  };
}

type NamedPatient = PatientRow & { firstName: string; lastName: string; dateOfBirth: string };
/** A patient with a name and date of birth: a research participant (a study id only) is never sent a link. */
const isNamedPatient = (p: PatientRow): p is NamedPatient => p.firstName !== null && p.lastName !== null && p.dateOfBirth !== null;

/** The patient a link's sample belongs to. */
async function patientOf(db: Db, sample: SampleRow): Promise<NamedPatient> {
  const patient = await db.models.Patient.findByPk(sample.patientId);
  if (!patient || !isNamedPatient(patient)) throw linkNotFound();
  return patient;
}

/**
 * GET: the greeting of a link (first name, last initial, locked?). A session that already verified
 * this link also gets the result (a reload does not ask for the date of birth again).
 */
export async function openResultLink(ctx: Ctx, barcode: string, token: string, session: RequestSession, caller: Caller): Promise<PatientResultGreeting> {
  const found = await findResultLink(ctx.db, barcode, token);
  if (!found) throw linkNotFound();
  const { link, sample } = found;
  const patient = await patientOf(ctx.db, sample);
  const locked = link.lockedAt !== null;
  const verified = !locked && isVerified(session, link.id);
  const greeting: PatientResultGreeting = {
    firstName: patient.firstName,
    lastInitial: patient.lastName.trim().charAt(0).toUpperCase(),
    locked,
    verified,
  };
  if (verified) greeting.result = await resultView(ctx, sample, patient);
  await recordAudit(ctx.db, { ...patientAudit(link, sample, caller, verified ? 'result.read' : 'result.link_opened', { locked }), actorKind: verified ? AuditActorKind.Patient : AuditActorKind.Anonymous });
  return greeting;
}

type VerifyOutcome =
  | { kind: 'not_found' }
  | { kind: 'locked' }
  | { kind: 'wrong'; attemptsLeft: number }
  | { kind: 'ok'; link: LinkRow; sample: SampleRow; patient: NamedPatient };

/**
 * POST verify-patient. A wrong date counts against the link (committed before the answer); the
 * tenth locks it, and a locked link refuses every later attempt, right or wrong.
 */
export async function verifyPatient(ctx: Ctx, body: VerifyPatientBody, session: RequestSession, caller: Caller): Promise<PatientResultGreeting> {
  const outcome = await ctx.db.sequelize.transaction(async (transaction): Promise<VerifyOutcome> => {
    const found = await findResultLink(ctx.db, body.barcode, body.token, { transaction, lock: true });
    if (!found) return { kind: 'not_found' };
    const { link, sample } = found;
    if (link.lockedAt) {
      await recordAudit(ctx.db, { ...patientAudit(link, sample, caller, 'result.verify_refused'), actorKind: AuditActorKind.Anonymous, details: { linkId: link.id, locked: true } }, transaction);
      return { kind: 'locked' };
    }
    const patient = await ctx.db.models.Patient.findByPk(sample.patientId, { transaction });
    if (!patient || !isNamedPatient(patient)) return { kind: 'not_found' };
    if (patient.dateOfBirth === body.dateOfBirth) {
      await recordAudit(ctx.db, patientAudit(link, sample, caller, 'result.verified'), transaction);
      return { kind: 'ok', link, sample, patient };
    }
    const failures = link.dobFailures + 1;
    const locks = failures >= RESULT_LINK_MAX_DOB_FAILURES;
    await link.update({ dobFailures: failures, lockedAt: locks ? new Date() : null }, { transaction });
    await recordAudit(
      ctx.db,
      { ...patientAudit(link, sample, caller, locks ? 'result.link_locked' : 'result.verify_failed', { failures }), actorKind: AuditActorKind.Anonymous },
      transaction,
    );
    return locks ? { kind: 'locked' } : { kind: 'wrong', attemptsLeft: RESULT_LINK_MAX_DOB_FAILURES - failures };
  });

  switch (outcome.kind) {
    case 'not_found': throw linkNotFound();
    case 'locked': throw linkLocked();
    case 'wrong': throw dobMismatch(outcome.attemptsLeft);
    case 'ok': {
      rememberVerified(session, outcome.link.id);
      return {
        firstName: outcome.patient.firstName,
        lastInitial: outcome.patient.lastName.trim().charAt(0).toUpperCase(),
        locked: false,
        verified: true,
        result: await resultView(ctx, outcome.sample, outcome.patient),
      };
    }
  }
}

/** The link of a request from a session that verified it; 404 / 423 / 403 otherwise. */
async function verifiedLink(ctx: Ctx, barcode: string, token: string, session: RequestSession) {
  const found = await findResultLink(ctx.db, barcode, token);
  if (!found) throw linkNotFound();
  if (found.link.lockedAt) throw linkLocked();
  if (!isVerified(session, found.link.id)) throw notVerified();
  return found;
}

/** POST log-view-result: the page showed the result (one audit row per view). */
export async function logResultView(ctx: Ctx, barcode: string, token: string, session: RequestSession, caller: Caller): Promise<void> {
  const { link, sample } = await verifiedLink(ctx, barcode, token, session);
  await recordAudit(ctx.db, patientAudit(link, sample, caller, 'result.viewed'));
}

/** POST update-demographic-info: the verified patient changes their contact details (audited by field name, never value). */
export async function updateDemographicInfo(
  ctx: Ctx,
  body: UpdateDemographicInfoBody,
  session: RequestSession,
  caller: Caller,
): Promise<DemographicInfoAnswer> {
  const { link, sample } = await verifiedLink(ctx, body.barcode, body.token, session);
  const changes: Partial<Record<DemographicField, string | null>> = {};
  for (const field of DEMOGRAPHIC_FIELDS) {
    const value = body[field];
    if (value !== undefined) changes[field] = value === '' ? null : value;
  }
  const patient = await ctx.db.sequelize.transaction(async (transaction) => {
    const row = await ctx.db.models.Patient.findByPk(sample.patientId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!row) throw linkNotFound();
    const changed = (Object.keys(changes) as DemographicField[]).filter((f) => (row[f] ?? null) !== changes[f]);
    await row.update(changes, { transaction });
    await recordAudit(
      ctx.db,
      { ...patientAudit(link, sample, caller, 'patient.contact_updated', { fields: changed, sampleId: sample.id }), entityKind: 'patient', entityId: row.id },
      transaction,
    );
    return row;
  });
  return { contact: contactOf(patient) };
}

/**
 * POST set-text-messages: the verified patient gives (or changes, or removes) their mobile number and
 * says whether they want texts; consent is recorded with when and where (the result page), audited
 * with the old and new values (docs/sms.md).
 */
export async function setTextMessages(ctx: Ctx, body: SetTextMessagesBody, session: RequestSession, caller: Caller): Promise<SmsContact> {
  const { link, sample } = await verifiedLink(ctx, body.barcode, body.token, session);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const row = await ctx.db.models.Patient.findByPk(sample.patientId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!row) throw linkNotFound();
    const { actorUserId, actorKind, ip, requestId } = patientAudit(link, sample, caller, '');
    await applySmsContact(ctx.db, transaction, row, { mobilePhone: body.mobilePhone, smsConsent: body.smsConsent }, {
      source: SmsConsentSource.ResultPage, actor: { actorUserId, actorKind, ip, requestId }, details: { sampleId: sample.id, linkId: link.id },
    });
    return smsContactOf(row);
  });
}

/** POST set-language: the verified patient switched language on their result page; their emails follow it (audited). */
export async function setPreferredLanguage(ctx: Ctx, body: SetLanguageBody, session: RequestSession, caller: Caller): Promise<LanguageAnswer> {
  const { link, sample } = await verifiedLink(ctx, body.barcode, body.token, session);
  await ctx.db.sequelize.transaction(async (transaction) => {
    const row = await ctx.db.models.Patient.findByPk(sample.patientId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!row) throw linkNotFound();
    if (row.preferredLanguage === body.language) return;
    await row.update({ preferredLanguage: body.language }, { transaction });
    await recordAudit(
      ctx.db,
      { ...patientAudit(link, sample, caller, 'patient.language_changed', { language: body.language, sampleId: sample.id }), entityKind: 'patient', entityId: row.id },
      transaction,
    );
  });
  return { language: body.language };
}

/** GET report.pdf: the latest lab report of the verified link's sample, audited. */
export async function patientReportPdf(ctx: Ctx, barcode: string, token: string, session: RequestSession, caller: Caller) {
  const { link, sample } = await verifiedLink(ctx, barcode, token, session);
  if ((await patientHeldResults(ctx.db, sample.id)).size > 0) throw reportInReview();
  const report = await latestLabReport(ctx.db, sample.id);
  if (!report) throw reportNotReady();
  await recordAudit(ctx.db, patientAudit(link, sample, caller, 'result.downloaded', { documentId: report.documentId, version: report.version }));
  return { ...report, fileName: `lab-report-${sample.barcode}.pdf` };
}
