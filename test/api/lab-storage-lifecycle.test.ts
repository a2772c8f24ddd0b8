/**
 * A sample's lab work goes on while it is In Storage, on the real API and a real worker: its
 * result approved (one result, or a batch with an imported file before it), delivered, the sample
 * rejected. It stays on its plate, In Storage; the status it goes back to advances as its status
 * would have, with the step on its timeline and an audit row; the clinic's lists show it where its
 * work stands, and taken out it is in that status.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { expect } from 'chai';
import { JobStatus, SampleStatus, TestResultStatus } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { outboxJobSettled } from '../support/jobs';
import { until } from '../support/wait';
import { createClinic, createResult, runJob, signInAs, userId, type Clinic, type ResultFixture } from '../support/fixtures/reports';
import { freshPlateName } from '../support/fixtures/storage';

const STORAGE = '/api/lab-toolbox/storage';

interface ListRow { sampleId: number; status: string; statusBeforeStorage: string | null; rejectionReason: string | null; resultedAt: string | null }
interface TimelineRow { from: string | null; to: string; reason: string | null; actor: { kind: string; name: string } }

describe('lab toolbox: a stored sample\'s result approved, delivered or rejected', function () {
  this.timeout(120_000);
  let t: TestApp;
  let worker: RunningWorker;
  let lab1: Session;
  let lab2: Session;
  let clinic: Clinic;
  let provider: Session;

  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    lab1 = await signIn(t.app, 'lab1', 'lab');
    lab2 = await signIn(t.app, 'lab2', 'lab', '10.9.0.2');
    clinic = await createClinic(t.ctx.db, 'storage');
    provider = await signInAs(t.app, clinic.email, 'provider', '10.9.0.3');
  });
  after(async () => {
    await worker?.close();
    await t?.close();
  });

  /** A sample of the clinic's own, with its result waiting for review (entered by lab1) unless `resultStatus: null`. */
  const sampleOf = (sampleStatus: SampleStatus, resultStatus: TestResultStatus | null = TestResultStatus.InReview) =>
    createResult(t.ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, sampleStatus, resultStatus });

  async function newPlate(): Promise<{ id: number; name: string }> {
    const name = freshPlateName();
    const res = await lab1.post(`${STORAGE}/plates`, { name }).expect(201);
    return { id: res.body.id, name };
  }

  /** The clinic's list of a category, as the clinic reads it. */
  async function clinicList(category: 'PENDING' | 'COMPLETED'): Promise<ListRow[]> {
    const res = await provider.agent.get(`/api/provider-clinic/${clinic.account.id}/tests?category=${category}&pageSize=200`).expect(200);
    return res.body as ListRow[];
  }
  /** Which list of the clinic shows the sample, and how. */
  async function whereTheClinicSees(sampleId: number) {
    const pending = (await clinicList('PENDING')).filter((r) => r.sampleId === sampleId);
    const completed = (await clinicList('COMPLETED')).filter((r) => r.sampleId === sampleId);
    expect(pending.length + completed.length, 'the sample is on exactly one of the lists').to.equal(1);
    const [row] = [...pending, ...completed];
    return { list: pending.length ? 'PENDING' : 'COMPLETED', status: row.status, statusBeforeStorage: row.statusBeforeStorage, row };
  }

  /** The sample's timeline as the clinic's patient page shows it. */
  async function clinicTimeline(s: ResultFixture): Promise<TimelineRow[]> {
    const res = await provider.agent.get(`/api/provider-clinic/${clinic.account.id}/patient/${s.patientId}`).expect(200);
    return res.body.samples.find((x: { id: number }) => x.id === s.sampleId).timeline;
  }

  const sampleRow = (id: number) => t.ctx.db.models.Sample.findByPk(id).then((x) => [x!.status, x!.statusBeforeStorage]);
  const statusAudits = async (sampleId: number) =>
    (await t.ctx.db.models.AuditEvent.findAll({ where: { action: 'sample.status_changed', entityId: String(sampleId) }, order: [['id', 'ASC']] })).map((a) => a.details);

  it('one result approved while its sample is stored: it stays on the plate; the clinic sees it completed; taken out it is Completed', async () => {
    const s = await sampleOf(SampleStatus.InTesting);
    const plate = await newPlate();
    await lab1.post(`${STORAGE}/plates/${plate.id}/wells`, { well: 'A1', sampleId: s.barcode }).expect(201);
    expect(await whereTheClinicSees(s.sampleId)).to.deep.include({ list: 'PENDING', status: 'In Storage', statusBeforeStorage: 'In Testing' });

    // The reviewer may approve it: the release rule reads the sample by the status it goes back to.
    const review = await lab2.agent.get(`/api/lab-toolbox/get-review-list?barcode=${s.barcode}`).expect(200);
    expect(review.body.map((r: { id: number; sampleStatus: string; canApprove: boolean }) => [r.id, r.sampleStatus, r.canApprove])).to.deep.equal([[s.resultId, 'In Storage', true]]);
    const ok = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [s.resultId] }).expect(200);
    expect(ok.body.approved).to.deep.equal([{ resultId: s.resultId, barcode: s.barcode, test: 'PROSTOX ultra', value: 'High Risk', correction: false, sampleStatus: 'In Storage' }]);

    // The result is delivered by the worker: Resulted, then Completed, while the sample stays stored.
    const notified = await outboxJobSettled(t.ctx, `notify-result:${s.resultId}`);
    expect(notified.status, String(notified.error)).to.equal(JobStatus.Completed);
    expect(notified.result).to.deep.include({ sampleCompleted: true });
    expect(await sampleRow(s.sampleId)).to.deep.equal(['In Storage', 'Completed']);
    const seen = await whereTheClinicSees(s.sampleId);
    expect(seen).to.deep.include({ list: 'COMPLETED', status: 'In Storage', statusBeforeStorage: 'Completed' });
    expect(seen.row.resultedAt, 'the completed list dates the result').to.be.a('string');
    const wells = await lab1.agent.get(`${STORAGE}/plates/${plate.id}`).expect(200);
    expect(wells.body.wells.map((w: { well: string; status: string; statusBeforeStorage: string }) => [w.well, w.status, w.statusBeforeStorage])).to.deep.equal([['A1', 'In Storage', 'Completed']]);

    // Its timeline says what happened while it was stored, and who did it; so do the audit rows.
    const steps = (await clinicTimeline(s)).map((e) => [e.from, e.to, e.reason, e.actor.kind]);
    expect(steps).to.deep.equal([
      ['In Testing', 'In Storage', null, 'lab'],
      ['In Testing', 'Resulted', 'The sample stays In Storage', 'lab'],
      ['Resulted', 'Completed', 'Result delivered (the sample stays In Storage)', 'system'],
    ]);
    expect(await statusAudits(s.sampleId)).to.deep.equal([
      { from: 'In Testing', to: 'In Storage' },
      { from: 'In Testing', to: 'Resulted', inStorage: true },
      { from: 'Resulted', to: 'Completed', inStorage: true },
    ]);

    const out = await lab1.post(`${STORAGE}/plates/${plate.id}/wells/A1/take-out`).expect(200);
    expect(out.body.sample).to.deep.equal({ id: s.sampleId, barcode: s.barcode, previousStatus: 'In Storage', status: 'Completed' });
    expect(out.body.message).to.equal(`${s.barcode} taken out of ${plate.name} A1: back to Completed`);
    expect(await sampleRow(s.sampleId)).to.deep.equal(['Completed', null]);
    expect(await whereTheClinicSees(s.sampleId)).to.deep.include({ list: 'COMPLETED', status: 'Completed', statusBeforeStorage: null });
    // Completed, it can now be discarded as any completed sample.
    await lab1.post(`${STORAGE}/discard`, { sampleId: s.barcode }).expect(200);
    expect(await sampleRow(s.sampleId)).to.deep.equal(['Discarded', null]);
  });

  it('a result released before the sample was stored, delivered after: taken out it is Completed, not Resulted', async () => {
    const s = await sampleOf(SampleStatus.Resulted, TestResultStatus.Released);
    const plate = await newPlate();
    await lab1.post(`${STORAGE}/plates/${plate.id}/wells`, { well: 'A1', sampleId: s.barcode }).expect(201);
    const notified = await runJob(t.ctx, 'notify-result', { testResultId: s.resultId });
    expect(notified.status, String(notified.error)).to.equal(JobStatus.Completed);
    expect(await sampleRow(s.sampleId)).to.deep.equal(['In Storage', 'Completed']);
    const out = await lab2.post(`${STORAGE}/plates/${plate.id}/wells/A1/take-out`).expect(200);
    expect(out.body.sample.status).to.equal('Completed');
  });

  it('the bulk path: an imported file starts stored samples\' testing, one approval releases the batch; stored and loose samples end alike', async () => {
    // Two samples stored while In Queue, one not stored: their results come in one file.
    const stored = [await sampleOf(SampleStatus.InQueue, null), await sampleOf(SampleStatus.InQueue, null)];
    const loose = await sampleOf(SampleStatus.InQueue, null);
    const plate = await newPlate();
    for (const [i, s] of stored.entries()) await lab1.post(`${STORAGE}/plates/${plate.id}/wells`, { well: `A${i + 1}`, sampleId: s.barcode }).expect(201);

    const csv = `barcode,risk level\r\n${stored[0].barcode},High Risk\r\n${stored[1].barcode},Low-Average Risk\r\n${loose.barcode},Intermediate Risk\r\n`;
    const up = await lab1.agent
      .post(`/api/lab-toolbox/import-files?kind=cancer-toxicity&filename=stored.csv`)
      .set('x-csrf-token', lab1.csrf).set('Content-Type', 'text/csv').send(Buffer.from(csv)).expect(202);
    const job = async (jobId: number) => until(async () => {
      const res = await lab1.agent.get(`/api/lab-toolbox/jobs/${jobId}`).expect(200);
      return res.body.status === 'Pending' ? null : res.body;
    }, { what: `import job ${jobId}` });
    const dry = await job(up.body.jobId);
    expect(dry.result.errors, 'a stored In Queue sample takes an imported result').to.deep.equal([]);
    const commit = await lab1.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(202);
    const committed = await job(commit.body.jobId);
    expect(committed.status, committed.error ?? '').to.equal('Completed');
    expect(committed.result).to.include({ resultsWritten: 3, samplesMovedToTesting: 3 });
    for (const s of stored) expect(await sampleRow(s.sampleId)).to.deep.equal(['In Storage', 'In Testing']);
    expect(await sampleRow(loose.sampleId)).to.deep.equal(['In Testing', null]);
    const startedWhileStored = await t.ctx.db.models.SampleStatusEvent.findOne({ where: { sampleId: stored[0].sampleId, toStatus: 'In Testing' } });
    expect([startedWhileStored!.fromStatus, startedWhileStored!.reason, startedWhileStored!.actorKind]).to.deep.equal(['In Queue', 'The sample stays In Storage', 'lab']);
    expect(await whereTheClinicSees(stored[0].sampleId)).to.deep.include({ list: 'PENDING', statusBeforeStorage: 'In Testing' });
    const imported = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'lab_import.committed', entityId: String(up.body.fileId) } });
    expect(imported!.details).to.deep.include({ results: 3, samplesMovedToTesting: 3, samplesStayingInStorage: 2 });

    // One approval for the whole file.
    const results = await t.ctx.db.models.TestResult.findAll({ where: { importJobId: commit.body.jobId }, order: [['id', 'ASC']] });
    const ok = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: results.map((r) => r.id) }).expect(200);
    expect(ok.body.approved.map((a: { barcode: string; sampleStatus: string }) => [a.barcode, a.sampleStatus])).to.deep.equal([
      [stored[0].barcode, 'In Storage'], [stored[1].barcode, 'In Storage'], [loose.barcode, 'Resulted'],
    ]);
    for (const r of results) {
      const notified = await outboxJobSettled(t.ctx, `notify-result:${r.id}`);
      expect(notified.status, String(notified.error)).to.equal(JobStatus.Completed);
    }
    for (const s of stored) {
      expect(await sampleRow(s.sampleId)).to.deep.equal(['In Storage', 'Completed']);
      expect(await whereTheClinicSees(s.sampleId)).to.deep.include({ list: 'COMPLETED', status: 'In Storage', statusBeforeStorage: 'Completed' });
      expect((await clinicTimeline(s)).map((e) => `${e.from} -> ${e.to}`)).to.deep.equal([
        'In Queue -> In Storage', 'In Queue -> In Testing', 'In Testing -> Resulted', 'Resulted -> Completed',
      ]);
    }
    expect(await sampleRow(loose.sampleId)).to.deep.equal(['Completed', null]);

    for (const well of ['A1', 'A2']) await lab2.post(`${STORAGE}/plates/${plate.id}/wells/${well}/take-out`).expect(200);
    for (const s of [...stored, loose]) {
      expect(await sampleRow(s.sampleId)).to.deep.equal(['Completed', null]);
      expect(await whereTheClinicSees(s.sampleId)).to.deep.include({ list: 'COMPLETED', status: 'Completed' });
    }
  });

  it('a stored sample rejected at review stays on its plate; the clinic sees it rejected; taken out it is Rejected', async () => {
    const s = await sampleOf(SampleStatus.InTesting);
    const plate = await newPlate();
    await lab1.post(`${STORAGE}/plates/${plate.id}/wells`, { well: 'A1', sampleId: s.barcode }).expect(201);
    const res = await lab2.post('/api/lab-toolbox/import-tests-reject', {
      resultIds: [s.resultId], reason: 'No DNA left', sampleOutcome: 'reject-sample', rejectionReason: 'Rejected - quantity not sufficient',
    }).expect(200);
    expect(res.body.rejected).to.deep.equal([{ resultId: s.resultId, barcode: s.barcode, test: 'PROSTOX ultra', sampleStatus: 'In Storage' }]);
    expect(await sampleRow(s.sampleId)).to.deep.equal(['In Storage', 'Rejected']);
    const seen = await whereTheClinicSees(s.sampleId);
    expect(seen).to.deep.include({ list: 'COMPLETED', status: 'In Storage', statusBeforeStorage: 'Rejected' });
    expect(seen.row.rejectionReason).to.equal('Rejected - quantity not sufficient');
    expect((await clinicTimeline(s)).at(-1)).to.deep.include({ from: 'In Testing', to: 'Rejected', reason: 'Rejected - quantity not sufficient (the sample stays In Storage)' });

    const out = await lab1.post(`${STORAGE}/plates/${plate.id}/wells/A1/take-out`).expect(200);
    expect(out.body.sample.status).to.equal('Rejected');
    expect(await sampleRow(s.sampleId)).to.deep.equal(['Rejected', null]);
  });

  it('what the stored sample\'s work does not allow is refused in the lifecycle\'s words, and nothing changes', async () => {
    // Stored while In Queue: its result (entered by hand before testing was recorded) cannot be released yet.
    const queued = await sampleOf(SampleStatus.InQueue);
    const plate = await newPlate();
    await lab1.post(`${STORAGE}/plates/${plate.id}/wells`, { well: 'A1', sampleId: queued.barcode }).expect(201);
    const refused = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [queued.resultId] }).expect(409);
    expect(refused.body.error.message).to.equal(`Sample ${queued.barcode} is In Storage (In Queue when taken out): its result cannot be released`);
    expect(await sampleRow(queued.sampleId)).to.deep.equal(['In Storage', 'In Queue']);

    // Stored once resulted: it is no longer rejected (the lifecycle's rule, stored or not).
    const resulted = await sampleOf(SampleStatus.Resulted, TestResultStatus.Released);
    await lab1.post(`${STORAGE}/plates/${plate.id}/wells`, { well: 'B1', sampleId: resulted.barcode }).expect(201);
    const version2 = await t.ctx.db.models.TestResult.create({
      testId: resulted.testId, version: 2, value: 'Low-Average Risk', scale: 'risk4', status: TestResultStatus.InReview, enteredByUserId: await userId(t.ctx.db, 'lab1'),
    });
    const noReject = await lab2.post('/api/lab-toolbox/import-tests-reject', {
      resultIds: [version2.id], reason: 'x', sampleOutcome: 'reject-sample', rejectionReason: 'Rejected - quantity not sufficient',
    }).expect(409);
    expect(noReject.body.error.message).to.equal(`Sample ${resulted.barcode} is In Storage (Resulted when taken out): it cannot be rejected (reject the result for a retest instead)`);
    expect(await sampleRow(resulted.sampleId)).to.deep.equal(['In Storage', 'Resulted']);
  });
});
