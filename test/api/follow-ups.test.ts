/**
 * Sample follow-ups, the registry survey's link and the clinic's calls on a sample: another
 * account's follow-ups, samples and patients are invisible (404); bad input is a 400 naming the
 * field; a link answers once, an expired one is refused; the answer shows on the sample's timeline;
 * a CFRT test is added once and only before testing is over; the lists filter by physician.
 */
import { expect } from 'chai';
import { FOLLOW_UP_LINK_MESSAGES, FollowUpStatus, NO_EMAIL_REASON, SampleStatus } from '@platform/domain';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { addPatient, createClinic, placeOrder, uniquePatient, type TestClinic } from '../support/fixtures/clinic';

const QUESTION_LINK = /\/patient-portal\/sample-follow-up\/(\d+)\/response\?token=([0-9a-f]{64})/;

describe('follow-ups and the clinic’s sample calls (API)', function () {
  this.timeout(60_000);
  let t: TestApp;
  let a: TestClinic;
  let b: TestClinic;
  let lab: Session;
  let patientA: { id: number };
  let sampleA: { sampleId: number; barcode: string };

  before(async () => {
    t = await buildTestApp();
    a = await createClinic(t.ctx, t.app, 'Follow A');
    b = await createClinic(t.ctx, t.app, 'Follow B');
    lab = await signIn(t.app, 'lab1', 'lab');
    const withEmail = { ...uniquePatient(), email: `pat-${Date.now()}@patients.test` };
    patientA = await addPatient(a, withEmail);
    sampleA = await placeOrder(a, patientA.id);
  });
  after(() => t.close());

  /** The token of the question email queued for a follow-up (read from the email log before it is sent and redacted). */
  async function questionLink(followUpId: number): Promise<string> {
    const followUp = await t.ctx.db.models.SampleFollowUp.findByPk(followUpId);
    const email = await t.ctx.db.models.Email.findByPk(followUp!.emailId!);
    const match = QUESTION_LINK.exec(email!.textBody);
    expect(match?.[1]).to.equal(String(followUpId));
    return match![2];
  }

  it('the clinic asks a question; the patient answers once through the link; the answer is on the timeline', async () => {
    const asked = await a.session.post(a.api('sample-follow-up'), { sampleId: sampleA.sampleId, question: 'Was the swab collected on the day written on the tube?' }).expect(201);
    expect(asked.body).to.include({ kind: 'question', status: FollowUpStatus.Sent, sampleId: sampleA.sampleId, barcode: sampleA.barcode });
    const token = await questionLink(asked.body.id);

    const patient = await newSession(t.app, '10.55.0.1');
    const view = await patient.agent.get(`/api/sample-follow-up/${asked.body.id}?token=${token}`).expect(200);
    expect(view.body).to.include({ question: 'Was the swab collected on the day written on the tube?', askedBy: 'clinic', clinicName: a.name, barcode: sampleA.barcode });

    const other = await patient.post(`/api/sample-follow-up/${asked.body.id}/response`, { token, answer: 'Other' }).expect(400);
    expect(other.body.error.fields).to.deep.equal([{ field: 'comment', message: 'Please say what "Other" means' }]);
    await patient.post(`/api/sample-follow-up/${asked.body.id}/response`, { token, answer: 'No', comment: 'It was collected the day before' }).expect(201);
    const again = await patient.post(`/api/sample-follow-up/${asked.body.id}/response`, { token, answer: 'Yes' }).expect(409);
    expect(again.body.error).to.deep.include({ code: 'link_used', message: FOLLOW_UP_LINK_MESSAGES.answered });

    const detail = await a.session.agent.get(a.api(`patient/${patientA.id}`)).expect(200);
    const timeline = detail.body.samples.find((s: { id: number }) => s.id === sampleA.sampleId).timeline.map((e: { reason: string | null }) => e.reason);
    expect(timeline).to.include.members([
      'A follow-up question was emailed to the patient',
      'The patient answered the follow-up question: No (It was collected the day before)',
    ]);
    const read = await a.session.agent.get(a.api(`sample-follow-up/${asked.body.id}`)).expect(200);
    expect(read.body).to.deep.include({ status: 'Answered', answer: { answer: 'No', comment: 'It was collected the day before' } });
    const listed = await a.session.agent.get(a.api(`patient/${patientA.id}/follow-ups`)).expect(200);
    expect(listed.body.map((f: { id: number }) => f.id)).to.include(asked.body.id);
  });

  it('another account’s follow-ups, samples and patients are a 404; the lab sees every sample', async () => {
    const asked = await a.session.post(a.api('sample-follow-up'), { sampleId: sampleA.sampleId, question: 'Which cheek did you swab?' }).expect(201);
    const read = await b.session.agent.get(b.api(`sample-follow-up/${asked.body.id}`)).expect(404);
    expect(read.body.error.message).to.equal('Follow-up not found');
    await b.session.post(b.api('sample-follow-up'), { sampleId: sampleA.sampleId, question: 'Hello?' }).expect(404);
    await b.session.agent.get(b.api(`patient/${patientA.id}/follow-ups`)).expect(404);
    // B's user cannot reach A's account at all.
    await b.session.agent.get(`/api/provider-clinic/${a.accountId}/sample-follow-up/${asked.body.id}`).expect(404);

    const byLab = await lab.post('/api/lab-toolbox/sample-follow-up', { sampleId: sampleA.sampleId, question: 'Please confirm the collection time.' }).expect(201);
    expect((await lab.agent.get(`/api/lab-toolbox/sample-follow-up/${asked.body.id}`).expect(200)).body.id).to.equal(asked.body.id);
    const token = await questionLink(byLab.body.id);
    const view = await (await newSession(t.app)).agent.get(`/api/sample-follow-up/${byLab.body.id}?token=${token}`).expect(200);
    expect(view.body).to.include({ askedBy: 'lab', clinicName: null });
    // A clinic user is not the lab, and a link of one follow-up does not open another.
    await a.session.post('/api/lab-toolbox/sample-follow-up', { sampleId: sampleA.sampleId, question: 'x' }).expect(403);
    await (await newSession(t.app)).agent.get(`/api/sample-follow-up/${asked.body.id}?token=${token}`).expect(404);
  });

  it('the lab lists a sample’s follow-ups of any account, with the answer, audited; a clinic user and an unknown sample are refused', async () => {
    const withEmail = { ...uniquePatient(), email: `pat-b-${Date.now()}@patients.test` };
    const other = await addPatient(b, withEmail);
    const sampleB = await placeOrder(b, other.id);
    const byClinic = await b.session.post(b.api('sample-follow-up'), { sampleId: sampleB.sampleId, question: 'Did you eat within 30 minutes of the swab?' }).expect(201);
    const byLab = await lab.post('/api/lab-toolbox/sample-follow-up', { sampleId: sampleB.sampleId, question: 'Was the tube sealed?' }).expect(201);
    await (await newSession(t.app)).post(`/api/sample-follow-up/${byLab.body.id}/response`, { token: await questionLink(byLab.body.id), answer: 'Other', comment: 'Half sealed' }).expect(201);

    const listed = await lab.agent.get(`/api/lab-toolbox/sample/${sampleB.sampleId}/follow-ups`).expect(200);
    expect(listed.headers['cache-control']).to.equal('no-store');
    expect(listed.body.map((f: { id: number; status: string; barcode: string; question: string }) => [f.id, f.status, f.barcode, f.question])).to.deep.equal([
      [byLab.body.id, FollowUpStatus.Answered, sampleB.barcode, 'Was the tube sealed?'],
      [byClinic.body.id, FollowUpStatus.Sent, sampleB.barcode, 'Did you eat within 30 minutes of the swab?'],
    ]);
    expect(listed.body[0].answer).to.deep.equal({ answer: 'Other', comment: 'Half sealed' });
    expect(listed.body[1].answer).to.equal(null);

    const labUserId = (await t.ctx.db.models.User.findOne({ where: { email: 'lab1@demo.test' } }))!.id;
    const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'follow_ups.listed', entityKind: 'sample', entityId: String(sampleB.sampleId) } });
    expect([audit?.actorUserId, (audit?.details as { followUpIds?: number[] }).followUpIds]).to.deep.equal([labUserId, [byLab.body.id, byClinic.body.id]]);

    // A clinic user, even of the sample's own account, is not the lab; nobody signed in is a 401.
    const refused = await b.session.agent.get(`/api/lab-toolbox/sample/${sampleB.sampleId}/follow-ups`).expect(403);
    expect(refused.body.error).to.have.property('message');
    await (await newSession(t.app)).agent.get(`/api/lab-toolbox/sample/${sampleB.sampleId}/follow-ups`).expect(401);
    const unknown = await lab.agent.get('/api/lab-toolbox/sample/999999999/follow-ups').expect(404);
    expect(unknown.body.error.message).to.equal('Sample not found');
    await lab.agent.get('/api/lab-toolbox/sample/abc/follow-ups').expect(404);
  });

  it('bad input is a 400 naming the field; a patient without an email is a 409 naming the sample; an expired link is refused', async () => {
    const bad = await a.session.post(a.api('sample-follow-up'), { sampleId: 'abc', question: '', extra: 1 }).expect(400);
    expect(bad.body.error.fields.map((f: { field: string }) => f.field)).to.deep.equal(['sampleId', 'question', 'extra']);

    const noEmail = await addPatient(a);
    const order = await placeOrder(a, noEmail.id);
    const refused = await a.session.post(a.api('sample-follow-up'), { sampleId: order.sampleId, question: 'Anything?' }).expect(409);
    expect(refused.body.error.fields).to.deep.equal([{ field: 'sampleId', message: `${NO_EMAIL_REASON}: the question cannot be emailed` }]);

    const survey = await (await newSession(t.app)).post(`/api/registry/study/prostox/${sampleA.sampleId}/follow-up-survey`, { token: 'f'.repeat(64), answers: { urineLeaks: 9 } }).expect(400);
    expect(survey.body.error.fields.map((f: { field: string }) => f.field)).to.include.members(['answers.urineLeaks', 'answers.urinePads']);
    const unknown = await (await newSession(t.app)).agent.get(`/api/registry/study/prostox/${sampleA.sampleId}/follow-up-survey?token=${'f'.repeat(64)}`).expect(404);
    expect(unknown.body.error.message).to.equal(FOLLOW_UP_LINK_MESSAGES.invalid);

    const asked = await a.session.post(a.api('sample-follow-up'), { sampleId: sampleA.sampleId, question: 'Still there?' }).expect(201);
    const token = await questionLink(asked.body.id);
    await t.ctx.db.models.SampleFollowUpLink.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { followUpId: asked.body.id } });
    const expired = await (await newSession(t.app)).post(`/api/sample-follow-up/${asked.body.id}/response`, { token, answer: 'Yes' }).expect(410);
    expect(expired.body.error).to.deep.include({ code: 'link_expired', message: FOLLOW_UP_LINK_MESSAGES.expired });
  });

  it('registers a cancer diagnosis for a sample (and replaces it), refusing another account’s sample and bad values', async () => {
    const body = { sampleId: sampleA.sampleId, site: 'Prostate', diagnosedOn: '2026-06-15', stage: 'IIB', gleasonPrimary: 4, gleasonSecondary: 3, psa: 8.4, plannedTreatment: 'Protons' };
    const made = await a.session.post(a.api('sample/patient-register-cancer'), body).expect(201);
    expect(made.body).to.include({ site: 'Prostate', diagnosedOn: '2026-06-15', gradeGroup: 3, psa: 8.4 });
    await a.session.post(a.api('sample/patient-register-cancer'), { ...body, stage: 'III' }).expect(201);
    const listed = await a.session.agent.get(a.api(`patient/${patientA.id}/cancer-diagnoses`)).expect(200);
    expect(listed.body.map((d: { stage: string }) => d.stage)).to.deep.equal(['III']);
    await b.session.post(b.api('sample/patient-register-cancer'), body).expect(404);
    await b.session.agent.get(b.api(`patient/${patientA.id}/cancer-diagnoses`)).expect(404);
    const bad = await a.session.post(a.api('sample/patient-register-cancer'), { ...body, diagnosedOn: '2999-01-01', gleasonSecondary: null, site: 'Breast' }).expect(400);
    expect(bad.body.error.fields.map((f: { field: string }) => f.field)).to.include.members(['diagnosedOn', 'gleasonPrimary', 'psa']);
  });

  it('adds a PROSTOX CFRT test once, only before testing is over, only to the account’s samples', async () => {
    const order = await placeOrder(a, patientA.id);
    const added = await a.session.post(a.api(`sample/${order.sampleId}/add-cfrt-test`), {}).expect(201);
    expect(added.body.tests).to.deep.equal(['PROSTOX ultra', 'PROSTOX CFRT']);
    const twice = await a.session.post(a.api(`sample/${order.sampleId}/add-cfrt-test`), {}).expect(409);
    expect(twice.body.error.fields).to.deep.equal([{ field: 'test', message: 'The sample already has a PROSTOX CFRT test' }]);
    await b.session.post(b.api(`sample/${order.sampleId}/add-cfrt-test`), {}).expect(404);
    const later = await placeOrder(a, patientA.id);
    await t.ctx.db.models.Sample.update({ status: SampleStatus.Resulted }, { where: { id: later.sampleId } });
    const past = await a.session.post(a.api(`sample/${later.sampleId}/add-cfrt-test`), {}).expect(409);
    expect(past.body.error.fields).to.deep.equal([{ field: 'sampleId', message: 'The sample is Resulted' }]);
    await a.session.post(a.api(`sample/${order.sampleId}/add-cfrt-test`), { test: 'x' }).expect(400);
  });

  it('the pending list filters by ordering physician', async () => {
    const patient = await addPatient(a);
    const first = await placeOrder(a, patient.id, { physicianId: a.physicianIds[0] });
    const second = await placeOrder(a, patient.id, { physicianId: a.physicianIds[1] });
    const ids = async (physicianId: number) =>
      (await a.session.agent.get(a.api(`tests?category=PENDING&pageSize=200&physicianId=${physicianId}`)).expect(200)).body.map((r: { sampleId: number }) => r.sampleId);
    const mine = await ids(a.physicianIds[0]);
    const theirs = await ids(a.physicianIds[1]);
    expect(mine).to.include(first.sampleId).and.not.include(second.sampleId);
    expect(theirs).to.deep.equal([second.sampleId]);
    const res = await a.session.agent.get(a.api(`tests?category=PENDING&physicianId=${a.physicianIds[1]}`)).expect(200);
    expect(res.headers['x-total-count']).to.equal('1');
    const bad = await a.session.agent.get(a.api('tests?category=PENDING&physicianId=abc')).expect(400);
    expect(bad.body.error.fields.map((f: { field: string }) => f.field)).to.deep.equal(['physicianId']);
  });
});
