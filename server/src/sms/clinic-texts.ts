/**
 * The clinic's view of a patient's texts (docs/sms.md): the number and consent the patient gave,
 * whether the number replied STOP, and the latest texts with their status (never their words); and
 * the clinic recording the number and consent the patient gave it (source "clinic", the user in
 * the audit row). The patient must be the account's: another account's patient is a 404.
 */
import type { Db } from '@platform/db';
import { SmsConsentSource, type ClinicPatientTexts, type PatientTextsBody } from '@platform/domain';
import { auditActor, recordAudit, type AccountCaller } from '../audit';
import { notFound } from '../errors';
import { applySmsContact, smsContactOf } from './consent';
import { optedOut } from './inbound';

/** How many of the latest texts the clinic sees. */
const LATEST_TEXTS = 20;

type PatientRow = InstanceType<Db['models']['Patient']>;

async function textsOf(db: Db, patient: PatientRow): Promise<ClinicPatientTexts> {
  const rows = await db.models.TextMessage.findAll({ where: { patientId: patient.id }, order: [['id', 'DESC']], limit: LATEST_TEXTS });
  return {
    texts: smsContactOf(patient),
    optedOut: patient.mobilePhone ? await optedOut(db, patient.mobilePhone) : false,
    messages: rows.map((r) => ({ id: r.id, kind: r.kind, status: r.status, error: r.error, createdAt: r.createdAt.toISOString(), sentAt: r.sentAt ? r.sentAt.toISOString() : null })),
  };
}

const patientNotFound = () => notFound('Patient not found');

/** GET: read, audited. */
export async function clinicPatientTexts(ctx: { db: Db }, caller: AccountCaller, patientId: number): Promise<ClinicPatientTexts> {
  const patient = await ctx.db.models.Patient.findOne({ where: { id: patientId, accountId: caller.accountId } });
  if (!patient) throw patientNotFound();
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'patient.texts_viewed', entityKind: 'patient', entityId: patient.id, details: { accountId: caller.accountId } });
  return textsOf(ctx.db, patient);
}

/** PUT: the number and consent as the patient gave them to the clinic, in one transaction, audited with old and new values. */
export async function setClinicPatientTexts(ctx: { db: Db }, caller: AccountCaller, patientId: number, body: PatientTextsBody): Promise<ClinicPatientTexts> {
  const patient = await ctx.db.sequelize.transaction(async (transaction) => {
    const row = await ctx.db.models.Patient.findOne({ where: { id: patientId, accountId: caller.accountId }, transaction, lock: transaction.LOCK.UPDATE });
    if (!row) throw patientNotFound();
    await applySmsContact(ctx.db, transaction, row, body, { source: SmsConsentSource.Clinic, actor: auditActor(caller), details: { accountId: caller.accountId } });
    return row;
  });
  return textsOf(ctx.db, patient);
}
