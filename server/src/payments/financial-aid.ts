/**
 * Financial assistance: the admin records that a patient pays a reduced price until a date.
 * Patient ordering reads these later. The patient is found across accounts by the one patient
 * search (patients/patient-search.ts), which the lab's sfpatient/search uses too.
 */
import { randomInt } from 'node:crypto';
import type { WhereOptions } from 'sequelize';
import type { FinancialAssistanceRecord, Patient } from '@platform/db';
import {
  AccessStatus, AID_CODE_ALPHABET, AID_CODE_LENGTH, formatAidCode, fullName, isCurrentAid, patientLabel, type AdminPatientOption, type CreatedFinancialAid,
  type CreateFinancialAidBody, type FinancialAidQuery, type FinancialAidRow,
} from '@platform/domain';
import { auditActor, recordAudit, type Caller } from '../audit';
import { financialAidGrantedEmail } from '../email/templates';
import { notFound } from '../errors';
import { queueEmail } from '../email/queue-email';
import type { ServerContext } from '../context';
import { hashToken } from '../auth/tokens';
import { dataDate, toIso } from '../answer-values';
import { findPatients } from '../patients/patient-search';
import { offsetOf } from '../paging';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

const PATIENT_OPTIONS_LIMIT = 20;

/** Patients of any account (or none: patients who order for themselves): the first 20 the one patient search finds. */
export async function searchAllPatients(ctx: Ctx, caller: Caller, q: string): Promise<AdminPatientOption[]> {
  const { rows } = await findPatients(ctx, caller, 'all-accounts', { q, page: 1, pageSize: PATIENT_OPTIONS_LIMIT });
  return rows.map((p) => ({ id: p.id, name: patientLabel(p), dateOfBirth: dataDate(p.dateOfBirth)!, email: p.email, accountName: p.account?.name ?? null }));
}

function aidRow(r: FinancialAssistanceRecord): FinancialAidRow {
  const p = r.patient!;
  const validUntil = dataDate(r.validUntil);
  return {
    id: r.id, patientId: p.id, patientName: patientLabel(p), patientEmail: p.email, dateOfBirth: dataDate(p.dateOfBirth)!, status: r.status,
    approvedPriceCents: r.approvedPriceCents, validUntil,
    current: isCurrentAid({ status: r.status, validUntil }),
    note: r.notes, createdBy: fullName(r.createdBy ?? null), createdAt: toIso(r.createdAt)!,
  };
}

export async function listFinancialAid(ctx: Ctx, caller: Caller, query: FinancialAidQuery): Promise<{ rows: FinancialAidRow[]; total: number }> {
  const { FinancialAssistanceRecord, Patient, User } = ctx.db.models;
  const patientFilter: WhereOptions<Patient> = query.patientId ? { id: query.patientId } : {};
  const { rows, count } = await FinancialAssistanceRecord.findAndCountAll({
    include: [
      { model: Patient, as: 'patient', where: patientFilter, required: true },
      { model: User, as: 'createdBy', attributes: ['firstName', 'lastName'] },
    ],
    order: [['createdAt', 'DESC'], ['id', 'DESC']],
    limit: query.pageSize,
    offset: offsetOf(query.page, query.pageSize),
  });
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'financial_aid.listed', entityKind: 'patient', details: { patients: [...new Set(rows.map((r) => r.patientId))] } });
  return { rows: rows.map(aidRow), total: count };
}

/** A new assistance code (AID_CODE_LENGTH characters of AID_CODE_ALPHABET, about 50 bits). */
function newAidCode(): string {
  return Array.from({ length: AID_CODE_LENGTH }, () => AID_CODE_ALPHABET[randomInt(AID_CODE_ALPHABET.length)]).join('');
}

/**
 * Records an approved reduced price for an existing patient or a new one (no account: they will
 * order themselves), with a new assistance code: only its hash is kept, the patient is emailed it
 * (in their language) when an email is on file, and the admin sees it once in the answer to give
 * it by other means when none is.
 */
export async function createFinancialAid(ctx: Ctx, caller: Caller, body: CreateFinancialAidBody): Promise<CreatedFinancialAid> {
  const { FinancialAssistanceRecord, Patient } = ctx.db.models;
  const code = newAidCode();
  const { id, emailedTo } = await ctx.db.sequelize.transaction(async (transaction) => {
    const patient = body.patientId
      ? await Patient.findByPk(body.patientId, { transaction })
      : await Patient.create({ accountId: null, ...body.patient!, sex: null, phone: null }, { transaction });
    if (!patient) throw notFound('Patient not found');
    const record = await FinancialAssistanceRecord.create(
      {
        patientId: patient.id, status: AccessStatus.Approved, approvedPriceCents: body.approvedPriceCents, validUntil: body.validUntil, notes: body.note,
        householdSize: null, annualIncomeCents: null, createdByUserId: caller.userId, decidedByUserId: caller.userId, decidedAt: new Date(),
        codeHash: hashToken(code),
      },
      { transaction },
    );
    const email = patient.email
      ? await queueEmail(ctx, transaction, {
        to: patient.email,
        ...financialAidGrantedEmail({
          language: patient.preferredLanguage, brand: ctx.config.brand, firstName: patient.firstName,
          priceCents: body.approvedPriceCents, validUntil: body.validUntil, code,
        }),
        entity: { kind: 'patient', id: patient.id },
        createdByUserId: caller.userId,
      })
      : null;
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'financial_aid.created', entityKind: 'patient', entityId: patient.id,
      details: {
        recordId: record.id, before: null, after: { approvedPriceCents: body.approvedPriceCents, validUntil: body.validUntil }, newPatient: !body.patientId,
        codeEmailId: email?.id ?? null,
      },
    }, transaction);
    return { id: record.id, emailedTo: email ? patient.email : null };
  });
  const record = await FinancialAssistanceRecord.findByPk(id, { include: [{ model: Patient, as: 'patient' }, { model: ctx.db.models.User, as: 'createdBy', attributes: ['firstName', 'lastName'] }] });
  return { ...aidRow(record!), assistanceCode: formatAidCode(code), codeEmailedTo: emailedTo };
}
