/**
 * Fixtures of the Lab Toolbox tests: samples of their own (fresh barcodes, any status, any
 * test, with a timeline), result versions, and small waits. Tests share one database per run,
 * so every test makes the rows it needs.
 */
import { randomInt } from 'node:crypto';
import type { Db } from '@platform/db';
import {
  catalogueEntry, Portal, SampleStatus, SampleType, TestName, TestOrigin, TestResultStatus,
  type SampleStatus as Status, type TestName as TestNameT,
} from '@platform/domain';
import { DEMO_USERS, type DemoUserKey } from '../../scripts/demo-users';

let serial = 0;
const runPart = String(randomInt(0, 10_000)).padStart(4, '0');

/** A kit barcode no other test of this run uses: 61 + 4 random digits + an 8-digit counter. */
export function freshBarcode(): string {
  serial += 1;
  return `61${runPart}${String(serial).padStart(8, '0')}`;
}

/** The path of statuses a sample walks to reach a status (its timeline). */
const PATH: Partial<Record<Status, Status[]>> = {
  [SampleStatus.OrderPlaced]: [SampleStatus.OrderPlaced],
  [SampleStatus.PendingShipment]: [SampleStatus.OrderPlaced, SampleStatus.PendingShipment],
  [SampleStatus.InTransit]: [SampleStatus.OrderPlaced, SampleStatus.PendingShipment, SampleStatus.InTransit],
  [SampleStatus.InQueue]: [SampleStatus.OrderPlaced, SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue],
  [SampleStatus.InTesting]: [SampleStatus.OrderPlaced, SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue, SampleStatus.InTesting],
  [SampleStatus.Resulted]: [SampleStatus.OrderPlaced, SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue, SampleStatus.InTesting, SampleStatus.Resulted],
  [SampleStatus.Rejected]: [SampleStatus.OrderPlaced, SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.Rejected],
};

export async function userId(db: Db, who: DemoUserKey): Promise<number> {
  return (await db.models.User.findOne({ where: { email: DEMO_USERS[who].email }, attributes: ['id'] }))!.id;
}

export interface SampleFixture {
  id: number;
  barcode: string;
  testIds: number[];
  patientId: number;
  accountId: number | null;
}

/** A sample of a Riverside Oncology patient in the given status, with its tests and timeline. */
export async function makeSample(
  db: Db,
  options: { status: Status; tests?: TestNameT[]; barcode?: string; receivedAt?: Date | null; sampleType?: SampleType } ,
): Promise<SampleFixture> {
  const m = db.models;
  const account = await m.Account.findOne({ where: { name: 'Riverside Oncology' } });
  const physician = await m.Physician.findOne({ where: { accountId: account!.id } });
  const barcode = options.barcode ?? freshBarcode();
  const tests = options.tests ?? [TestName.ProstoxUltra];
  const path = PATH[options.status];
  if (!path) throw new Error(`no fixture path to ${options.status}`);
  const received = path.includes(SampleStatus.InQueue);
  return db.sequelize.transaction(async (transaction) => {
    const patient = await m.Patient.create({ accountId: account!.id, firstName: 'Testy', lastName: `Labson${serial}`, dateOfBirth: '1960-02-03', sex: 'M' }, { transaction });
    const order = await m.Order.create({
      orderNumber: `RF_${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`, accountId: account!.id, patientId: patient.id,
      physicianId: physician!.id, origin: TestOrigin.ProviderOrdered, portal: Portal.Clinical,
    }, { transaction });
    const sample = await m.Sample.create({
      barcode, sampleType: options.sampleType ?? SampleType.BuccalSwab, status: options.status, accountId: account!.id, patientId: patient.id, orderId: order.id,
      receivedAt: options.receivedAt !== undefined ? options.receivedAt : received ? new Date(Date.now() - 3_600_000) : null,
      rejectionReason: options.status === SampleStatus.Rejected ? 'Rejected - specimen expired' : null,
    }, { transaction });
    // Ordered three days ago, as a kit arriving at the lab would have been.
    await db.sequelize.query(`UPDATE samples SET created_at = now() - interval '3 days' WHERE id = :id`, { replacements: { id: sample.id }, transaction });
    await sample.reload({ transaction });
    const created = [];
    for (const name of tests) {
      created.push(await m.Test.create({ orderId: order.id, sampleId: sample.id, name, parentType: catalogueEntry(name).parentType }, { transaction }));
    }
    let from: Status | null = null;
    let at = sample.createdAt.getTime();
    for (const to of path) {
      at += 60_000;
      await m.SampleStatusEvent.create({ sampleId: sample.id, fromStatus: from, toStatus: to, actorKind: 'system', reason: to === SampleStatus.Rejected ? 'Rejected - specimen expired' : null, createdAt: new Date(at) }, { transaction });
      from = to;
    }
    return { id: sample.id, barcode, testIds: created.map((t) => t.id), patientId: patient.id, accountId: account!.id };
  });
}

/** A result version written directly (as an earlier entry would have). */
export async function makeResult(
  db: Db,
  testId: number,
  value: string,
  enteredBy: number,
  options: { status?: TestResultStatus; version?: number; reviewedBy?: number; correctionReason?: string } = {},
) {
  return db.models.TestResult.create({
    testId, version: options.version ?? 1, value, scale: null, status: options.status ?? TestResultStatus.InReview,
    enteredByUserId: enteredBy, reviewedByUserId: options.reviewedBy ?? null, reviewedAt: options.reviewedBy ? new Date() : null,
    correctionReason: options.correctionReason ?? null,
  });
}

export async function timeline(db: Db, sampleId: number): Promise<string[]> {
  const events = await db.models.SampleStatusEvent.findAll({ where: { sampleId }, order: [['createdAt', 'ASC'], ['id', 'ASC']] });
  return events.map((e) => e.toStatus);
}

export async function statusOf(db: Db, sampleId: number): Promise<string> {
  return (await db.models.Sample.findByPk(sampleId))!.status;
}

export async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export { TestName, SampleStatus, TestResultStatus };
