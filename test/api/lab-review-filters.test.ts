/**
 * The review list's filters (barcode, import, plate, test, who entered it), approval from a
 * filtered view, and COVID-19 Rapid results entered on a plate like COVID-19 PCR results.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { expect } from 'chai';
import { TestName as T } from '@platform/domain';
import { storeFile } from '@platform/server';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { freshBarcode, makeResult, makeSample, SampleStatus, statusOf, TestName, userId } from '../support/fixtures/lab';

interface Row { id: number; barcode: string; test: string; enteredBy: { id: number }; importJobId: number | null; plate: { id: number } | null; canApprove: boolean; status: string }

describe('lab toolbox: review list filters and COVID-19 Rapid results', function () {
  this.timeout(60_000);
  let t: TestApp;
  let lab1: Session;
  let lab2: Session;
  let lab1Id: number;
  let lab2Id: number;

  before(async () => {
    t = await buildTestApp();
    lab1 = await signIn(t.app, 'lab1', 'lab');
    lab2 = await signIn(t.app, 'lab2', 'lab');
    lab1Id = await userId(t.ctx.db, 'lab1');
    lab2Id = await userId(t.ctx.db, 'lab2');
  });
  after(() => t.close());

  const list = async (who: Session, query: string): Promise<{ total: number; rows: Row[] }> => {
    const res = await who.agent.get(`/api/lab-toolbox/get-review-list?pageSize=200&${query}`).expect(200);
    return { total: Number(res.headers['x-total-count']), rows: res.body };
  };
  const ids = (rows: Row[]) => rows.map((r) => r.id).sort((a, b) => a - b);

  /** A committed import job, as the worker leaves one, and its file. */
  async function importJob(by: number): Promise<number> {
    const db = t.ctx.db;
    const fileId = await db.sequelize.transaction(async (transaction) =>
      (await storeFile(db, transaction, { kind: 'Order File', name: `plate-${freshBarcode().slice(-4)}.csv`, contentType: 'text/csv', content: Buffer.from('barcode,risk_level\n'), uploadedByUserId: by })).id,
    );
    const job = await db.models.Job.create({ name: 'lab-import', status: 'Completed', payload: { fileId, kind: 'cancer-toxicity', mode: 'commit' } as object, createdByUserId: by, finishedAt: new Date() });
    return job.id;
  }

  describe('filters', () => {
    let jobId: number;
    const r: Record<'a' | 'b' | 'c', { id: number; barcode: string }> = {} as never;

    before(async () => {
      const db = t.ctx.db;
      jobId = await importJob(lab1Id);
      const a = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
      const b = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
      const c = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.Kras] });
      const ra = await makeResult(db, a.testIds[0], 'High Risk', lab1Id);
      const rb = await makeResult(db, b.testIds[0], 'Low-Average Risk', lab2Id);
      await db.models.TestResult.update({ importJobId: jobId }, { where: { id: [ra.id, rb.id] } });
      const rc = await makeResult(db, c.testIds[0], 'T/T negative', lab1Id);
      Object.assign(r, { a: { id: ra.id, barcode: a.barcode }, b: { id: rb.id, barcode: b.barcode }, c: { id: rc.id, barcode: c.barcode } });
    });

    it('by barcode, whole or in part', async () => {
      const whole = await list(lab2, `barcode=${r.a.barcode}`);
      expect([whole.total, ids(whole.rows)]).to.deep.equal([1, [r.a.id]]);
      const part = await list(lab2, `barcode=${r.b.barcode.slice(-8)}`);
      expect(ids(part.rows)).to.deep.equal([r.b.id]);
      const none = await list(lab2, `barcode=${freshBarcode()}`);
      expect([none.total, none.rows]).to.deep.equal([0, []]);
    });

    it('by import, by who entered it, and both together', async () => {
      const byImport = await list(lab2, `jobId=${jobId}`);
      expect(ids(byImport.rows)).to.deep.equal([r.a.id, r.b.id].sort((x, y) => x - y));
      expect(byImport.total).to.equal(2);
      const mine = await list(lab2, `jobId=${jobId}&enteredBy=${lab1Id}`);
      expect(ids(mine.rows)).to.deep.equal([r.a.id]);
      const byUser = await list(lab2, `enteredBy=${lab2Id}`);
      expect(byUser.rows.every((x) => x.enteredBy.id === lab2Id)).to.equal(true);
      // Each sample looked at alone (the list is oldest first: other tests' rows may fill a page).
      expect(ids((await list(lab2, `enteredBy=${lab2Id}&barcode=${r.b.barcode}`)).rows)).to.deep.equal([r.b.id]);
      expect((await list(lab2, `enteredBy=${lab2Id}&barcode=${r.a.barcode}`)).rows).to.deep.equal([]);
    });

    it('by test, alone and with an approval group (a test outside the group finds nothing)', async () => {
      const kras = await list(lab2, `test=${encodeURIComponent(T.Kras)}&enteredBy=${lab1Id}`);
      expect(kras.rows.every((x) => x.test === 'KRAS' && x.enteredBy.id === lab1Id)).to.equal(true);
      expect(ids((await list(lab2, `test=${encodeURIComponent(T.Kras)}&enteredBy=${lab1Id}&barcode=${r.c.barcode}`)).rows)).to.deep.equal([r.c.id]);
      const inGroup = await list(lab2, `group=cancer&test=${encodeURIComponent(T.Kras)}&barcode=${r.c.barcode}`);
      expect(ids(inGroup.rows)).to.deep.equal([r.c.id]);
      const outside = await list(lab2, `group=cfrt-toxicity&test=${encodeURIComponent(T.Kras)}`);
      expect([outside.total, outside.rows]).to.deep.equal([0, []]);
    });

    it('empty filters are no filters; bad ones are a 400 naming the field', async () => {
      const empty = await list(lab2, 'barcode=&test=&enteredBy=&jobId=&plateId=&group=');
      const unfiltered = await list(lab2, '');
      expect([empty.total, ids(empty.rows)]).to.deep.equal([unfiltered.total, ids(unfiltered.rows)]);
      expect(empty.total).to.be.at.least(3);
      for (const [query, field] of [['test=Nope', 'test'], ['enteredBy=abc', 'enteredBy'], [`barcode=${'4'.repeat(65)}`, 'barcode'], ['plateId=-1', 'plateId'], ['who=me', 'who']]) {
        const res = await lab2.agent.get(`/api/lab-toolbox/get-review-list?${query}`).expect(400);
        expect(res.body.error.fields[0].field, query).to.equal(field);
      }
    });

    it('approving from a filtered view releases what is shown and nothing else', async () => {
      const shown = await list(lab2, `jobId=${jobId}&enteredBy=${lab1Id}`);
      const approvable = shown.rows.filter((x) => x.canApprove).map((x) => x.id);
      expect(approvable).to.deep.equal([r.a.id]);
      await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: approvable }).expect(200);
      const after = await list(lab2, `jobId=${jobId}`);
      expect(ids(after.rows), 'the rest of the import still waits').to.deep.equal([r.b.id]);
      expect((await t.ctx.db.models.TestResult.findByPk(r.a.id))!.status).to.equal('Released');
      // lab2 entered b: lab1 approves it from the same import's view.
      const lab1View = await list(lab1, `jobId=${jobId}`);
      expect(lab1View.rows.map((x) => [x.id, x.canApprove])).to.deep.equal([[r.b.id, true]]);
      await lab1.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [r.b.id] }).expect(200);
      expect((await list(lab2, `jobId=${jobId}`)).total).to.equal(0);
    });
  });

  describe('COVID-19 Rapid, entered like COVID-19 PCR', () => {
    async function labSample(test: string, sampleType = 'Nasal Cavity') {
      const barcode = freshBarcode();
      const res = await lab1.post('/api/lab-toolbox/samples/create', {
        barcode, test, sampleType, patient: { firstName: 'Rae', lastName: 'Swab', dateOfBirth: '1985-04-05' },
      }).expect(201);
      expect(res.body).to.include({ test, status: 'In Queue' });
      return { id: res.body.sampleId as number, barcode };
    }

    it('a Rapid sample is registered by the lab, queued, put on a plate beside PCR samples, resulted, filtered by plate and test, and released by the COVID approval', async () => {
      const rapid = await labSample('COVID-19 Rapid');
      const pcr = await labSample('COVID-19 PCR', 'Saliva');
      const queue = await lab1.agent.get('/api/lab-toolbox/pcr/queue?pageSize=200').expect(200);
      const queued = queue.body.filter((q: { sampleId: number }) => [rapid.id, pcr.id].includes(q.sampleId));
      expect(queued.map((q: { sampleId: number; test: string }) => [q.sampleId, q.test])).to.have.deep.members([[rapid.id, 'COVID-19 Rapid'], [pcr.id, 'COVID-19 PCR']]);

      const plate = await lab1.post('/api/lab-toolbox/pcr/plates', {
        name: `Rapid run ${freshBarcode().slice(-6)}`,
        wells: [{ well: 'A1', barcode: 'POS PCR CTRL' }, { well: 'B1', barcode: 'NEG PCR CTRL' }, { well: 'C1', barcode: rapid.barcode }, { well: 'D1', barcode: pcr.barcode }],
      }).expect(201);
      expect(await statusOf(t.ctx.db, rapid.id)).to.equal('In Testing');
      await lab1.post(`/api/lab-toolbox/pcr/plates/${plate.body.id}/results`, {
        results: [{ well: 'A1', result: 'DETECTED' }, { well: 'B1', result: 'NOT DETECTED' }, { well: 'C1', result: 'DETECTED' }, { well: 'D1', result: 'NOT DETECTED' }],
      }).expect(200);

      const onPlate = await list(lab2, `plateId=${plate.body.id}`);
      expect(onPlate.rows.map((x) => x.test).sort()).to.deep.equal(['COVID-19 PCR', 'COVID-19 Rapid']);
      const rapidOnly = await list(lab2, `plateId=${plate.body.id}&test=${encodeURIComponent('COVID-19 Rapid')}`);
      expect(rapidOnly.rows).to.have.length(1);
      expect(rapidOnly.rows[0]).to.deep.include({ barcode: rapid.barcode, canApprove: true });
      const rapidResult = await t.ctx.db.models.TestResult.findByPk(rapidOnly.rows[0].id);
      expect([rapidResult!.value, rapidResult!.scale, rapidResult!.enteredByUserId]).to.deep.equal(['DETECTED', 'covid', lab1Id]);

      const wrong = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [rapidOnly.rows[0].id] }).expect(400);
      expect(wrong.body.error.message).to.match(/is a COVID-19 Rapid result: approve it with approve-tests-covid-pcr$/);
      await lab2.post('/api/lab-toolbox/approve-tests-covid-pcr', { password: DEMO_PASSWORD, resultIds: [rapidOnly.rows[0].id] }).expect(200);
      expect(await statusOf(t.ctx.db, rapid.id)).to.equal('Resulted');
      expect(await statusOf(t.ctx.db, pcr.id), 'the PCR sample was not shown, so not released').to.equal('In Testing');
      const outbox = await t.ctx.db.models.Outbox.findAll({ where: { idempotencyKey: [`lab-report:${rapidOnly.rows[0].id}`, `notify-result:${rapidOnly.rows[0].id}`] } });
      expect(outbox).to.have.length(2);
    });

    it('a plate refuses a sample with neither COVID test, naming both', async () => {
      const tox = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
      const res = await lab1.post('/api/lab-toolbox/pcr/plates', {
        name: `Mixed ${freshBarcode().slice(-6)}`,
        wells: [{ well: 'A1', barcode: 'POS PCR CTRL' }, { well: 'B1', barcode: 'NEG PCR CTRL' }, { well: 'C1', barcode: tox.barcode }],
      }).expect(400);
      expect(res.body.error.fields[0].message).to.equal(`C1: sample ${tox.barcode} has no COVID-19 PCR or COVID-19 Rapid test (its tests: PROSTOX ultra)`);
    });
  });
});
