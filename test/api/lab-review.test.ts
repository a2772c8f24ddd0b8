/**
 * Review, approval, rejection and correction of results, and the COVID-19 PCR plates: the
 * second-person rule, the sample's status after each decision, the jobs queued on release, and
 * a plate whose controls failed that cannot be released.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { expect } from 'chai';
import { SELF_APPROVAL_MESSAGE } from '@platform/domain';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { freshBarcode, makeResult, makeSample, SampleStatus, statusOf, TestName, TestResultStatus, timeline, userId } from '../support/fixtures/lab';

describe('lab toolbox: review, approval, rejection, correction', function () {
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

  const outboxKeys = async (resultId: number) =>
    (await t.ctx.db.models.Outbox.findAll({ where: { idempotencyKey: [`lab-report:${resultId}`, `notify-result:${resultId}`] } })).map((o) => o.idempotencyKey).sort();

  it('rejection for a retest: the version is Rejected with the reason and reviewer, the sample stays In Testing and can be resulted again', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    const r = await makeResult(t.ctx.db, s.testIds[0], 'High Risk', lab1Id);
    const res = await lab2.post('/api/lab-toolbox/import-tests-reject', { resultIds: [r.id], reason: 'Curve looks off: rerun', sampleOutcome: 'retest' }).expect(200);
    expect(res.body.rejected).to.deep.equal([{ resultId: r.id, barcode: s.barcode, test: 'PROSTOX ultra', sampleStatus: 'In Testing' }]);
    await r.reload();
    expect([r.status, r.reviewNote, r.reviewedByUserId]).to.deep.equal(['Rejected', 'Curve looks off: rerun', lab2Id]);
    expect(await statusOf(t.ctx.db, s.id)).to.equal('In Testing');
    const again = await lab2.post('/api/lab-toolbox/import-tests-reject', { resultIds: [r.id], reason: 'x', sampleOutcome: 'retest' }).expect(409);
    expect(again.body.error.message).to.equal(`Result ${r.id} (${s.barcode}) is Rejected: only results in review can be rejected`);
    // A new version can follow, and be approved.
    const v2 = await makeResult(t.ctx.db, s.testIds[0], 'Intermediate Risk', lab1Id, { version: 2 });
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [v2.id] }).expect(200);
    expect(await statusOf(t.ctx.db, s.id)).to.equal('Resulted');
  });

  it('rejection of the sample: the sample is Rejected with the spec reason; the reason is required', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.Kras] });
    const r = await makeResult(t.ctx.db, s.testIds[0], 'T/T negative', lab1Id);
    const missing = await lab2.post('/api/lab-toolbox/import-tests-reject', { resultIds: [r.id], reason: 'No DNA', sampleOutcome: 'reject-sample' }).expect(400);
    expect(missing.body.error.message).to.equal('Sample rejection reason is required to reject the sample');
    await lab2.post('/api/lab-toolbox/import-tests-reject', { resultIds: [r.id], reason: 'No DNA', sampleOutcome: 'reject-sample', rejectionReason: 'Rejected - quantity not sufficient' }).expect(200);
    const sample = (await t.ctx.db.models.Sample.findByPk(s.id))!;
    expect([sample.status, sample.rejectionReason]).to.deep.equal(['Rejected', 'Rejected - quantity not sufficient']);
    expect((await timeline(t.ctx.db, s.id)).at(-1)).to.equal('Rejected');
    await r.reload();
    expect(r.status).to.equal('Rejected');
  });

  it('a user may withdraw their own entry (no reviewer recorded), but never approve it', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxCfrt] });
    const r = await makeResult(t.ctx.db, s.testIds[0], 'Low Risk', lab1Id);
    const self = await lab1.post('/api/lab-toolbox/approve-tests-cfrt-toxicity', { password: DEMO_PASSWORD, resultIds: [r.id] }).expect(403);
    expect(self.body.error.message).to.equal(SELF_APPROVAL_MESSAGE);
    await r.reload();
    expect(r.status).to.equal('In Review');
    await lab1.post('/api/lab-toolbox/import-tests-reject', { resultIds: [r.id], reason: 'Typed the wrong level', sampleOutcome: 'retest' }).expect(200);
    await r.reload();
    expect([r.status, r.reviewedByUserId]).to.deep.equal(['Rejected', null]);
  });

  it('approval is all or nothing: one bad result in the batch leaves every result in review', async () => {
    const a = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
    const b = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
    const ra = await makeResult(t.ctx.db, a.testIds[0], 'High Risk', lab1Id);
    const rb = await makeResult(t.ctx.db, b.testIds[0], 'High Risk', lab2Id);
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [ra.id, rb.id] }).expect(403);
    await ra.reload();
    expect(ra.status).to.equal('In Review');
    expect(await statusOf(t.ctx.db, a.id)).to.equal('In Testing');
    expect(await outboxKeys(ra.id)).to.deep.equal([]);
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [ra.id, 999999999] }).expect(404);
  });

  it('a correction after release is a new version with its reason; its approval supersedes the released one, keeps the status and queues a new report', async () => {
    const db = t.ctx.db;
    const s = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    const v1 = await makeResult(db, s.testIds[0], 'Low-Average Risk', lab1Id);
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [v1.id] }).expect(200);
    expect(await statusOf(db, s.id)).to.equal('Resulted');
    const eventsAfterRelease = await timeline(db, s.id);

    const noReason = await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: s.barcode, value: 'High Risk' }).expect(400);
    expect(noReason.body.error.fields[0].field).to.equal('reason');
    const same = await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: s.barcode, value: 'Low-Average Risk', reason: 'x' }).expect(400);
    expect(same.body.error.message).to.equal('The released PROSTOX ultra result is already Low-Average Risk');
    const invalid = await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: s.barcode, value: 'T/T negative', reason: 'x' }).expect(400);
    expect(invalid.body.error.message).to.match(/^"T\/T negative" is not a result of PROSTOX ultra \(use one of: Low-Average Risk/);

    const corrected = await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: s.barcode, value: 'High Risk', reason: 'Sample swap found on plate 12' }).expect(201);
    expect(corrected.body).to.include({ version: 2, value: 'High Risk', releasedValue: 'Low-Average Risk', status: 'In Review' });
    const v2 = (await db.models.TestResult.findByPk(corrected.body.resultId))!;
    expect([v2.correctionReason, v2.enteredByUserId, v2.scale]).to.deep.equal(['Sample swap found on plate 12', lab1Id, 'risk4']);
    const twice = await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: s.barcode, value: 'Very High Risk', reason: 'again' }).expect(409);
    expect(twice.body.error.message).to.equal(`Sample ${s.barcode} already has a PROSTOX ultra result waiting for review`);

    // Narrowed to this sample: the list is oldest first, and other tests' results may fill page 1.
    const list = await lab2.agent.get(`/api/lab-toolbox/get-review-list?group=cancer&barcode=${s.barcode}`).expect(200);
    const row = list.body.find((r: { id: number }) => r.id === v2.id);
    expect(row).to.deep.include({ correctionReason: 'Sample swap found on plate 12', releasedValue: 'Low-Average Risk', canApprove: true });

    await lab1.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [v2.id] }).expect(403);
    const ok = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [v2.id] }).expect(200);
    expect(ok.body.approved[0]).to.include({ correction: true, sampleStatus: 'Resulted' });
    await v1.reload();
    await v2.reload();
    expect([v1.status, v2.status]).to.deep.equal(['Superseded', 'Released']);
    expect(await timeline(db, s.id)).to.deep.equal(eventsAfterRelease);
    expect(await outboxKeys(v2.id)).to.deep.equal([`lab-report:${v2.id}`, `notify-result:${v2.id}`]);
    expect(await outboxKeys(v1.id)).to.deep.equal([`lab-report:${v1.id}`, `notify-result:${v1.id}`]);

    const released = await lab1.agent.get(`/api/lab-toolbox/get-cancer-toxicity-results?barcode=${s.barcode}`).expect(200);
    expect(released.headers['x-total-count']).to.equal('1');
    expect(released.body[0]).to.deep.include({ id: v2.id, value: 'High Risk', version: 2, correctionReason: 'Sample swap found on plate 12' });
    expect(released.body[0].releasedBy.name).to.equal('Lena Pipette');
  });

  it('a correction needs a released result', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
    const res = await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: s.barcode, value: 'High Risk', reason: 'x' }).expect(409);
    expect(res.body.error.message).to.equal(`Sample ${s.barcode} has no released result to correct`);
    await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: freshBarcode(), value: 'High Risk', reason: 'x' }).expect(404);
  });

  it('the review list is paginated with x-total-count and filters by approval group', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxCfrt] });
    const r = await makeResult(t.ctx.db, s.testIds[0], 'Very High Risk', lab1Id);
    const page = await lab2.agent.get('/api/lab-toolbox/get-review-list?group=cfrt-toxicity&pageSize=1').expect(200);
    expect(Number(page.headers['x-total-count'])).to.be.greaterThan(0);
    expect(page.body).to.have.length(1);
    const all = await lab2.agent.get(`/api/lab-toolbox/get-review-list?group=cfrt-toxicity&pageSize=200`).expect(200);
    expect(all.body.every((x: { test: string }) => x.test === 'PROSTOX CFRT')).to.equal(true);
    const mine = (await lab2.agent.get(`/api/lab-toolbox/get-review-list?group=cfrt-toxicity&barcode=${s.barcode}`).expect(200)).body.find((x: { id: number }) => x.id === r.id);
    expect(mine).to.deep.include({ barcode: s.barcode, value: 'Very High Risk', enteredBy: { id: lab1Id, name: 'Leo Bench' }, importFile: null, plate: null });
    expect(mine.interpretation).to.match(/very high genetic risk/);
    await lab2.agent.get('/api/lab-toolbox/get-review-list?pageSize=201').expect(400);
    await lab2.agent.get('/api/lab-toolbox/get-review-list?group=everything').expect(400);
  });

  describe('COVID-19 PCR plates', () => {
    async function covidSample(): Promise<{ id: number; barcode: string }> {
      const barcode = freshBarcode();
      const res = await lab1.post('/api/lab-toolbox/samples/create', {
        barcode, sampleType: 'Saliva', patient: { firstName: 'Pat', lastName: 'Swab', dateOfBirth: '1990-01-01' },
      }).expect(201);
      return { id: res.body.sampleId, barcode };
    }
    const plateName = () => `Run ${freshBarcode().slice(-6)}`;

    it('two or more plates registered at the same moment with the same name: exactly one 201, the rest 409 naming the name, never a 500', async () => {
      const N = 5;
      const expectOneWinner = (answers: { status: number; body: { error?: { fields?: { field: string; message: string }[] } } }[], name: string) => {
        expect(answers.map((a) => a.status).sort()).to.deep.equal([201, ...Array(N - 1).fill(409)]);
        for (const a of answers.filter((x) => x.status === 409)) {
          expect(a.body.error!.fields).to.have.length(1);
          expect(a.body.error!.fields![0].field).to.equal('name');
          expect(a.body.error!.fields![0].message).to.match(new RegExp(`^A plate named ${name} already exists`));
        }
      };
      // N identical requests (the same samples: the later ones wait for the first one's locks).
      const same = await covidSample();
      const name = plateName();
      const body = { name, wells: [{ well: 'A1', barcode: 'POS PCR CTRL' }, { well: 'B1', barcode: 'NEG PCR CTRL' }, { well: 'C1', barcode: same.barcode }] };
      expectOneWinner(await Promise.all(Array.from({ length: N }, () => lab1.post('/api/lab-toolbox/pcr/plates', body))), name);
      expect(await t.ctx.db.models.PcrPlate.count({ where: { name } })).to.equal(1);

      // The same name with different samples (nothing shared to wait for: the unique index decides).
      const samples = await Promise.all(Array.from({ length: N }, () => covidSample()));
      const other = plateName();
      const answers = await Promise.all(samples.map((s) => lab1.post('/api/lab-toolbox/pcr/plates', {
        name: other, wells: [{ well: 'A1', barcode: 'POS PCR CTRL' }, { well: 'B1', barcode: 'NEG PCR CTRL' }, { well: 'C1', barcode: s.barcode }],
      })));
      expectOneWinner(answers, other);
      expect(await t.ctx.db.models.PcrPlate.count({ where: { name: other } })).to.equal(1);
      // The losers changed nothing: their samples are still In Queue.
      const moved = await Promise.all(samples.map((s) => statusOf(t.ctx.db, s.id)));
      expect(moved.filter((x) => x === 'In Testing')).to.have.length(1);
      expect(moved.filter((x) => x === 'In Queue')).to.have.length(N - 1);
    });

    it('each well carries the test its sample is for (COVID-19 PCR or Rapid, any account, a re-extraction too; none for a control), read in one query of the wells', async () => {
      const pcr = await covidSample(); // lab-ordered, no account
      const rapid = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.CovidRapid] }); // a clinic's sample
      const rerun = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.CovidRapid] });
      const reg = await lab1.post('/api/lab-toolbox/pcr/plates', {
        name: plateName(),
        wells: [
          { well: 'A1', barcode: 'POS PCR CTRL' },
          { well: 'B1', barcode: 'NEG PCR CTRL' },
          { well: 'C1', barcode: rapid.barcode },
          { well: 'D1', barcode: pcr.barcode },
          { well: 'E1', barcode: `${rerun.barcode}.reex` },
        ],
      }).expect(201);
      const tests = (body: { wells: { well: string; test: string | null }[] }) => body.wells.map((w) => `${w.well}:${w.test}`);
      const expected = ['A1:null', 'B1:null', 'C1:COVID-19 Rapid', 'D1:COVID-19 PCR', 'E1:COVID-19 Rapid'];
      expect(tests(reg.body)).to.deep.equal(expected);

      // The plate page's answer: the tests come with the wells (joined), not one query per well.
      const wellQueries: string[] = [];
      const hook = (_options: unknown, query: { sql?: string }) => {
        const sql = String(query.sql ?? '');
        if (/pcr_plate_wells|"tests"/.test(sql)) wellQueries.push(sql);
      };
      t.ctx.db.sequelize.addHook('afterQuery', 'count-well-queries', hook as never);
      let view;
      try {
        view = await lab2.agent.get(`/api/lab-toolbox/pcr/plates/${reg.body.id}`).expect(200);
      } finally {
        t.ctx.db.sequelize.removeHook('afterQuery', 'count-well-queries');
      }
      expect(tests(view.body)).to.deep.equal(expected);
      expect(wellQueries, wellQueries.join('\n')).to.have.length(1);
    });

    it('refuses a plate without both controls, with unknown, non-COVID or wrong-status samples, listing every problem and changing nothing', async () => {
      const covid = await covidSample();
      const tox = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
      const transit = await makeSample(t.ctx.db, { status: SampleStatus.InTransit, tests: [TestName.CovidPcr] });
      const unknown = freshBarcode();
      const res = await lab1.post('/api/lab-toolbox/pcr/plates', {
        name: plateName(),
        wells: [
          { well: 'A1', barcode: 'POS PCR CTRL' },
          { well: 'B1', barcode: covid.barcode },
          { well: 'C1', barcode: tox.barcode },
          { well: 'D1', barcode: unknown },
          { well: 'E1', barcode: transit.barcode },
          { well: 'F1', barcode: 'water' },
        ],
      }).expect(400);
      const messages = res.body.error.fields.map((f: { message: string }) => f.message);
      expect(messages).to.deep.equal([
        `C1: sample ${tox.barcode} has no COVID-19 PCR or COVID-19 Rapid test (its tests: PROSTOX ultra)`,
        `D1: no sample has barcode ${unknown}`,
        `E1: sample ${transit.barcode} is In Transit: only samples In Queue can be put on a plate`,
        'F1: "water" is neither a sample barcode nor a control (POS PCR CTRL, NEG PCR CTRL, Null). Barcode must contain digits only. Barcode must be 41 or 61 followed by 12 digits, or 151 followed by 11 digits',
        'A plate needs at least one positive control (POS PCR CTRL) and one negative control (NEG PCR CTRL)',
      ]);
      expect(await statusOf(t.ctx.db, covid.id)).to.equal('In Queue');
    });

    it('a plate whose negative control was DETECTED keeps its results in review but cannot be released; a retest on a new plate (.reex) with passing controls is released', async () => {
      const db = t.ctx.db;
      const s1 = await covidSample();
      const s2 = await covidSample();
      const name = plateName();
      const reg = await lab1.post('/api/lab-toolbox/pcr/plates', {
        name,
        wells: [
          { well: 'A1', barcode: 'POS_PCR_CTRL_1' },
          { well: 'B1', barcode: 'NEG PCR CTRL' },
          { well: 'C1', barcode: s1.barcode },
          { well: 'D1', barcode: s2.barcode },
          { well: 'E1', barcode: 'Null' },
        ],
      }).expect(201);
      expect(reg.body).to.include({ name, status: 'Registered', sampleCount: 2 });
      expect(reg.body.wells.map((w: { well: string; kind: string }) => `${w.well}:${w.kind}`)).to.deep.equal(['A1:positive', 'B1:negative', 'C1:sample', 'D1:sample', 'E1:null']);
      expect(await statusOf(db, s1.id)).to.equal('In Testing');
      const dup = await lab1.post('/api/lab-toolbox/pcr/plates', { name, wells: [{ well: 'A1', barcode: 'POS PCR CTRL' }, { well: 'B1', barcode: 'NEG PCR CTRL' }] }).expect(409);
      expect(dup.body.error.fields[0].field).to.equal('name');
      expect(dup.body.error.fields[0].message).to.match(new RegExp(`^A plate named ${name} already exists`));

      const missing = await lab1.post(`/api/lab-toolbox/pcr/plates/${reg.body.id}/results`, { results: [{ well: 'A1', result: 'DETECTED' }, { well: 'C1', result: 'DETECTED' }] }).expect(400);
      expect(missing.body.error.message).to.equal('Enter a result for every sample and control: missing B1, D1');

      const entered = await lab1.post(`/api/lab-toolbox/pcr/plates/${reg.body.id}/results`, {
        results: [
          { well: 'A1', result: 'DETECTED' },
          { well: 'B1', result: 'DETECTED' },
          { well: 'C1', result: 'DETECTED' },
          { well: 'D1', result: 'NOT DETECTED' },
        ],
      }).expect(200);
      expect(entered.body.status).to.equal('Resulted');
      expect(entered.body.controls).to.deep.equal({ passed: false, problems: ['the negative control NEG PCR CTRL in B1 is DETECTED (expected NOT DETECTED)'] });
      const c1 = entered.body.wells.find((w: { well: string }) => w.well === 'C1');
      expect([c1.result, c1.resultStatus]).to.deep.equal(['DETECTED', 'In Review']);
      await lab1.post(`/api/lab-toolbox/pcr/plates/${reg.body.id}/results`, { results: [{ well: 'A1', result: 'DETECTED' }] }).expect(409);

      const list = await lab2.agent.get(`/api/lab-toolbox/get-review-list?plateId=${reg.body.id}`).expect(200);
      expect(list.headers['x-total-count']).to.equal('2');
      expect(list.body[0].plate).to.deep.include({ name, controlsPassed: false });
      expect(list.body.every((r: { canApprove: boolean }) => !r.canApprove)).to.equal(true);

      const refused = await lab2.post('/api/lab-toolbox/approve-tests-covid-pcr', { password: DEMO_PASSWORD, resultIds: [c1.resultId] }).expect(409);
      expect(refused.body.error.message).to.equal(`Plate ${name} cannot be released: its controls failed (the negative control NEG PCR CTRL in B1 is DETECTED (expected NOT DETECTED))`);
      expect((await db.models.TestResult.findByPk(c1.resultId))!.status).to.equal('In Review');
      expect(await statusOf(db, s1.id)).to.equal('In Testing');
      expect(await outboxKeys(c1.resultId)).to.deep.equal([]);

      // Reject both for a retest and run them again on a new plate.
      const ids = list.body.map((r: { id: number }) => r.id);
      await lab2.post('/api/lab-toolbox/import-tests-reject', { resultIds: ids, reason: 'Negative control failed', sampleOutcome: 'retest' }).expect(200);
      const noReex = await lab1.post('/api/lab-toolbox/pcr/plates', { name: plateName(), wells: [{ well: 'A1', barcode: 'POS PCR CTRL' }, { well: 'B1', barcode: 'NEG PCR CTRL' }, { well: 'C1', barcode: s1.barcode }] }).expect(400);
      expect(noReex.body.error.fields[0].message).to.equal(`C1: sample ${s1.barcode} is already In Testing: to run it again, scan it as ${s1.barcode}.reex`);
      const rerun = await lab1.post('/api/lab-toolbox/pcr/plates', {
        name: plateName(),
        wells: [{ well: 'A1', barcode: 'POS PCR CTRL' }, { well: 'B1', barcode: 'NEG PCR CTRL' }, { well: 'C1', barcode: `${s1.barcode}.reex` }, { well: 'D1', barcode: `${s2.barcode}.reex` }],
      }).expect(201);
      const done = await lab1.post(`/api/lab-toolbox/pcr/plates/${rerun.body.id}/results`, {
        results: [{ well: 'A1', result: 'DETECTED' }, { well: 'B1', result: 'NOT DETECTED' }, { well: 'C1', result: 'NOT DETECTED' }, { well: 'D1', result: 'INDETERMINATE' }],
      }).expect(200);
      expect(done.body.controls).to.deep.equal({ passed: true, problems: [] });
      const resultIds = done.body.wells.filter((w: { kind: string }) => w.kind === 'sample').map((w: { resultId: number }) => w.resultId);
      const v2 = (await db.models.TestResult.findByPk(resultIds[0]))!;
      expect([v2.version, v2.value, v2.enteredByUserId]).to.deep.equal([2, 'NOT DETECTED', lab1Id]);

      await lab1.post('/api/lab-toolbox/approve-tests-covid-pcr', { password: DEMO_PASSWORD, resultIds }).expect(403);
      const wrong = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds }).expect(400);
      expect(wrong.body.error.message).to.match(/is a COVID-19 PCR result: approve it with approve-tests-covid-pcr$/);
      await lab2.post('/api/lab-toolbox/approve-tests-covid-pcr', { password: DEMO_PASSWORD, resultIds }).expect(200);
      expect(await statusOf(db, s1.id)).to.equal('Resulted');
      expect(await statusOf(db, s2.id)).to.equal('Resulted');
      expect(await outboxKeys(resultIds[0])).to.deep.equal([`lab-report:${resultIds[0]}`, `notify-result:${resultIds[0]}`]);

      const plates = await lab1.agent.get('/api/lab-toolbox/pcr/plates?pageSize=200').expect(200);
      expect(plates.body.find((p: { id: number }) => p.id === rerun.body.id)).to.deep.include({ status: 'Resulted', sampleCount: 2, controlCount: 2 });
      void TestResultStatus;
    });
  });
});
