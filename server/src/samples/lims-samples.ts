/**
 * The LIMS sample calls for lab staff: one sample by id or barcode (status, type, dates, account,
 * patient, tests, timeline), the correction of a sample's metadata (sample type, collection time,
 * patient details; a reason is required; the old and new values are kept in the audit event), and
 * the kit check before intake (a kit we issued? to which account? in which status?).
 */
import type { Transaction } from 'sequelize';
import {
  describeBarcodeProblem, formatDate, fullName, isKitBarcode, isSampleId, LAB_SAMPLE_TYPES, PLATE_TESTS, RECEIVABLE_STATUSES, specimenSourceOf,
  TestResultStatus, type LimsKitAuth, type LimsSampleTest, type LimsSampleUpdateBody, type LimsSampleUpdated, type LimsSampleView,
  type SampleStatus as Status, type SampleType, type TestName,
} from '@platform/domain';
import type { Patient, Sample, TestResult } from '@platform/db';
import { auditActor, recordAudit, type UserCaller } from '../audit';
import { badRequest, conflict, notFound } from '../errors';
import type { ServerContext } from '../context';
import { dataDate, toIso } from '../answer-values';
import { timelineEntry } from '../patients/clinic-patients';

type Ctx = Pick<ServerContext, 'db' | 'config'>;
type Change = LimsSampleUpdated['changes'][number];

// ---------------------------------------------------------------------------------------------
// One sample
// ---------------------------------------------------------------------------------------------

/**
 * What a path's sample reference names: a barcode or sample id (41/61 + 12 digits, 55 + year-month,
 * POOL_…) is looked up as a barcode; a shorter number is a sample's id; anything else as a barcode.
 */
function sampleLookup(ref: string): { barcode: string } | { id: number } {
  if (isKitBarcode(ref) || isSampleId(ref) || !/^\d{1,12}$/.test(ref)) return { barcode: ref };
  return { id: Number(ref) };
}

async function loadSample(ctx: Ctx, where: { barcode: string } | { id: number }, transaction?: Transaction): Promise<Sample | null> {
  const m = ctx.db.models;
  return m.Sample.findOne({
    where,
    include: [
      { model: m.Patient, as: 'patient' },
      { model: m.Account, as: 'account', attributes: ['id', 'name'] },
      { model: m.Order, as: 'order', include: [{ model: m.Physician, as: 'physician' }] },
      { model: m.User, as: 'receivedBy', attributes: ['id', 'firstName', 'lastName'] },
      { model: m.Test, as: 'tests', include: [{ model: m.TestResult, as: 'results' }] },
      { model: m.SampleStatusEvent, as: 'statusEvents', include: [{ model: m.User, as: 'actor', attributes: ['id', 'firstName', 'lastName'] }] },
    ],
    order: [
      [{ model: m.Test, as: 'tests' }, 'id', 'ASC'],
      [{ model: m.SampleStatusEvent, as: 'statusEvents' }, 'createdAt', 'ASC'],
      [{ model: m.SampleStatusEvent, as: 'statusEvents' }, 'id', 'ASC'],
    ],
    transaction,
  });
}

function newestResult(results: TestResult[]): LimsSampleTest['result'] {
  const r = [...results].sort((a, b) => b.version - a.version)[0];
  return r ? { id: r.id, version: r.version, value: r.value, status: r.status, enteredAt: r.createdAt.toISOString(), releasedAt: toIso(r.reviewedAt) } : null;
}

function sampleView(s: Sample): LimsSampleView {
  const order = s.order!;
  const patient = s.patient!;
  return {
    id: s.id,
    barcode: s.barcode,
    status: s.status as Status,
    statusBeforeStorage: s.statusBeforeStorage,
    sampleType: s.sampleType,
    specimenSource: specimenSourceOf(s.sampleType),
    collectedAt: toIso(s.collectedAt),
    receivedAt: toIso(s.receivedAt),
    receivedBy: s.receivedBy ? { id: s.receivedBy.id, name: fullName(s.receivedBy)! } : null,
    rejectionReason: s.rejectionReason,
    order: { id: order.id, orderNumber: order.orderNumber, origin: order.origin, portal: order.portal, orderedAt: order.createdAt.toISOString() },
    account: s.account ? { id: s.account.id, name: s.account.name } : null,
    physician: order.physician ? { id: order.physician.id, name: fullName(order.physician)!, npi: order.physician.npi } : null,
    patient: { id: patient.id, firstName: patient.firstName, lastName: patient.lastName, dateOfBirth: dataDate(patient.dateOfBirth), sex: patient.sex, studyId: patient.studyId },
    tests: (s.tests ?? []).map((t) => ({ id: t.id, name: t.name, status: t.status, result: newestResult(t.results ?? []) })),
    timeline: (s.statusEvents ?? []).map(timelineEntry),
  };
}

/** GET lims/sample/{id}: by id or barcode; the read is audited. */
export async function getLimsSample(ctx: Ctx, caller: UserCaller, ref: string): Promise<LimsSampleView> {
  const sample = await loadSample(ctx, sampleLookup(ref));
  if (!sample) throw notFound(`No sample has id or barcode ${ref}`);
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'sample.viewed', entityKind: 'sample', entityId: sample.id, details: { by: 'lims', patientId: sample.patientId } });
  return sampleView(sample);
}

// ---------------------------------------------------------------------------------------------
// Metadata correction
// ---------------------------------------------------------------------------------------------

/** The changes a correction makes (fields given with the value they already have are left out). */
function changesOf(sample: Sample, patient: Patient, body: LimsSampleUpdateBody): Change[] {
  const changes: Change[] = [];
  const add = (field: Change['field'], from: string | null, to: string | undefined) => {
    if (to !== undefined && to !== from) changes.push({ field, from, to });
  };
  add('sampleType', sample.sampleType, body.sampleType);
  add('collectedAt', toIso(sample.collectedAt), body.collectedAt?.toISOString());
  add('patient.firstName', patient.firstName, body.patient?.firstName);
  add('patient.lastName', patient.lastName, body.patient?.lastName);
  add('patient.dateOfBirth', dataDate(patient.dateOfBirth), body.patient?.dateOfBirth);
  add('patient.sex', patient.sex, body.patient?.sex);
  return changes;
}

/** The rules a correction must keep: the collection before the receipt, a COVID test's respiratory specimen. */
function checkCorrection(sample: Sample, body: LimsSampleUpdateBody, zone: string): void {
  if (body.collectedAt && sample.receivedAt && body.collectedAt > sample.receivedAt) {
    const message = `The collection time must be before the sample was received (${formatDate(sample.receivedAt, zone)})`;
    throw badRequest(message, [{ field: 'collectedAt', message }]);
  }
  const plateTest = (sample.tests ?? []).find((t) => PLATE_TESTS.includes(t.name as TestName));
  if (body.sampleType && plateTest && !LAB_SAMPLE_TYPES.includes(body.sampleType as SampleType)) {
    const message = `A ${plateTest.name} sample must be one of: ${LAB_SAMPLE_TYPES.join(', ')}`;
    throw badRequest(message, [{ field: 'sampleType', message }]);
  }
}

/**
 * A released result's report prints the sample's and the patient's details: once one is out, a
 * correction would make it wrong, so it is refused (the sample's own fields: this sample's
 * results; the patient's: any sample of the patient).
 */
async function refuseAfterRelease(ctx: Ctx, transaction: Transaction, sample: Sample, changes: Change[]): Promise<void> {
  const m = ctx.db.models;
  const touchesPatient = changes.some((c) => c.field.startsWith('patient.'));
  const sampleIds = touchesPatient
    ? (await m.Sample.findAll({ where: { patientId: sample.patientId }, attributes: ['id'], transaction })).map((s) => s.id)
    : [sample.id];
  const released = await m.TestResult.findOne({
    where: { status: TestResultStatus.Released },
    include: [{ model: m.Test, as: 'test', where: { sampleId: sampleIds }, attributes: ['sampleId'], include: [{ model: m.Sample, as: 'sample', attributes: ['barcode'] }] }],
    attributes: ['id'],
    transaction,
  });
  if (!released) return;
  const barcode = released.test!.sample!.barcode;
  const whose = barcode === sample.barcode ? `Sample ${barcode}` : `The patient's sample ${barcode}`;
  throw conflict(`${whose} has a released result whose report prints these details: they can be corrected only before a result is released`);
}

async function applyCorrection(ctx: Ctx, transaction: Transaction, sample: Sample, patient: Patient, body: LimsSampleUpdateBody, changes: Change[]): Promise<void> {
  const changed = new Set(changes.map((c) => c.field));
  const sampleUpdate: Partial<Pick<Sample, 'sampleType' | 'collectedAt'>> = {};
  if (changed.has('sampleType')) sampleUpdate.sampleType = body.sampleType!;
  if (changed.has('collectedAt')) sampleUpdate.collectedAt = body.collectedAt!;
  if (Object.keys(sampleUpdate).length) await sample.update(sampleUpdate, { transaction });
  const patientUpdate = Object.fromEntries(
    changes.filter((c) => c.field.startsWith('patient.')).map((c) => [c.field.slice('patient.'.length), c.to]),
  ) as Partial<Pick<Patient, 'firstName' | 'lastName' | 'dateOfBirth' | 'sex'>>;
  if (Object.keys(patientUpdate).length) await patient.update(patientUpdate, { transaction });
}

/**
 * POST lims/sample/update, in one transaction: the sample and its patient locked, the changes
 * checked and written, and one audit event with the reason and every old and new value (the
 * audit trail of a correction is what it replaced).
 */
export async function updateLimsSample(ctx: Ctx, caller: UserCaller, body: LimsSampleUpdateBody): Promise<LimsSampleUpdated> {
  const m = ctx.db.models;
  const { sampleId, changes } = await ctx.db.sequelize.transaction(async (transaction) => {
    const locked = await m.Sample.findByPk(body.sampleId, { attributes: ['id'], transaction, lock: transaction.LOCK.UPDATE });
    if (!locked) throw notFound('Sample not found');
    const sample = (await loadSample(ctx, { id: locked.id }, transaction))!;
    const patient = (await m.Patient.findByPk(sample.patientId, { transaction, lock: transaction.LOCK.UPDATE }))!;
    const changes = changesOf(sample, patient, body);
    if (!changes.length) throw badRequest('Nothing to correct: the sample and patient already have these values');
    checkCorrection(sample, body, ctx.config.labTimeZone);
    await refuseAfterRelease(ctx, transaction, sample, changes);
    await applyCorrection(ctx, transaction, sample, patient, body, changes);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'sample.metadata_corrected', entityKind: 'sample', entityId: sample.id,
      details: { reason: body.reason, patientId: patient.id, changes },
    }, transaction);
    return { sampleId: sample.id, changes };
  });
  return { sample: sampleView((await loadSample(ctx, { id: sampleId }))!), changes };
}

// ---------------------------------------------------------------------------------------------
// Kit check before intake
// ---------------------------------------------------------------------------------------------

function kitMessage(sample: Sample, receivable: boolean, zone: string): string {
  const whose = sample.account ? `issued to ${sample.account.name}` : 'issued for a patient order (no account)';
  if (receivable) return `Kit ${sample.barcode} was ${whose}; it is ${sample.status}: receive it at intake`;
  if (sample.rejectionReason) return `Kit ${sample.barcode} was ${whose}; it is ${sample.status} (${sample.rejectionReason})`;
  const received = sample.receivedAt ? `, received ${formatDate(sample.receivedAt, zone)}` : '';
  return `Kit ${sample.barcode} was ${whose}; it is ${sample.status}${received}: it cannot be received now`;
}

/** GET lims/sample/auth/{barcode}: a malformed barcode is a 400 naming it; an unknown one answers issued: false. */
export async function authenticateKit(ctx: Ctx, caller: UserCaller, barcode: string): Promise<LimsKitAuth> {
  const problem = describeBarcodeProblem(barcode);
  if (problem) throw badRequest(problem, [{ field: 'barcode', message: problem }]);
  const m = ctx.db.models;
  const sample = await m.Sample.findOne({
    where: { barcode },
    include: [{ model: m.Account, as: 'account', attributes: ['id', 'name'] }, { model: m.Test, as: 'tests', attributes: ['name'] }],
    order: [[{ model: m.Test, as: 'tests' }, 'id', 'ASC']],
  });
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'sample.kit_checked', entityKind: 'sample', entityId: sample?.id ?? null, details: { issued: Boolean(sample) } });
  if (!sample) {
    return {
      barcode, issued: false, sampleId: null, account: null, status: null, tests: [], receivable: false,
      message: `Barcode ${barcode} is not a kit the lab issued: do not receive it`,
    };
  }
  const receivable = RECEIVABLE_STATUSES.includes(sample.status as Status);
  return {
    barcode, issued: true, sampleId: sample.id, account: sample.account ? { id: sample.account.id, name: sample.account.name } : null,
    status: sample.status as Status, tests: (sample.tests ?? []).map((t) => t.name), receivable, message: kitMessage(sample, receivable, ctx.config.labTimeZone),
  };
}
