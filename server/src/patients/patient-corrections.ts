/**
 * Correcting a clinic patient's details (docs/clinical-orders.md). The clinic sends the details as
 * they should read and why; the fields that differ are written to the patient and kept, old and
 * new, as one row of the patient's corrections history; the audit row names the fields and the
 * history row (with a digest of its values: the hash-chained audit table carries no names or
 * dates of birth, and a change to the kept values behind the product's back would not match it).
 * What the lab already issued stays as issued: a released report is a stored PDF, rendered with
 * the details of its day; a sent requisition form likewise.
 */
import { createHash } from 'node:crypto';
import {
  correctableFields, formatCalendarDate, fullName, patientSexLabel, type CorrectableField, type PatientCorrectionBody, type PatientCorrectionView,
} from '@platform/domain';
import type { Patient } from '@platform/db';
import type { ServerContext } from '../context';
import { type AccountCaller, auditActor, recordAudit } from '../audit';
import { dataDate } from '../answer-values';
import { badRequest, conflict, notFound } from '../errors';
import { DUPLICATE_PATIENT_MESSAGE, findSamePatient } from './same-patient';

type Ctx = Pick<ServerContext, 'db'>;
type FieldValues = Partial<Record<CorrectableField, string | null>>;

export const NOTHING_TO_CORRECT_MESSAGE = "Nothing to correct: the details given are the patient's details already";

/** A field's stored value as text (a date of birth as YYYY-MM-DD), null when not given. */
function storedValue(patient: Patient, field: CorrectableField): string | null {
  const value = (patient as unknown as Record<string, unknown>)[field];
  if (value === null || value === undefined || value === '') return null;
  return field === 'dateOfBirth' ? dataDate(value as string) : String(value);
}

/** The fields whose value the correction changes: before and after. */
function changedFields(patient: Patient, body: PatientCorrectionBody): { before: FieldValues; after: FieldValues } {
  const before: FieldValues = {};
  const after: FieldValues = {};
  for (const { key } of correctableFields()) {
    const value = body[key];
    const given = value === undefined || value === null || value === '' ? null : String(value);
    const stored = storedValue(patient, key);
    if (given !== stored) {
      before[key] = stored;
      after[key] = given;
    }
  }
  return { before, after };
}

const digestOf = (values: unknown) => createHash('sha256').update(JSON.stringify(values)).digest('hex');

/** POST patient/{patientId}/correct: the account's (named) patient; one transaction. */
export async function correctPatient(ctx: Ctx, caller: AccountCaller, patientId: number, body: PatientCorrectionBody): Promise<PatientCorrectionView> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const patient = await m.Patient.findOne({ where: { id: patientId, accountId: caller.accountId, studyId: null }, lock: transaction.LOCK.UPDATE, transaction });
    if (!patient) throw notFound('Patient not found');
    const { before, after } = changedFields(patient, body);
    const fields = Object.keys(after) as CorrectableField[];
    if (!fields.length) throw badRequest(NOTHING_TO_CORRECT_MESSAGE);
    if ((await findSamePatient(ctx, caller.accountId, body, transaction, patient.id)) !== null) {
      throw conflict(DUPLICATE_PATIENT_MESSAGE, [{ field: 'lastName', message: DUPLICATE_PATIENT_MESSAGE }]);
    }
    await patient.update(Object.fromEntries(fields.map((f) => [f, after[f]])), { transaction });
    const correction = await m.PatientCorrection.create(
      { patientId: patient.id, accountId: caller.accountId, correctedByUserId: caller.userId, reason: body.reason, before, after },
      { transaction },
    );
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'patient.corrected', entityKind: 'patient', entityId: patient.id,
      details: { accountId: caller.accountId, correctionId: correction.id, fields, valuesDigest: digestOf({ before, after }) },
    }, transaction);
    const user = await m.User.findByPk(caller.userId, { attributes: ['id', 'firstName', 'lastName'], transaction });
    return correctionView(correction, fullName(user) ?? 'Clinic');
  });
}

/** How a kept value reads: a date of birth as MM/DD/YYYY, a sex by its name. */
function shownValue(field: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (field === 'dateOfBirth') return formatCalendarDate(String(value));
  if (field === 'sex') return patientSexLabel(String(value));
  return String(value);
}

function correctionView(c: { id: number; createdAt: Date; reason: string; before: object; after: object }, by: string): PatientCorrectionView {
  const before = c.before as Record<string, unknown>;
  const after = c.after as Record<string, unknown>;
  // In the form's order (JSONB keeps an object's keys in an order of its own); a field the schema no longer has comes last, by its name.
  const known = correctableFields();
  const fields = [...known.filter((f) => f.key in after), ...Object.keys(after).filter((k) => !known.some((f) => f.key === k)).map((k) => ({ key: k, label: k }))];
  return {
    id: c.id, at: c.createdAt.toISOString(), by, reason: c.reason,
    changes: fields.map(({ key, label }) => ({ field: key, label, before: shownValue(key, before[key]), after: shownValue(key, after[key]) })),
  };
}

/** A patient's corrections, newest first, with who made each. */
export async function correctionsOf(ctx: Ctx, patientId: number): Promise<PatientCorrectionView[]> {
  const m = ctx.db.models;
  const rows = await m.PatientCorrection.findAll({ where: { patientId }, order: [['createdAt', 'DESC'], ['id', 'DESC']] });
  const userIds = [...new Set(rows.map((r) => r.correctedByUserId).filter((id): id is number => id !== null))];
  const users = userIds.length ? await m.User.findAll({ where: { id: userIds }, attributes: ['id', 'firstName', 'lastName'] }) : [];
  const names = new Map(users.map((u) => [Number(u.id), fullName(u) ?? 'Clinic']));
  return rows.map((r) => correctionView(r, names.get(Number(r.correctedByUserId)) ?? 'Clinic'));
}
