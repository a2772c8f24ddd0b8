/**
 * Each sample's turnaround steps kept by triggers (migrations/20261211100000-turnaround-steps.ts), on
 * a scratch database: the migration fills the table from the samples already there, and every later
 * write (a sample added or moved, status events inserted several at once, re-dated or deleted, a
 * test added, renamed or removed) leaves each row equal to what the sample's own events, tests and
 * status say, worked out here in TypeScript from domain's steps, not by the triggers' SQL.
 */
import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase, MIGRATIONS_DIR, type Db } from '@platform/db';
import {
  catalogueEntry, OPEN_SAMPLE_STATUSES, Portal, SampleStatus, SampleType, stepEvent, TestName, TestOrigin, TURNAROUND_TESTS,
  type SampleStatus as Status, type TurnaroundStep,
} from '@platform/domain';
import { createClinic, freshBarcode, type Clinic } from '../support/fixtures/reports';

const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `test_db_turnaround_steps_${process.pid}_${Date.now()}`;
const STEPS_MIGRATION = '20261211100000-turnaround-steps';
const BEFORE = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => f.replace(/\.ts$/, '')).sort()
  .filter((name) => name < STEPS_MIGRATION).at(-1)!;
const STEPS: TurnaroundStep[] = ['shipped', 'received', 'resulted', 'released', 'rejected'];
const S = SampleStatus;

interface StepsRow { id_text: string; account_text: string | null; test_names: string[]; open: boolean; [at: string]: unknown }

describe('db: each sample\'s turnaround steps kept by triggers', function () {
  this.timeout(120_000);
  let db: Db;
  let clinic: Clinic;
  let other: Clinic;
  const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) => db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

  /** What the table should say, from the samples, tests and events themselves. */
  async function expected(): Promise<Record<string, unknown>[]> {
    const samples = await q<{ id: string; account_id: string | null; status: Status; status_before_storage: Status | null }>('SELECT id::text AS id, account_id::text AS account_id, status, status_before_storage FROM samples ORDER BY id');
    const events = await q<{ sample_id: string; from_status: Status | null; to_status: Status; created_at: Date }>('SELECT sample_id::text AS sample_id, from_status, to_status, created_at FROM sample_status_events');
    const tests = await q<{ sample_id: string; name: string }>('SELECT sample_id::text AS sample_id, name FROM tests');
    return samples.map((s) => {
      const own = events.filter((e) => e.sample_id === s.id);
      const first = (step: TurnaroundStep) => {
        const { to, from } = stepEvent(step);
        const times = own.filter((e) => e.to_status === to && e.from_status !== null && from.includes(e.from_status)).map((e) => e.created_at.getTime());
        return times.length ? new Date(Math.min(...times)).toISOString() : null;
      };
      const open = OPEN_SAMPLE_STATUSES.includes(s.status) || (s.status === S.InStorage && s.status_before_storage !== null && OPEN_SAMPLE_STATUSES.includes(s.status_before_storage));
      return {
        sample_id: s.id, account_id: s.account_id, open,
        test_names: [...new Set(tests.filter((t) => t.sample_id === s.id && (TURNAROUND_TESTS as readonly string[]).includes(t.name)).map((t) => t.name))].sort(),
        ...Object.fromEntries(STEPS.map((step) => [`${step}_at`, first(step)])),
        last_event_at: own.length ? new Date(Math.max(...own.map((e) => e.created_at.getTime()))).toISOString() : null,
      };
    });
  }

  async function kept(): Promise<Record<string, unknown>[]> {
    const rows = await q<StepsRow>('SELECT st.*, st.sample_id::text AS id_text, st.account_id::text AS account_text FROM sample_turnaround st ORDER BY st.sample_id');
    return rows.map((r) => ({
      sample_id: r.id_text, account_id: r.account_text, open: r.open, test_names: [...r.test_names].sort(),
      ...Object.fromEntries(STEPS.map((step) => [`${step}_at`, iso(r[`${step}_at`])])),
      last_event_at: iso(r.last_event_at),
    }));
  }

  async function sample(c: Clinic, status: Status, tests: string[], statusBeforeStorage: Status | null = null): Promise<number> {
    const m = db.models;
    const p = await m.Patient.create({ accountId: c.account.id, firstName: 'Step', lastName: 'Fixture', dateOfBirth: '1950-01-01', sex: 'M' });
    const order = await m.Order.create({
      orderNumber: `RS_${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`, accountId: c.account.id, patientId: p.id, physicianId: c.physician.id,
      origin: TestOrigin.ProviderOrdered, portal: Portal.Clinical, createdByUserId: null,
      attestations: { medicalNecessity: true, informedConsent: true, reimbursementClaim: true, supportingDocumentation: true },
    });
    const s = await m.Sample.create({ barcode: freshBarcode(), sampleType: SampleType.BuccalSwab, status, statusBeforeStorage, accountId: c.account.id, patientId: p.id, orderId: order.id });
    for (const name of tests) await m.Test.create({ orderId: order.id, sampleId: s.id, name: name as TestName, parentType: catalogueEntry(name as TestName).parentType });
    return s.id;
  }

  /** One INSERT of several events (one statement, as the import writes them). */
  async function events(rows: [number, Status | null, Status, string][]) {
    await db.sequelize.query(
      `INSERT INTO sample_status_events (sample_id, from_status, to_status, actor_kind, created_at)
       SELECT * FROM unnest(ARRAY[:ids]::bigint[], ARRAY[:froms]::text[], ARRAY[:tos]::text[], ARRAY[:kinds]::text[], ARRAY[:whens]::timestamptz[])`,
      { replacements: { ids: rows.map((r) => r[0]), froms: rows.map((r) => r[1]), tos: rows.map((r) => r[2]), kinds: rows.map(() => 'lab'), whens: rows.map((r) => r[3]) } },
    );
  }

  const ids: Record<string, number> = {};

  before(async function () {
    await createDatabase(ADMIN_URL, DB_NAME);
    db = connect(databaseUrl(ADMIN_URL, DB_NAME), { poolMax: 2 });
    await createMigrator(db.sequelize).up({ to: BEFORE });
    clinic = await createClinic(db, 'steps');
    other = await createClinic(db, 'steps-other');
    ids.completed = await sample(clinic, S.Completed, [TestName.ProstoxUltra, TestName.DnaExtraction]);
    ids.twoReceipts = await sample(clinic, S.InTesting, [TestName.ProstoxUltra]);
    ids.stored = await sample(other, S.InStorage, [TestName.ProstoxCfrt], S.InQueue);
    ids.rejected = await sample(other, S.Rejected, [TestName.ProstoxUltra]);
    await events([
      [ids.completed, S.PendingShipment, S.InTransit, '2019-03-01T10:00:00Z'],
      [ids.completed, S.InTransit, S.InQueue, '2019-03-02T10:00:00Z'],
      [ids.completed, S.InQueue, S.InTesting, '2019-03-03T10:00:00Z'],
      [ids.completed, S.InTesting, S.Resulted, '2019-03-04T10:00:00Z'],
      [ids.completed, S.Resulted, S.Completed, '2019-03-05T10:00:00Z'],
      [ids.twoReceipts, S.PendingShipment, S.InQueue, '2019-03-02T08:00:00Z'],
      [ids.twoReceipts, S.InTransit, S.InQueue, '2019-03-01T08:00:00Z'],
      [ids.stored, S.InTransit, S.InQueue, '2019-03-02T09:00:00Z'],
      [ids.stored, S.InQueue, S.InStorage, '2019-03-03T09:00:00Z'],
      [ids.stored, S.InStorage, S.InQueue, '2019-03-04T09:00:00Z'],
      [ids.rejected, S.InTransit, S.Rejected, '2019-03-02T11:00:00Z'],
    ]);
  });

  after(async function () {
    try {
      await db?.close();
    } finally {
      await dropDatabase(ADMIN_URL, DB_NAME);
    }
  });

  it('fills the table from the samples already there', async function () {
    await createMigrator(db.sequelize).up({ to: STEPS_MIGRATION });
    const rows = await kept();
    expect(rows).to.deep.equal(await expected());
    const row = (id: number) => rows.find((r) => r.sample_id === String(id))!;
    // Worked out by hand: the first receipt counts; taking a sample out of storage is no receipt.
    expect(row(ids.twoReceipts)).to.include({ received_at: '2019-03-01T08:00:00.000Z', open: true });
    expect(row(ids.twoReceipts).test_names).to.deep.equal([TestName.ProstoxUltra]);
    expect(row(ids.completed)).to.include({ shipped_at: '2019-03-01T10:00:00.000Z', resulted_at: '2019-03-04T10:00:00.000Z', released_at: '2019-03-05T10:00:00.000Z', open: false });
    expect(row(ids.completed).test_names, 'DNA Extraction reports no result').to.deep.equal([TestName.ProstoxUltra]);
    expect(row(ids.stored)).to.include({ received_at: '2019-03-02T09:00:00.000Z', last_event_at: '2019-03-04T09:00:00.000Z', open: true });
    expect(row(ids.rejected)).to.include({ rejected_at: '2019-03-02T11:00:00.000Z', received_at: null, open: false });
  });

  it('keeps every row equal to its sample\'s events, tests and status through later writes', async function () {
    await createMigrator(db.sequelize).up();
    ids.fresh = await sample(clinic, S.OrderPlaced, [TestName.ProstoxUltra]);
    expect(await kept(), 'a new sample').to.deep.equal(await expected());

    await events([
      [ids.fresh, S.OrderPlaced, S.PendingShipment, '2019-04-01T08:00:00Z'],
      [ids.fresh, S.PendingShipment, S.InTransit, '2019-04-01T09:00:00Z'],
      [ids.twoReceipts, S.InTesting, S.Resulted, '2019-03-05T08:00:00Z'],
    ]);
    await db.models.Sample.update({ status: S.InTransit }, { where: { id: ids.fresh } });
    await db.models.Sample.update({ status: S.Resulted }, { where: { id: ids.twoReceipts } });
    expect(await kept(), 'events of two samples in one statement, and their statuses').to.deep.equal(await expected());

    await db.sequelize.query(`UPDATE sample_status_events SET created_at = created_at - interval '30 days' WHERE sample_id = :id`, { replacements: { id: ids.stored } });
    await db.sequelize.query(`DELETE FROM sample_status_events WHERE sample_id = :id AND to_status = :to`, { replacements: { id: ids.completed, to: S.Completed } });
    expect(await kept(), 'events re-dated and deleted').to.deep.equal(await expected());

    const order = await db.models.Sample.findByPk(ids.fresh);
    await db.models.Test.create({ orderId: order!.orderId, sampleId: ids.fresh, name: TestName.ProstoxCfrt, parentType: catalogueEntry(TestName.ProstoxCfrt).parentType });
    await db.sequelize.query(`UPDATE tests SET name = :name WHERE sample_id = :id`, { replacements: { id: ids.rejected, name: TestName.DnaExtraction } });
    await db.sequelize.query(`DELETE FROM tests WHERE sample_id = :id AND name = :name`, { replacements: { id: ids.completed, name: TestName.DnaExtraction } });
    await db.sequelize.query(`UPDATE tests SET status = status WHERE sample_id = :id`, { replacements: { id: ids.fresh } });
    expect(await kept(), 'tests added, renamed and removed').to.deep.equal(await expected());

    await db.models.Sample.update({ status: S.InStorage, statusBeforeStorage: S.InTesting }, { where: { id: ids.completed } });
    await db.models.Sample.update({ accountId: other.account.id }, { where: { id: ids.fresh } });
    expect(await kept(), 'a sample stored while in testing, another moved to another account').to.deep.equal(await expected());

    const rows = await kept();
    expect(rows.find((r) => r.sample_id === String(ids.fresh))!.test_names).to.deep.equal([TestName.ProstoxCfrt, TestName.ProstoxUltra]);
    expect(rows.find((r) => r.sample_id === String(ids.rejected))!.test_names).to.deep.equal([]);
  });

  it('goes with its sample', async function () {
    await db.sequelize.query('DELETE FROM sample_status_events WHERE sample_id = :id', { replacements: { id: ids.fresh } });
    await db.sequelize.query('DELETE FROM tests WHERE sample_id = :id', { replacements: { id: ids.fresh } });
    await db.sequelize.query('DELETE FROM samples WHERE id = :id', { replacements: { id: ids.fresh } });
    expect((await kept()).map((r) => r.sample_id)).not.to.include(String(ids.fresh));
    expect(await kept()).to.deep.equal(await expected());
  });
});
