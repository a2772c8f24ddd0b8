/**
 * Worklists (issue 30, part 5): the lab's worklist (open tests oldest receipt first, past-target
 * marked by turnaround's rule), the clinic's result lists searched by patient name, barcode or order
 * id (its own account's samples only), and the clinic home's counts.
 */
import { expect } from 'chai';
import { PatientReleasePolicy, PaymentStatus, Portal, SampleStatus, TestOrigin, type TestName } from '@platform/domain';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { createClinic, createResult, signInAs, type Clinic } from '../support/fixtures/reports';

const S = SampleStatus;
const HOUR = 3_600_000;

describe('worklists (API)', function () {
  this.timeout(60_000);
  let t: TestApp;
  let lab: Session;
  let admin: Session;

  before(async () => {
    t = await buildTestApp();
    lab = await signIn(t.app, 'lab1', 'lab', '10.31.5.1');
    admin = await signIn(t.app, 'admin', 'admin', '10.31.5.2');
  });
  after(async () => {
    await t?.ctx.db.sequelize.query(`DELETE FROM turnaround_targets WHERE test_name = 'PREVIOTOX'`);
    await t?.close();
  });

  describe('the lab\'s worklist', () => {
    let clinic: Clinic;
    const barcodes: Record<string, string> = {};

    /** A sample of the clinic for `test`, now in `status`, received at `receivedAt` (its status events). */
    async function openSample(key: string, test: TestName, status: SampleStatus, receivedAt: Date, extra: { statusBeforeStorage?: SampleStatus } = {}) {
      const m = t.ctx.db.models;
      const stored = extra.statusBeforeStorage;
      const f = await createResult(t.ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, testName: test, resultStatus: null, sampleStatus: stored ?? status });
      // A stored sample names the status it left (the table holds the two together).
      if (stored) await m.Sample.update({ status, statusBeforeStorage: stored }, { where: { id: f.sampleId } });
      const events: [SampleStatus, SampleStatus, Date][] = [[S.InTransit, S.InQueue, receivedAt]];
      if (status !== S.InQueue) events.push([S.InQueue, S.InTesting, new Date(receivedAt.getTime() + HOUR)]);
      if (status === S.InStorage) events.push([S.InTesting, S.InStorage, new Date(receivedAt.getTime() + 2 * HOUR)]);
      for (const [from, to, when] of events) {
        await t.ctx.db.sequelize.query(
          `INSERT INTO sample_status_events (sample_id, from_status, to_status, actor_kind, created_at) VALUES (:id, :from, :to, 'lab', :when)`,
          { replacements: { id: f.sampleId, from, to, when } },
        );
      }
      barcodes[key] = f.barcode;
    }

    before(async () => {
      clinic = await createClinic(t.ctx.db, 'worklist');
      // PREVIOTOX: a target of 90 days. A and B were received long ago (past it), C a day ago (within it).
      await admin.put('/api/admin/turnaround/targets', { testName: 'PREVIOTOX', amount: 90, unit: 'days' }).expect(200);
      await openSample('C', 'PREVIOTOX', S.InQueue, new Date(Date.now() - 24 * HOUR));
      await openSample('A', 'PREVIOTOX', S.InQueue, new Date('2000-01-01T08:00:00Z'));
      await openSample('B', 'PREVIOTOX', S.InStorage, new Date('2000-01-02T08:00:00Z'), { statusBeforeStorage: S.InTesting });
      // KRAS has no target: never past it, however old.
      await openSample('K', 'KRAS', S.InTesting, new Date('2000-01-03T08:00:00Z'));
      // Resulted: not on the worklist.
      await openSample('R', 'PREVIOTOX', S.Resulted, new Date('2000-01-01T09:00:00Z'));
    });

    type Row = { barcode: string; testName: string; status: string; workStatus: string; receivedAt: string; targetHours: number | null; pastTarget: boolean; patient: string; accountName: string };
    const mine = (rows: Row[]) => rows.filter((r) => Object.values(barcodes).includes(r.barcode));
    const keyOf = (barcode: string) => Object.entries(barcodes).find(([, b]) => b === barcode)![0];

    it('lists a test\'s open samples oldest receipt first, past-target ones marked (stored ones by the status they left)', async () => {
      const res = await lab.agent.get('/api/lab-toolbox/worklist?test=PREVIOTOX&pageSize=200').expect(200);
      const rows = res.body as Row[];
      expect(Number(res.headers['x-total-count'])).to.be.at.least(3);
      // The whole page is oldest first.
      const times = rows.map((r) => Date.parse(r.receivedAt));
      expect(times).to.deep.equal([...times].sort((a, b) => a - b));
      expect(rows.every((r) => r.testName === 'PREVIOTOX')).to.equal(true);
      expect(mine(rows).map((r) => [keyOf(r.barcode), r.workStatus, r.pastTarget, r.targetHours])).to.deep.equal([
        ['A', S.InQueue, true, 2160],
        ['B', S.InTesting, true, 2160],
        ['C', S.InQueue, false, 2160],
      ]);
      const b = mine(rows).find((r) => keyOf(r.barcode) === 'B')!;
      expect(b.status).to.equal('In Storage (In Testing when taken out)');
      expect(b.accountName).to.equal(clinic.account.name);
      expect(b.patient).to.match(/^Walter Q\.$/);
    });

    it('a test with no target marks nothing; a status filter keeps only that status; resulted samples are not listed', async () => {
      const kras = (await lab.agent.get('/api/lab-toolbox/worklist?test=KRAS&pageSize=200').expect(200)).body as Row[];
      expect(mine(kras).map((r) => [keyOf(r.barcode), r.pastTarget, r.targetHours])).to.deep.equal([['K', false, null]]);
      const testing = (await lab.agent.get(`/api/lab-toolbox/worklist?status=${encodeURIComponent(S.InTesting)}&pageSize=200`).expect(200)).body as Row[];
      expect(mine(testing).map((r) => keyOf(r.barcode))).to.deep.equal(['B', 'K']);
      const all = (await lab.agent.get('/api/lab-toolbox/worklist?pageSize=200').expect(200)).body as Row[];
      expect(mine(all).map((r) => keyOf(r.barcode))).to.not.include('R');
    });

    it('counts per test agree with the list (turnaround\'s rule, read once)', async () => {
      const tests = (await lab.agent.get('/api/lab-toolbox/worklist/tests').expect(200)).body as { testName: string; targetHours: number | null; open: number; openPastTarget: number }[];
      const previotox = tests.find((x) => x.testName === 'PREVIOTOX')!;
      const rows = (await lab.agent.get('/api/lab-toolbox/worklist?test=PREVIOTOX&pageSize=200').expect(200)).body as Row[];
      expect(previotox).to.deep.equal({ testName: 'PREVIOTOX', targetHours: 2160, open: rows.length, openPastTarget: rows.filter((r) => r.pastTarget).length });
    });

    it('is the lab\'s only; a bad filter is a 400 naming it', async () => {
      const provider = await signInAs(t.app, clinic.email, 'provider', '10.31.5.3');
      await provider.agent.get('/api/lab-toolbox/worklist').expect(403);
      await provider.agent.get('/api/lab-toolbox/worklist/tests').expect(403);
      const res = await lab.agent.get('/api/lab-toolbox/worklist?test=Nothing').expect(400);
      expect(res.body.error.fields.map((f: { field: string }) => f.field)).to.deep.equal(['test']);
      const status = await lab.agent.get('/api/lab-toolbox/worklist?status=Completed').expect(400);
      expect(status.body.error.fields[0]).to.include({ field: 'status' });
    });
  });

  describe('the clinic\'s lists searched', () => {
    let mineClinic: Clinic;
    let other: Clinic;
    let provider: Session;
    let done: Awaited<ReturnType<typeof createResult>>;
    let pending: Awaited<ReturnType<typeof createResult>>;
    let theirs: Awaited<ReturnType<typeof createResult>>;

    before(async () => {
      mineClinic = await createClinic(t.ctx.db, 'search');
      other = await createClinic(t.ctx.db, 'search-other');
      provider = await signInAs(t.app, mineClinic.email, 'provider', '10.31.5.4');
      done = await createResult(t.ctx.db, { accountId: mineClinic.account.id, physicianId: mineClinic.physician.id, sampleStatus: S.Completed });
      pending = await createResult(t.ctx.db, { accountId: mineClinic.account.id, physicianId: mineClinic.physician.id, resultStatus: null, sampleStatus: S.InQueue });
      // Another clinic's patient of the same first name: never in this clinic's searches.
      theirs = await createResult(t.ctx.db, { accountId: other.account.id, physicianId: other.physician.id, sampleStatus: S.Completed });
    });

    const search = (body: Record<string, unknown>, accountId = mineClinic.account.id) => provider.post(`/api/provider-clinic/${accountId}/tests/search`, body);
    const barcodesOf = (res: { body: { rows: { barcode: string }[] } }) => res.body.rows.map((r) => r.barcode);

    it('finds the account\'s samples by patient name, barcode or order id, in the list asked', async () => {
      const byName = await search({ category: 'COMPLETED', q: done.patient.lastName }).expect(200);
      expect(barcodesOf(byName)).to.deep.equal([done.barcode]);
      expect(byName.body.total).to.equal(1);
      expect(byName.headers['x-total-count']).to.equal('1');
      // Words of the name in any order, as the patient search reads them.
      expect(barcodesOf(await search({ category: 'COMPLETED', q: `${done.patient.lastName}, walter` }).expect(200))).to.deep.equal([done.barcode]);
      expect(barcodesOf(await search({ category: 'COMPLETED', q: done.barcode.slice(-8) }).expect(200))).to.deep.equal([done.barcode]);
      const order = await t.ctx.db.models.Sample.findByPk(pending.sampleId, { include: [{ model: t.ctx.db.models.Order, as: 'order' }] });
      expect(barcodesOf(await search({ category: 'PENDING', q: order!.order!.orderNumber }).expect(200))).to.deep.equal([pending.barcode]);
      // The pending sample is not in the Completed list, whatever the search.
      expect(barcodesOf(await search({ category: 'COMPLETED', q: pending.patient.lastName }).expect(200))).to.deep.equal([]);
    });

    it('never answers another account\'s sample: its barcode finds nothing here, and its account is a 404', async () => {
      const res = await search({ category: 'COMPLETED', q: theirs.barcode }).expect(200);
      expect(res.body).to.deep.equal({ rows: [], total: 0 });
      const walters = await search({ category: 'COMPLETED', q: 'Walter', pageSize: 200 }).expect(200);
      expect(barcodesOf(walters)).to.include(done.barcode).and.not.include(theirs.barcode);
      await search({ category: 'COMPLETED', q: theirs.barcode }, other.account.id).expect(404);
    });

    it('checks the search: too short, odd characters or missing is a 400 naming q; the audit keeps no words', async () => {
      for (const q of ['a', '  b ', "<script>", 'x'.repeat(101)]) {
        const res = await search({ category: 'COMPLETED', q }).expect(400);
        expect(res.body.error.fields.map((f: { field: string }) => f.field), q).to.deep.equal(['q']);
      }
      expect((await search({ category: 'COMPLETED' }).expect(400)).body.error.fields[0]).to.include({ field: 'q' });
      await search({ category: 'COMPLETED', q: done.patient.lastName }).expect(200);
      const [audit] = await t.ctx.db.sequelize.query<{ details: Record<string, unknown> }>(
        `SELECT details FROM audit_events WHERE action = 'samples.listed' AND actor_user_id = :userId ORDER BY id DESC LIMIT 1`,
        { replacements: { userId: mineClinic.userId }, type: 'SELECT' as never },
      );
      expect(audit.details).to.include({ searched: true, total: 1 });
      expect(JSON.stringify(audit.details)).to.not.include(done.patient.lastName);
    });
  });

  describe('what needs the clinic', () => {
    let clinic: Clinic;
    let provider: Session;

    before(async () => {
      clinic = await createClinic(t.ctx.db, 'needs');
      provider = await signInAs(t.app, clinic.email, 'provider', '10.31.5.5');
    });

    it('counts results to review, orders awaiting sign-off, kits to ship and the lab\'s unanswered questions: its own account only', async () => {
      const db = t.ctx.db;
      const base = { accountId: clinic.account.id, physicianId: clinic.physician.id };
      const empty = await provider.agent.get(`/api/provider-clinic/${clinic.account.id}/needs`).expect(200);
      expect(empty.body).to.deep.equal({ resultsToReview: 0, ordersAwaitingSignOff: 0, kitsToShip: 0, labQuestions: 0, labQuestionSamples: [] });

      // A released result held for the clinic's review, and one the clinic already reviewed.
      const held = await createResult(db, { ...base, sampleStatus: S.Completed });
      const reviewed = await createResult(db, { ...base, sampleStatus: S.Completed });
      const hold = `INSERT INTO patient_result_releases (test_result_id, sample_id, policy, held_at, release_due_at, reviewed_at, reviewed_by_user_id)
                    VALUES (:resultId, :sampleId, :policy, now(), now() + interval '3 days', :reviewedAt, :reviewer)`;
      await db.sequelize.query(hold, { replacements: { resultId: held.resultId, sampleId: held.sampleId, policy: PatientReleasePolicy.ClinicFirst, reviewedAt: null, reviewer: null } });
      await db.sequelize.query(hold, { replacements: { resultId: reviewed.resultId, sampleId: reviewed.sampleId, policy: PatientReleasePolicy.ClinicFirst, reviewedAt: new Date(), reviewer: clinic.userId } });
      // Two kits at the clinic; one in transit is not.
      await createResult(db, { ...base, resultStatus: null, sampleStatus: S.OrderPlaced });
      await createResult(db, { ...base, resultStatus: null, sampleStatus: S.PendingShipment });
      await createResult(db, { ...base, resultStatus: null, sampleStatus: S.InTransit });
      // A patient's own order, paid, not signed off; another signed off.
      for (const signedOffAt of [null, new Date()]) {
        const f = await createResult(db, { ...base, resultStatus: null, sampleStatus: S.InQueue });
        const sample = await db.models.Sample.findByPk(f.sampleId);
        await db.models.Order.update(
          { origin: TestOrigin.PatientOrdered, portal: Portal.Patient, paymentStatus: PaymentStatus.Paid, signedOffAt },
          { where: { id: sample!.orderId } },
        );
      }
      // The lab asks a patient a question; the clinic asks one too (not the lab's).
      const asked = await createResult(db, { ...base, sampleStatus: S.Completed });
      await lab.post('/api/lab-toolbox/sample-follow-up', { sampleId: asked.sampleId, question: 'Did you eat within 30 minutes of the swab?' }).expect(201);
      await provider.post(`/api/provider-clinic/${clinic.account.id}/sample-follow-up`, { sampleId: asked.sampleId, question: 'Any new symptoms since?' }).expect(201);
      // Another clinic's kit and held result: not counted here.
      const other = await createClinic(db, 'needs-other');
      await createResult(db, { accountId: other.account.id, physicianId: other.physician.id, resultStatus: null, sampleStatus: S.OrderPlaced });

      const res = await provider.agent.get(`/api/provider-clinic/${clinic.account.id}/needs`).expect(200);
      expect(res.body).to.deep.include({ resultsToReview: 1, ordersAwaitingSignOff: 1, kitsToShip: 2, labQuestions: 1 });
      expect(res.body.labQuestionSamples.map((q: { barcode: string; patientId: number }) => [q.barcode, q.patientId])).to.deep.equal([[asked.barcode, asked.patientId]]);
      await provider.agent.get(`/api/provider-clinic/${other.account.id}/needs`).expect(404);
      await lab.agent.get(`/api/provider-clinic/${clinic.account.id}/needs`).expect(403);
    });
  });
});
