/**
 * Lab Toolbox intake and lab-ordered samples: every scan answers at once what happened; a
 * refused scan changes nothing (status, timeline, receipt time); only lab users get in.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { expect } from 'chai';
import request from 'supertest';
import { formatDate, KIT_BARCODE_RULE, REJECTION_REASONS } from '@platform/domain';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { checkedKit, freshBarcode, makeResult, makeSample, SampleStatus, statusOf, TestName, TestResultStatus, timeline, userId } from '../support/fixtures/lab';

describe('lab toolbox: intake', function () {
  this.timeout(60_000);
  let t: TestApp;
  let lab1: Session;

  before(async () => {
    t = await buildTestApp();
    lab1 = await signIn(t.app, 'lab1', 'lab');
  });
  after(() => t.close());

  async function unchanged(sampleId: number, status: string, events: string[], receivedAt: Date | null) {
    const sample = (await t.ctx.db.models.Sample.findByPk(sampleId))!;
    expect(sample.status).to.equal(status);
    expect(sample.receivedAt?.getTime() ?? null).to.equal(receivedAt?.getTime() ?? null);
    expect(await timeline(t.ctx.db, sampleId)).to.deep.equal(events);
  }

  it('receives a kit In Transit: In Queue, receipt time and who, on the timeline, answered with barcode, test, account and status', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit, tests: [TestName.ProstoxCfrt] });
    const before = Date.now();
    const res = await lab1.post('/api/lab-toolbox/intake/receive', checkedKit(s.barcode)).expect(200);
    expect(res.body).to.include({ barcode: s.barcode, account: 'Riverside Oncology', previousStatus: 'In Transit', status: 'In Queue' });
    expect(res.body.tests).to.deep.equal(['PROSTOX CFRT']);
    expect(res.body.patient).to.match(/^Testy L\.$/);
    expect(res.body.message).to.equal(`Received ${s.barcode} (PROSTOX CFRT): now In Queue`);

    const sample = (await t.ctx.db.models.Sample.findByPk(s.id))!;
    expect(sample.status).to.equal('In Queue');
    expect(sample.receivedAt!.getTime()).to.be.within(before - 1000, Date.now() + 1000);
    expect(sample.receivedByUserId).to.equal(await userId(t.ctx.db, 'lab1'));
    const events = await t.ctx.db.models.SampleStatusEvent.findAll({ where: { sampleId: s.id }, order: [['id', 'ASC']] });
    // The receipt, then the intake check's step (lab-intake-checks.test.ts).
    const receipt = events[events.length - 2];
    expect([receipt.fromStatus, receipt.toStatus, receipt.actorKind, receipt.actorUserId]).to.deep.equal(['In Transit', 'In Queue', 'lab', sample.receivedByUserId]);
    const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'sample.status_changed', entityId: String(s.id) } });
    expect(audit?.details).to.deep.include({ from: 'In Transit', to: 'In Queue' });
  });

  it('receives an untracked kit (Pending Shipment) with a receipt time typed by the lab', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.PendingShipment });
    const receivedAt = new Date(Date.now() - 2 * 3_600_000);
    const res = await lab1.post('/api/lab-toolbox/intake/receive', checkedKit(s.barcode, { receivedAt: receivedAt.toISOString(), collectedAt: new Date(receivedAt.getTime() - 3_600_000).toISOString() })).expect(200);
    expect(res.body.status).to.equal('In Queue');
    expect(new Date(res.body.receivedAt).getTime()).to.equal(receivedAt.getTime());
    const event = await t.ctx.db.models.SampleStatusEvent.findOne({ where: { sampleId: s.id, toStatus: 'In Queue' } });
    expect(event!.createdAt.getTime()).to.equal(receivedAt.getTime());
    // The receipt, then the intake check's step (the condition, collection time and confirmation: lab-intake-checks.test.ts).
    expect(await timeline(t.ctx.db, s.id)).to.deep.equal(['Order Placed', 'Pending Shipment', 'In Queue', 'In Queue']);
  });

  it('refuses a barcode of the wrong pattern with the rule, changing nothing', async () => {
    for (const [barcode, expected] of [
      ['4100000000001', 'Barcode must be 14 digits long (this one has 13)'],
      ['41-000000000001', 'Barcode must contain digits only'],
      ['71000000000001', KIT_BARCODE_RULE],
      [' 41000000000001', 'Barcode must not start or end with a space'],
      ['', 'Barcode is required'],
    ]) {
      const res = await lab1.post('/api/lab-toolbox/intake/receive', checkedKit(barcode)).expect(400);
      expect(res.body.error.message).to.contain(expected);
    }
  });

  it('refuses an unknown barcode: "No sample has barcode …"', async () => {
    const barcode = freshBarcode();
    const res = await lab1.post('/api/lab-toolbox/intake/receive', checkedKit(barcode)).expect(404);
    expect(res.body.error.message).to.equal(`No sample has barcode ${barcode}`);
    expect(await t.ctx.db.models.Sample.count({ where: { barcode } })).to.equal(0);
  });

  it('refuses a kit already received, with the date, changing nothing (a second scan of the same kit)', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
    await lab1.post('/api/lab-toolbox/intake/receive', checkedKit(s.barcode)).expect(200);
    const sample = (await t.ctx.db.models.Sample.findByPk(s.id))!;
    const events = await timeline(t.ctx.db, s.id);
    const res = await lab1.post('/api/lab-toolbox/intake/receive', checkedKit(s.barcode)).expect(409);
    // The lab's day of the receipt (LAB_TIME_ZONE), not the machine's.
    expect(res.body.error.message).to.equal(`Sample ${s.barcode} was already received on ${formatDate(sample.receivedAt, t.ctx.config.labTimeZone)}`);
    await unchanged(s.id, 'In Queue', events, sample.receivedAt);
    const refusal = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'sample.intake_receive', entityId: String(s.id) } });
    expect(refusal?.details).to.deep.include({ outcome: 'refused', reason: 'already received' });

    const testing = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
    const again = await lab1.post('/api/lab-toolbox/intake/receive', checkedKit(testing.barcode)).expect(409);
    expect(again.body.error.message).to.match(new RegExp(`^Sample ${testing.barcode} was already received on \\d\\d/\\d\\d/\\d{4}$`));
  });

  it('refuses a kit in a status that cannot be received, changing nothing', async () => {
    for (const status of [SampleStatus.OrderPlaced, SampleStatus.Rejected]) {
      const s = await makeSample(t.ctx.db, { status });
      const events = await timeline(t.ctx.db, s.id);
      const res = await lab1.post('/api/lab-toolbox/intake/receive', checkedKit(s.barcode)).expect(409);
      expect(res.body.error.message).to.equal(`Sample ${s.barcode} is ${status}: it cannot be received`);
      await unchanged(s.id, status, events, null);
    }
  });

  it('refuses a receipt time in the future, changing nothing', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
    const res = await lab1.post('/api/lab-toolbox/intake/receive', checkedKit(s.barcode, { receivedAt: new Date(Date.now() + 86_400_000).toISOString() })).expect(400);
    expect(res.body.error.message).to.equal('The receipt time cannot be in the future');
    await unchanged(s.id, 'In Transit', ['Order Placed', 'Pending Shipment', 'In Transit'], null);
  });

  it('rejects a kit with one of the spec reasons, withdrawing its results in review', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
    const lab2Id = await userId(t.ctx.db, 'lab2');
    const pending = await makeResult(t.ctx.db, s.testIds[0], 'High Risk', lab2Id);
    const res = await lab1.post('/api/lab-toolbox/intake/reject', { barcode: s.barcode, reason: 'Rejected - quantity not sufficient' }).expect(200);
    expect(res.body).to.include({ status: 'Rejected', previousStatus: 'In Testing', rejectionReason: 'Rejected - quantity not sufficient' });
    const sample = (await t.ctx.db.models.Sample.findByPk(s.id))!;
    expect([sample.status, sample.rejectionReason]).to.deep.equal(['Rejected', 'Rejected - quantity not sufficient']);
    const event = await t.ctx.db.models.SampleStatusEvent.findOne({ where: { sampleId: s.id, toStatus: 'Rejected' } });
    expect(event!.reason).to.equal('Rejected - quantity not sufficient');
    await pending.reload();
    expect(pending.status).to.equal(TestResultStatus.Rejected);
  });

  it('refuses a rejection reason outside the spec list, and a rejection from a status that allows none', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
    const bad = await lab1.post('/api/lab-toolbox/intake/reject', { barcode: s.barcode, reason: 'Rejected - smells odd' }).expect(400);
    expect(bad.body.error.message).to.equal(`Reason must be one of: ${REJECTION_REASONS.join('; ')}`);
    expect(await statusOf(t.ctx.db, s.id)).to.equal('In Transit');

    const resulted = await makeSample(t.ctx.db, { status: SampleStatus.Resulted });
    const res = await lab1.post('/api/lab-toolbox/intake/reject', { barcode: resulted.barcode, reason: REJECTION_REASONS[0] }).expect(409);
    expect(res.body.error.message).to.equal(`Sample ${resulted.barcode} is Resulted: it cannot be rejected`);
    expect(await statusOf(t.ctx.db, resulted.id)).to.equal('Resulted');
  });

  it('refuses everyone but lab users: anonymous 401, provider and admin 403', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
    const anonymous = request.agent(t.app);
    const csrf = (await anonymous.get('/api/auth/csrf')).body.csrfToken as string;
    await anonymous.post('/api/lab-toolbox/intake/receive').set('x-csrf-token', csrf).send(checkedKit(s.barcode)).expect(401);
    await anonymous.get('/api/lab-toolbox/get-review-list').expect(401);
    for (const [who, portal] of [['physician', 'provider'], ['admin', 'admin']] as const) {
      const session = await signIn(t.app, who, portal);
      const res = await session.post('/api/lab-toolbox/intake/receive', checkedKit(s.barcode)).expect(403);
      expect(res.body.error.code).to.equal('forbidden');
      await session.agent.get('/api/lab-toolbox/get-review-list').expect(403);
      await session.agent.get('/api/lab-toolbox/jobs/1').expect(403);
      await session.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [1] }).expect(403);
      await session.agent.post('/api/lab-toolbox/import-files?kind=kras&filename=a.csv').set('x-csrf-token', session.csrf).set('Content-Type', 'text/csv').send(Buffer.from('barcode,genotype\n')).expect(403);
    }
    expect(await statusOf(t.ctx.db, s.id)).to.equal('In Transit');
  });

  describe('samples/create (lab-ordered COVID-19 PCR)', () => {
    it('registers a new patient and a COVID-19 PCR sample, In Queue, origin Lab Ordered, with its timeline', async () => {
      const barcode = freshBarcode();
      const res = await lab1.post('/api/lab-toolbox/samples/create', {
        barcode, sampleType: 'Nasal Cavity', patient: { firstName: 'Cora', lastName: 'Vidal', dateOfBirth: '1985-06-07' },
      }).expect(201);
      expect(res.body).to.include({ barcode, test: 'COVID-19 PCR', status: 'In Queue', patient: 'Cora V.' });
      expect(res.body.orderNumber).to.match(/^RG_\d{9}$/);
      const sample = (await t.ctx.db.models.Sample.findOne({ where: { barcode }, include: [{ model: t.ctx.db.models.Order, as: 'order' }] }))!;
      expect(sample.order!.origin).to.equal('Lab Ordered');
      expect(sample.order!.portal).to.equal('Lab Toolbox');
      expect(sample.receivedAt).to.be.instanceOf(Date);
      expect(await timeline(t.ctx.db, sample.id)).to.deep.equal(['Order Placed', 'Pending Shipment', 'In Queue']);
    });

    it('the same new sample created N times at once: exactly one 201, the rest 409 naming the barcode, never a 500, one sample written', async () => {
      const N = 5;
      const barcode = freshBarcode();
      const body = { barcode, sampleType: 'Saliva', patient: { firstName: 'Race', lastName: 'Twice', dateOfBirth: '1980-02-03' } };
      const answers = await Promise.all(Array.from({ length: N }, () => lab1.post('/api/lab-toolbox/samples/create', body)));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, ...Array(N - 1).fill(409)]);
      for (const a of answers.filter((x) => x.status === 409)) {
        expect(a.body.error.fields).to.deep.equal([{ field: 'barcode', message: a.body.error.message }]);
        expect(a.body.error.message).to.match(new RegExp(`^Barcode ${barcode} is already used by another sample`));
      }
      expect(await t.ctx.db.models.Sample.count({ where: { barcode } })).to.equal(1);
    });

    it('refuses a barcode already in use, and a sample type that is not a respiratory specimen', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
      const patients = await t.ctx.db.models.Patient.count({ where: { firstName: 'Ann', lastName: 'Other' } });
      const taken = await lab1.post('/api/lab-toolbox/samples/create', {
        barcode: s.barcode, sampleType: 'Saliva', patient: { firstName: 'Ann', lastName: 'Other', dateOfBirth: '1970-01-01' },
      }).expect(409);
      expect(taken.body.error.message).to.match(new RegExp(`^Barcode ${s.barcode} is already used by another sample`));
      expect(taken.body.error.fields).to.deep.equal([{ field: 'barcode', message: taken.body.error.message }]);
      expect(await t.ctx.db.models.Patient.count({ where: { firstName: 'Ann', lastName: 'Other' } })).to.equal(patients);
      const blood = await lab1.post('/api/lab-toolbox/samples/create', {
        barcode: freshBarcode(), sampleType: 'Blood', patient: { firstName: 'Ann', lastName: 'Other', dateOfBirth: '1970-01-01' },
      }).expect(400);
      expect(blood.body.error.fields[0].field).to.equal('sampleType');
    });
  });
});
