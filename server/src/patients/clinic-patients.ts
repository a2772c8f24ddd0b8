/**
 * A clinic's patients: search (the one patient search, patients/patient-search.ts, in the
 * account), exists-check, create, and the patient page (details, samples, each sample's tests
 * and timeline). Every query is scoped to the caller's account; every read
 * and write of patient data is audited (ids and counts only).
 */
import { createHash } from 'node:crypto';
import {
  clinicOrderCancellable, diagnosisViews, DocumentType, requisitionAwaitsSignOff, PROCESSING_STEP_TESTS, type NewPatientBody, type PatientDetail, type PatientExistsAnswer, type PatientExistsBody, type PatientSearchAnswer,
  type PatientSampleView, type PatientSearchBody, type PatientSummary, type TimelineEntry, fullName,
} from '@platform/domain';
import type { Patient, SampleStatusEvent } from '@platform/db';
import type { ServerContext } from '../context';
import { type AccountCaller, auditActor, recordAudit } from '../audit';
import { dataDate } from '../answer-values';
import { findPatients } from './patient-search';
import { sampleShipments } from './sample-shipments';
import { DUPLICATE_PATIENT_MESSAGE, findSamePatient } from './same-patient';
import { correctionsOf } from './patient-corrections';
import { conflict, notFound } from '../errors';

type Ctx = Pick<ServerContext, 'db'>;

/**
 * A clinic's patient as the Clinical Portal shows it. Research participants (a study id, no name)
 * are the Research Portal's: the clinic's reads never return them (CLINIC_PATIENT_SQL, `studyId: null`).
 */
export function patientSummary(p: Pick<Patient, 'id' | 'firstName' | 'lastName' | 'dateOfBirth' | 'sex' | 'email' | 'phone'>): PatientSummary {
  return { id: p.id, firstName: p.firstName ?? '', lastName: p.lastName ?? '', dateOfBirth: dataDate(p.dateOfBirth) ?? '', sex: p.sex, email: p.email, phone: p.phone };
}

/**
 * SQL: the sample's patient, joined as `p`, is a named patient, not a research participant (the
 * clinic's lists show only those). Read through the join, not as `NOT EXISTS (… study_id IS NOT
 * NULL)`: PostgreSQL expects almost no participants and answered that with a nested loop over every
 * participant of the database for each sample of the list (about 0.5 ms a page; 6 ms a capped count
 * of the large account).
 */
export const CLINIC_PATIENT_JOIN = 'JOIN patients p ON p.id = s.patient_id';
export const CLINIC_PATIENT_SQL = 'p.study_id IS NULL';

/**
 * Patients of the account matching `q` (the one patient search: a date of birth, or words in the
 * names or email), one page and the total; audited there.
 */
export async function searchPatients(ctx: Ctx, caller: AccountCaller, query: PatientSearchBody): Promise<PatientSearchAnswer> {
  const { rows, total } = await findPatients(ctx, caller, { accountId: caller.accountId }, query);
  return { rows: rows.map(patientSummary), total };
}

export async function patientExists(ctx: Ctx, caller: AccountCaller, who: PatientExistsBody): Promise<PatientExistsAnswer> {
  const patientId = await findSamePatient(ctx, caller.accountId, who);
  await recordAudit(ctx.db, {
    ...auditActor(caller),
    action: 'patient.exists_checked',
    entityKind: 'patient',
    entityId: patientId,
    details: { accountId: caller.accountId, exists: patientId !== null },
  });
  return patientId === null ? { exists: false } : { exists: true, patientId };
}

export { DUPLICATE_PATIENT_MESSAGE } from './same-patient';

export async function createPatient(ctx: Ctx, caller: AccountCaller, body: NewPatientBody): Promise<PatientSummary> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    // Two people adding the same patient at once: the second waits here, then sees the first.
    // The lock key is a hash: no name or date of birth goes into the SQL text.
    const digest = createHash('sha256')
      .update(`patient:${caller.accountId}:${body.firstName.trim().toLowerCase()}:${body.lastName.trim().toLowerCase()}:${body.dateOfBirth}`)
      .digest();
    const key = digest.readBigInt64BE(0).toString();
    await ctx.db.sequelize.query('SELECT pg_advisory_xact_lock(CAST(:key AS bigint))', { replacements: { key }, transaction });
    if ((await findSamePatient(ctx, caller.accountId, body, transaction)) !== null) throw conflict(DUPLICATE_PATIENT_MESSAGE);
    const patient = await ctx.db.models.Patient.create({ ...body, accountId: caller.accountId }, { transaction });
    await recordAudit(
      ctx.db,
      { ...auditActor(caller), action: 'patient.created', entityKind: 'patient', entityId: patient.id, details: { accountId: caller.accountId } },
      transaction,
    );
    return patientSummary(patient);
  });
}

const ACTOR_LABEL: Record<string, string> = { provider: 'Clinic', lab: 'Lab', admin: 'Administrator', system: 'System' };

/** One status event as a timeline step (the clinic's patient page and the LIMS sample show the same). */
export function timelineEntry(e: SampleStatusEvent): TimelineEntry {
  return {
    id: e.id,
    at: e.createdAt.toISOString(),
    from: e.fromStatus,
    to: e.toStatus,
    reason: e.reason,
    actor: { kind: e.actorKind, name: fullName(e.actor) ?? ACTOR_LABEL[e.actorKind] ?? e.actorKind },
  };
}

/** Every sample of a patient in the account, newest first, with its tests, timeline and documents (the clinic's patient page and the research participant page). */
export async function patientSamples(ctx: Ctx, accountId: number, patientId: number): Promise<PatientSampleView[]> {
  const m = ctx.db.models;
  const samples = await m.Sample.findAll({
    where: { patientId, accountId },
    include: [
      { model: m.Order, as: 'order', include: [{ model: m.Physician, as: 'physician' }] },
      { model: m.Test, as: 'tests' },
      { model: m.SampleStatusEvent, as: 'statusEvents', include: [{ model: m.User, as: 'actor', attributes: ['id', 'firstName', 'lastName'] }] },
      { model: m.SampleDocument, as: 'documents', where: { supersededAt: null }, required: false, attributes: ['id', 'type'] },
    ],
    order: [
      ['createdAt', 'DESC'],
      ['id', 'DESC'],
      [{ model: m.Test, as: 'tests' }, 'id', 'ASC'],
      [{ model: m.SampleStatusEvent, as: 'statusEvents' }, 'createdAt', 'ASC'],
      [{ model: m.SampleStatusEvent, as: 'statusEvents' }, 'id', 'ASC'],
    ],
  });
  const shipments = await sampleShipments(ctx, samples.map((s) => s.id));
  return samples.map((s) => ({
    id: s.id,
    barcode: s.barcode,
    status: s.status,
    statusBeforeStorage: s.statusBeforeStorage ?? null,
    sampleType: s.sampleType,
    rejectionReason: s.rejectionReason,
    orderNumber: s.order!.orderNumber,
    origin: s.order!.origin,
    orderedAt: s.order!.createdAt.toISOString(),
    physician: s.order!.physician ? { id: s.order!.physician.id, name: fullName(s.order!.physician)!, npi: s.order!.physician.npi } : null,
    // The lab's processing steps (DNA Extraction) are not the clinic's tests.
    tests: (s.tests ?? []).filter((t) => !PROCESSING_STEP_TESTS.includes(t.name)).map((t) => ({ id: t.id, name: t.name, status: t.status })),
    timeline: (s.statusEvents ?? []).map(timelineEntry),
    shipment: shipments.get(s.id) ?? null,
    documents: {
      requisitionForm: (s.documents ?? []).some((d) => d.type === DocumentType.TestRequisitionForm),
      labReport: (s.documents ?? []).some((d) => d.type === DocumentType.LabReport),
    },
    requisitionAwaitsSignOff: requisitionAwaitsSignOff(s.order!),
    diagnoses: diagnosisViews(s.order!.diagnosisCodes),
    cancellable: clinicOrderCancellable(s.order!, s),
    cancelledAt: s.order!.cancelledAt?.toISOString() ?? null,
    cancellationReason: s.order!.cancellationReason,
  }));
}

/** The patient page: details, and every sample of the patient in this account with its tests and timeline. */
export async function getPatientDetail(ctx: Ctx, caller: AccountCaller, patientId: number): Promise<PatientDetail> {
  const patient = await ctx.db.models.Patient.findOne({ where: { id: patientId, accountId: caller.accountId, studyId: null } });
  if (!patient) throw notFound('Patient not found');
  const [samples, corrections] = await Promise.all([patientSamples(ctx, caller.accountId, patient.id), correctionsOf(ctx, patient.id)]);
  await recordAudit(ctx.db, {
    ...auditActor(caller),
    action: 'patient.viewed',
    entityKind: 'patient',
    entityId: patient.id,
    details: { accountId: caller.accountId, sampleIds: samples.map((s) => s.id) },
  });
  return {
    patient: {
      ...patientSummary(patient),
      addressLine1: patient.addressLine1,
      addressLine2: patient.addressLine2,
      city: patient.city,
      state: patient.state,
      postalCode: patient.postalCode,
      country: patient.country,
      medicalRecordNumber: patient.medicalRecordNumber,
      createdAt: patient.createdAt.toISOString(),
    },
    samples,
    corrections,
  };
}
