/**
 * Intake that checks the specimen (issue 30, item 2; docs/intake.md): each scan records the
 * specimen's condition, its collection time (from the order when the clinic gave it, else typed)
 * and, for a kit with a requisition, that the tube's name and date of birth match it; a condition
 * the lab cannot test is rejected with its mapped reason; all of it on the sample's timeline. A
 * refused scan changes nothing and names the field to fix.
 */
import { expect } from 'chai';
import { CONDITION_RULES, formatDateTime, REJECTION_REASONS, SPECIMEN_CONDITIONS, SpecimenCondition } from '@platform/domain';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { checkedKit, makeSample, SampleStatus, statusOf, timeline, userId } from '../support/fixtures/lab';
import { addPatient, ALL_ATTESTED, createClinic, placeOrder, type TestClinic } from '../support/fixtures/clinic';

const RECEIVE = '/api/lab-toolbox/intake/receive';
const REJECT = '/api/lab-toolbox/intake/reject';
const HOUR = 3_600_000;

describe('lab toolbox: intake checks the specimen', function () {
  this.timeout(60_000);
  let t: TestApp;
  let lab1: Session;
  let clinic: TestClinic;

  before(async () => {
    t = await buildTestApp();
    lab1 = await signIn(t.app, 'lab1', 'lab');
    clinic = await createClinic(t.ctx, t.app, 'Intake Clinic');
  });
  after(() => t.close());

  /** A refusal: 400 naming the field, and the kit still In Transit with nothing recorded. */
  async function refused(body: Record<string, unknown>, field: string, message: string | RegExp, sampleId: number, path = RECEIVE) {
    const res = await lab1.post(path, body).expect(400);
    const fields = res.body.error.fields as { field: string; message: string }[];
    expect(fields.map((f) => f.field)).to.deep.equal([field]);
    if (typeof message === 'string') expect(fields[0].message).to.equal(message);
    else expect(fields[0].message).to.match(message);
    const sample = (await t.ctx.db.models.Sample.findByPk(sampleId))!;
    expect([sample.status, sample.condition, sample.identityConfirmedByUserId]).to.deep.equal(['In Transit', null, null]);
    expect(await timeline(t.ctx.db, sampleId)).to.deep.equal(['Order Placed', 'Pending Shipment', 'In Transit']);
  }

  it('the scanned kit: tests, account, the requisition\'s name and date of birth, the collection time the order gave; the read audited', async () => {
    const patient = await addPatient(clinic);
    const collectedAt = new Date(Date.now() - 2 * HOUR);
    const res = await clinic.session.post(clinic.api('order'), {
      patientId: patient.id, tests: ['PROSTOX ultra'], physicianId: clinic.physicianIds[0], sampleType: 'Buccal Swab', attestations: ALL_ATTESTED, diagnosisCodes: ['C61'],
      collectedAt: collectedAt.toISOString(),
    }).expect(201);
    const barcode = res.body.sample.barcode as string;
    const kit = await lab1.agent.get(`/api/lab-toolbox/intake/kits/${barcode}`).expect(200);
    expect(kit.body).to.deep.include({
      barcode, tests: ['PROSTOX ultra'], account: clinic.name, status: 'Order Placed', receivable: false, collectedAt: collectedAt.toISOString(),
      requisition: { firstName: patient.firstName, lastName: patient.lastName, dateOfBirth: patient.dateOfBirth, studyId: null },
    });
    expect(kit.body.problem).to.equal(`Sample ${barcode} is Order Placed: it cannot be received`);
    const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'sample.intake_viewed', entityId: String(res.body.sample.id) } });
    expect(audit).to.not.equal(null);

    await lab1.agent.get('/api/lab-toolbox/intake/kits/41999999999999').expect(404);
    const bad = await lab1.agent.get('/api/lab-toolbox/intake/kits/41-1').expect(400);
    expect(bad.body.error.fields[0].field).to.equal('barcode');
    await clinic.session.agent.get(`/api/lab-toolbox/intake/kits/${barcode}`).expect(403);
  });

  it('a receipt without a condition, or with one that is not of the list, is refused naming the condition', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
    const { condition: _omitted, ...withoutCondition } = checkedKit(s.barcode);
    await refused(withoutCondition, 'condition', 'Specimen condition is required: choose what the specimen looks like', s.id);
    await refused(checkedKit(s.barcode, { condition: 'sticky' }), 'condition', `Specimen condition must be one of: ${SPECIMEN_CONDITIONS.join(', ')}`, s.id);
  });

  it('the collection time: required when the order gave none, never in the future, before the order, after the receipt, or not a time', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit }); // ordered three days ago, no collection time
    const { collectedAt: _omitted, ...withoutTime } = checkedKit(s.barcode);
    await refused(withoutTime, 'collectedAt', 'Collection time is required to receive a kit: type the date and time written on the tube', s.id);
    await refused(checkedKit(s.barcode, { collectedAt: new Date(Date.now() + 2 * HOUR).toISOString() }), 'collectedAt', 'The collection time cannot be in the future', s.id);
    await refused(checkedKit(s.barcode, { collectedAt: new Date(Date.now() - 5 * 24 * HOUR).toISOString() }), 'collectedAt', /^The collection time cannot be more than 24 hours before the order was placed \(/, s.id);
    const receivedAt = new Date(Date.now() - 3 * HOUR);
    await refused(
      checkedKit(s.barcode, { receivedAt: receivedAt.toISOString(), collectedAt: new Date(Date.now() - HOUR).toISOString() }),
      'collectedAt', 'The collection time cannot be after the kit was received', s.id,
    );
    await refused(checkedKit(s.barcode, { collectedAt: 'yesterday' }), 'collectedAt', 'Collection time must be a date and time', s.id);
  });

  it('a kit with a requisition is received only once its name and date of birth are confirmed against it', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
    const { identityConfirmed: _omitted, ...unconfirmed } = checkedKit(s.barcode);
    const message = 'Confirm that the name and date of birth on the tube match the requisition (or reject the kit: Rejected - identification mismatch)';
    await refused(unconfirmed, 'identityConfirmed', message, s.id);
    await refused(checkedKit(s.barcode, { identityConfirmed: false }), 'identityConfirmed', message, s.id);
    await refused(checkedKit(s.barcode, { identityConfirmed: 'yes' }), 'identityConfirmed', 'Identity confirmation must be true or false', s.id);
  });

  it('a sound kit received: its condition, collection time and who confirmed it recorded, and one timeline step saying so by whom', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
    const collectedAt = new Date(Math.floor((Date.now() - 26 * HOUR) / 60_000) * 60_000);
    const res = await lab1.post(RECEIVE, checkedKit(s.barcode, { collectedAt: collectedAt.toISOString() })).expect(200);
    expect(res.body).to.include({ status: 'In Queue', condition: 'acceptable', collectedAt: collectedAt.toISOString() });
    const sample = (await t.ctx.db.models.Sample.findByPk(s.id))!;
    const lab1Id = await userId(t.ctx.db, 'lab1');
    expect([sample.condition, sample.collectedAt?.toISOString(), sample.identityConfirmedByUserId]).to.deep.equal(['acceptable', collectedAt.toISOString(), lab1Id]);
    expect(sample.identityConfirmedAt).to.be.instanceOf(Date);

    // The LIMS sample page's timeline, as the lab (and the clinic's patient page) reads it.
    const view = await lab1.agent.get(`/api/lims/sample/${s.id}`).expect(200);
    const steps = view.body.timeline as { from: string | null; to: string; reason: string | null; actor: { kind: string; name: string } }[];
    const check = steps[steps.length - 1];
    // The collection time on the lab's clock, with the zone's abbreviation (the tests' LAB_TIME_ZONE, America/New_York).
    expect(check.reason).to.equal(
      `Intake check: specimen acceptable · collected ${formatDateTime(collectedAt, t.ctx.config.labTimeZone)} · name and date of birth on the tube confirmed against the requisition`,
    );
    expect([check.from, check.to, check.actor.kind]).to.deep.equal(['In Queue', 'In Queue', 'lab']);
    expect(check.actor.name).to.not.equal('Lab');
    expect(steps[steps.length - 2]).to.include({ from: 'In Transit', to: 'In Queue' });
    const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'sample.intake_checked', entityId: String(s.id) } });
    expect(audit?.details).to.deep.include({ condition: 'acceptable', identityConfirmed: true });
  });

  it('the collection time the clinic gave on its order is kept when the scan gives none', async () => {
    const patient = await addPatient(clinic);
    const order = await placeOrder(clinic, patient.id);
    const collectedAt = new Date(Date.now() - HOUR);
    await t.ctx.db.models.Sample.update({ collectedAt, status: 'In Transit' }, { where: { id: order.sampleId } });
    const { collectedAt: _omitted, ...body } = checkedKit(order.barcode);
    const res = await lab1.post(RECEIVE, body).expect(200);
    expect(res.body.collectedAt).to.equal(collectedAt.toISOString());
  });

  it('a leaked kit cannot be received: it is rejected with the mapped reason, its condition on the timeline', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
    const reason = CONDITION_RULES[SpecimenCondition.Leaked].rejectionReason!;
    expect(reason).to.equal('Rejected - quantity not sufficient');
    await refused(checkedKit(s.barcode, { condition: 'leaked' }), 'condition', `A leaked specimen cannot be received: reject it (${reason})`, s.id);
    // Rejected at intake: the condition is required there too.
    await refused({ barcode: s.barcode, reason }, 'condition', 'Specimen condition is required: choose what the specimen looks like', s.id, REJECT);

    const res = await lab1.post(REJECT, { barcode: s.barcode, reason, condition: 'leaked' }).expect(200);
    expect(res.body).to.include({ status: 'Rejected', rejectionReason: reason, condition: 'leaked', message: `Rejected ${s.barcode}: ${reason}` });
    expect(await statusOf(t.ctx.db, s.id)).to.equal('Rejected');
    const view = await lab1.agent.get(`/api/lims/sample/${s.id}`).expect(200);
    const steps = view.body.timeline as { from: string | null; to: string; reason: string | null; actor: { kind: string } }[];
    expect(steps.slice(-2).map((e) => [e.from, e.to, e.reason])).to.deep.equal([
      ['In Transit', 'Rejected', reason],
      ['Rejected', 'Rejected', 'Intake check: specimen leaked · collection time not known'],
    ]);
  });

  it('every condition but acceptable maps to one of the spec\'s reasons; only an insufficient specimen may be received, with a note', async () => {
    for (const condition of SPECIMEN_CONDITIONS) {
      const rule = CONDITION_RULES[condition];
      if (condition === 'acceptable') expect(rule).to.include({ receive: 'receive', rejectionReason: null });
      else expect(REJECTION_REASONS).to.include(rule.rejectionReason);
    }
    for (const condition of ['damaged', 'wrong container', 'unlabelled']) {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
      await refused(checkedKit(s.barcode, { condition }), 'condition', new RegExp(`^A ${condition} specimen cannot be received: reject it`), s.id);
    }
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
    await refused(checkedKit(s.barcode, { condition: 'insufficient' }), 'conditionNote', 'An insufficient specimen is received only with a note saying why it is tested anyway', s.id);
    const res = await lab1.post(RECEIVE, checkedKit(s.barcode, { condition: 'insufficient', conditionNote: 'Low volume; director approved, DNA yield checked at extraction' })).expect(200);
    expect(res.body).to.include({ status: 'In Queue', condition: 'insufficient' });
    const steps = await t.ctx.db.models.SampleStatusEvent.findAll({ where: { sampleId: s.id }, order: [['id', 'ASC']] });
    expect(steps[steps.length - 1].reason).to.match(/^Intake check: specimen insufficient · note: Low volume; director approved, DNA yield checked at extraction · collected /);
  });

  it('a sample the lab already has is rejected without a new intake check (its intake record stays)', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
    await lab1.post(REJECT, { barcode: s.barcode, reason: 'Rejected - specimen expired' }).expect(200);
    const sample = (await t.ctx.db.models.Sample.findByPk(s.id))!;
    expect([sample.status, sample.condition]).to.deep.equal(['Rejected', null]);
  });

  describe("the clinic's order: the collection time when the clinic has collected", () => {
    it('records a valid collection time on the sample; refuses one in the future, more than a day before, or not a time, naming collectedAt', async () => {
      const patient = await addPatient(clinic);
      const order = (collectedAt: unknown) => clinic.session.post(clinic.api('order'), {
        patientId: patient.id, tests: ['PROSTOX ultra'], physicianId: clinic.physicianIds[0], sampleType: 'Buccal Swab', attestations: ALL_ATTESTED, diagnosisCodes: ['C61'], collectedAt,
      });
      const before = await t.ctx.db.models.Sample.count();
      for (const [value, message] of [
        [new Date(Date.now() + 3 * HOUR).toISOString(), 'The collection time cannot be in the future'],
        [new Date(Date.now() - 3 * 24 * HOUR).toISOString(), /^The collection time cannot be more than 24 hours before the order was placed/],
        ['soon', 'Collection time must be a date and time'],
      ] as const) {
        const res = await order(value).expect(400);
        expect(res.body.error.fields[0].field).to.equal('collectedAt');
        if (typeof message === 'string') expect(res.body.error.fields[0].message).to.equal(message);
        else expect(res.body.error.fields[0].message).to.match(message);
      }
      expect(await t.ctx.db.models.Sample.count()).to.equal(before);
      const collectedAt = new Date(Date.now() - 30 * 60_000);
      const placed = await order(collectedAt.toISOString()).expect(201);
      const sample = (await t.ctx.db.models.Sample.findByPk(placed.body.sample.id))!;
      expect(sample.collectedAt?.toISOString()).to.equal(collectedAt.toISOString());
      // Without it the order is placed as before, and intake asks.
      const later = await placeOrder(clinic, patient.id);
      expect((await t.ctx.db.models.Sample.findByPk(later.sampleId))!.collectedAt).to.equal(null);
    });
  });
});
