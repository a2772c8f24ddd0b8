/**
 * What a clinic adds to a sample it already ordered: the patient's cancer diagnosis
 * (sample/patient-register-cancer) and a PROSTOX CFRT test (sample/{id}/add-cfrt-test). Every
 * sample id is checked against the caller's account first (another account's sample: 404); each
 * command is one transaction with its timeline step and audit row.
 */
import {
  ADD_TEST_SAMPLE_STATUSES, AccountRole, catalogueEntry, gradeGroup, TestName, workStatusOf,
  type AddedCfrtTest, type CancerDiagnosisBody, type CancerDiagnosisView,
} from '@platform/domain';
import type { Db } from '@platform/db';
import { type AccountCaller, auditActor, recordAudit } from '../audit';
import { conflict, conflictOnDuplicate, forbidden, notFound } from '../errors';
import { noteOnTimeline } from '../samples/timeline-note';
import type { ServerContext } from '../context';
import { dataDate } from '../answer-values';
import { physiciansForCaller } from './orders';

type Ctx = Pick<ServerContext, 'db'>;
type DiagnosisRow = InstanceType<Db['models']['CancerDiagnosis']>;

export function cancerDiagnosisView(d: DiagnosisRow): CancerDiagnosisView {
  const psa = d.psa === null || d.psa === undefined ? null : Number(d.psa);
  return {
    sampleId: d.sampleId, site: d.site, diagnosis: d.diagnosis, diagnosedOn: dataDate(d.diagnosedOn)!, stage: d.stage,
    gleasonPrimary: d.gleasonPrimary, gleasonSecondary: d.gleasonSecondary,
    gradeGroup: d.gleasonPrimary && d.gleasonSecondary ? gradeGroup(d.gleasonPrimary, d.gleasonSecondary) : null,
    psa, plannedTreatment: d.plannedTreatment, recordedAt: d.updatedAt.toISOString(),
  };
}

/** POST sample/patient-register-cancer: records (or replaces) the diagnosis of the sample's patient. */
export async function registerCancer(ctx: Ctx, caller: AccountCaller, body: CancerDiagnosisBody): Promise<CancerDiagnosisView> {
  const m = ctx.db.models;
  return conflictOnDuplicate(() => ctx.db.sequelize.transaction(async (transaction) => {
    const sample = await m.Sample.findOne({ where: { id: body.sampleId, accountId: caller.accountId }, transaction, lock: transaction.LOCK.UPDATE });
    if (!sample) throw notFound('Sample not found');
    const values = {
      site: body.site, diagnosis: body.diagnosis?.trim() || null, diagnosedOn: body.diagnosedOn, stage: body.stage ?? null,
      gleasonPrimary: body.gleasonPrimary ?? null, gleasonSecondary: body.gleasonSecondary ?? null, psa: body.psa ?? null,
      plannedTreatment: body.plannedTreatment ?? null, recordedByUserId: caller.userId,
    };
    const existing = await m.CancerDiagnosis.findOne({ where: { sampleId: sample.id }, transaction });
    const row = existing
      ? await existing.update(values, { transaction })
      : await m.CancerDiagnosis.create({ sampleId: sample.id, patientId: sample.patientId, ...values }, { transaction });
    await noteOnTimeline(ctx.db, transaction, sample, { by: caller, reason: existing ? 'Cancer diagnosis details updated' : 'Cancer diagnosis details registered' });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: existing ? 'cancer_diagnosis.updated' : 'cancer_diagnosis.registered', entityKind: 'sample', entityId: sample.id,
      details: { accountId: caller.accountId, patientId: sample.patientId, diagnosisId: row.id },
    }, transaction);
    return cancerDiagnosisView(row);
  }), { cancer_diagnoses_sample_id_key: { field: 'sampleId', message: 'This sample’s diagnosis was just registered by someone else: reload and try again' } });
}

/** POST sample/{id}/add-cfrt-test: a PROSTOX CFRT test on a sample of the account not yet past testing, once. */
export async function addCfrtTest(ctx: Ctx, caller: AccountCaller, role: AccountRole, sampleId: number): Promise<AddedCfrtTest> {
  const m = ctx.db.models;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const sample = await m.Sample.findOne({ where: { id: sampleId, accountId: caller.accountId }, transaction, lock: transaction.LOCK.UPDATE });
    if (!sample) throw notFound('Sample not found');
    const order = await m.Order.findByPk(sample.orderId, { transaction });
    if (order?.physicianId && !(await physiciansForCaller(ctx, caller, role)).some((p) => p.id === order.physicianId)) {
      throw forbidden(role === AccountRole.SupportStaff
        ? 'You may add tests only for the physicians you are linked to in this account'
        : 'A physician adds tests only to their own orders');
    }
    if (!ADD_TEST_SAMPLE_STATUSES.includes(workStatusOf(sample))) {
      throw conflict(`Sample ${sample.barcode} is ${sample.status}: a test can be added only until testing is over`, [{ field: 'sampleId', message: `The sample is ${sample.status}` }]);
    }
    const tests = await m.Test.findAll({ where: { sampleId: sample.id }, order: [['id', 'ASC']], transaction });
    if (tests.some((t) => t.name === TestName.ProstoxCfrt)) {
      throw conflict(`Sample ${sample.barcode} already has a ${TestName.ProstoxCfrt} test`, [{ field: 'test', message: `The sample already has a ${TestName.ProstoxCfrt} test` }]);
    }
    const test = await m.Test.create({ orderId: sample.orderId, sampleId: sample.id, name: TestName.ProstoxCfrt, parentType: catalogueEntry(TestName.ProstoxCfrt).parentType }, { transaction });
    await noteOnTimeline(ctx.db, transaction, sample, { by: caller, reason: `${TestName.ProstoxCfrt} test added` });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'test.added', entityKind: 'sample', entityId: sample.id,
      details: { accountId: caller.accountId, testId: test.id, test: TestName.ProstoxCfrt },
    }, transaction);
    return { testId: test.id, sampleId: sample.id, barcode: sample.barcode, tests: [...tests.map((t) => t.name), test.name] };
  });
}

/** GET patient/{patientId}/cancer-diagnoses: the diagnoses registered for the patient's samples in the account. */
export async function listCancerDiagnoses(ctx: Ctx, caller: AccountCaller, patientId: number): Promise<CancerDiagnosisView[]> {
  const m = ctx.db.models;
  const patient = await m.Patient.findOne({ where: { id: patientId, accountId: caller.accountId }, attributes: ['id'] });
  if (!patient) throw notFound('Patient not found');
  const samples = await m.Sample.findAll({ where: { patientId, accountId: caller.accountId }, attributes: ['id'] });
  const rows = samples.length ? await m.CancerDiagnosis.findAll({ where: { sampleId: samples.map((s) => s.id) }, order: [['sampleId', 'ASC']] }) : [];
  await recordAudit(ctx.db, {
    ...auditActor(caller), action: 'cancer_diagnoses.viewed', entityKind: 'patient', entityId: patientId,
    details: { accountId: caller.accountId, sampleIds: rows.map((r) => r.sampleId) },
  });
  return rows.map(cancerDiagnosisView);
}
