/**
 * The patient's result link: greeting before verification, date-of-birth check, lockout after ten
 * wrong answers and its reset by a provider's re-send, the per-address throttle, view logging,
 * contact updates, the language switch (stored with the patient, their emails follow it) and the
 * PDF download. The link comes from the patient's email in the catcher.
 */
import { expect } from 'chai';
import { RESULT_LINK_MAX_DOB_FAILURES } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, newSession, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { waitForMail } from '../support/mail';
import { binary, createClinic, deliveredResult, pdfText, resultLinkIn, signInAs, uniq, type Clinic } from '../support/fixtures/reports';

const LOCKED = 'This link is locked after too many attempts. Please contact your provider to have it sent again.';
const DOB = '1957-08-19';
const base = '/api/reports/patient-result';

/** A distinct client address per test: the per-address throttle must not leak between tests. */
const ip = () => `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

describe('patient result link (API)', function () {
  this.timeout(60_000);
  let t: TestApp;
  let worker: RunningWorker;
  let clinic: Clinic;

  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    clinic = await createClinic(t.ctx.db, 'patient');
  });
  after(async () => {
    await worker?.close();
    await t?.close();
  });

  const delivered = (overrides: Partial<Parameters<typeof deliveredResult>[1]> = {}) =>
    deliveredResult(t.ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'High Risk', ...overrides });

  const auditCount = (action: string, sampleId: number) =>
    t.ctx.db.models.AuditEvent.count({ where: { action, entityKind: 'sample', entityId: String(sampleId) } });

  async function verified(link: { barcode: string; token: string }, address = ip()): Promise<Session> {
    const s = await newSession(t.app, address);
    await s.post(`${base}/verify-patient`, { barcode: link.barcode, token: link.token, dateOfBirth: DOB }).expect(200);
    return s;
  }

  it('before verification tells only the first name and last initial; a bad token or barcode is the same 404', async () => {
    const { fixture, link } = await delivered();
    const s = await newSession(t.app, ip());
    const res = await s.agent.get(`${base}/${link!.barcode}?token=${link!.token}`).expect(200);
    expect(res.body).to.deep.equal({ firstName: fixture.patient.firstName, lastInitial: 'Q', locked: false, verified: false });
    expect(JSON.stringify(res.body)).to.not.include(fixture.patient.lastName);

    const wrongToken = await s.agent.get(`${base}/${link!.barcode}?token=${'0'.repeat(64)}`).expect(404);
    const wrongBarcode = await s.agent.get(`${base}/41000000000001?token=${link!.token}`).expect(404);
    const malformed = await s.agent.get(`${base}/${link!.barcode}?token=abc`).expect(404);
    const missing = await s.agent.get(`${base}/${link!.barcode}`).expect(404);
    for (const other of [wrongBarcode, malformed, missing]) expect(other.body.error).to.deep.equal(wrongToken.body.error);
  });

  it('a wrong date of birth says so with the attempts left; the right one shows the result', async () => {
    const { fixture, link } = await delivered();
    const s = await newSession(t.app, ip());
    const wrong = await s.post(`${base}/verify-patient`, { barcode: link!.barcode, token: link!.token, dateOfBirth: '1957-09-18' }).expect(400);
    expect(wrong.body.error.code).to.equal('dob_mismatch');
    expect(wrong.body.error.message).to.equal('The date of birth does not match our records. You have 9 attempts left.');

    const ok = await s.post(`${base}/verify-patient`, { barcode: link!.barcode, token: link!.token, dateOfBirth: DOB }).expect(200);
    expect(ok.body.verified).to.equal(true);
    expect(ok.body.result.patientName).to.equal(`${fixture.patient.firstName} ${fixture.patient.lastName}`);
    expect(ok.body.result.barcode).to.equal(fixture.barcode);
    expect(ok.body.result.reportAvailable).to.equal(true);
    expect(ok.body.result.results).to.have.length(1);
    expect(ok.body.result.results[0]).to.include({
      testName: 'PROSTOX ultra', value: 'High Risk', valueText: 'High Risk', corrected: false,
    });
    // The clinician's interpretation is the report's; the patient's page words the result for the patient.
    expect(ok.body.result.results[0]).to.not.have.property('interpretation');
    const { lab } = t.ctx.config;
    expect(ok.body.result.contacts).to.deep.equal({
      lab: { name: lab.name, phone: lab.phone, email: lab.email },
      clinic: { name: clinic.account.name, physician: `${clinic.physician.firstName} ${clinic.physician.lastName}`, phone: null, email: clinic.email },
    });
    expect(ok.body.result.results[0].releasedAt).to.equal('2026-10-20T16:30:00.000Z');
    // A right answer resets nothing: the one wrong answer still counts.
    const row = await t.ctx.db.models.PatientResultLink.findOne({ where: { sampleId: fixture.sampleId, revokedAt: null } });
    expect(row!.dobFailures).to.equal(1);

    // The same browser session sees the result on reload; another browser does not.
    const again = await s.agent.get(`${base}/${link!.barcode}?token=${link!.token}`).expect(200);
    expect(again.body.verified).to.equal(true);
    expect(again.body.result.results[0].value).to.equal('High Risk');
    const stranger = await newSession(t.app, ip());
    const strangerView = await stranger.agent.get(`${base}/${link!.barcode}?token=${link!.token}`).expect(200);
    expect(strangerView.body).to.not.have.property('result');
    expect(strangerView.body.verified).to.equal(false);
  });

  it('a link past its time answers like a wrong one, even to a date of birth that matches', async () => {
    const { link } = await delivered();
    const s = await newSession(t.app, ip());
    await s.agent.get(`${base}/${link!.barcode}?token=${link!.token}`).expect(200);
    await t.ctx.db.models.PatientResultLink.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { sampleId: (await t.ctx.db.models.Sample.findOne({ where: { barcode: link!.barcode } }))!.id } });
    const expired = await s.agent.get(`${base}/${link!.barcode}?token=${link!.token}`).expect(404);
    const wrong = await s.agent.get(`${base}/${link!.barcode}?token=${'0'.repeat(64)}`).expect(404);
    expect(expired.body.error).to.deep.equal(wrong.body.error);
    await s.post(`${base}/verify-patient`, { barcode: link!.barcode, token: link!.token, dateOfBirth: DOB }).expect(404);
  });

  it('refuses a malformed date of birth without counting it', async () => {
    const { fixture, link } = await delivered();
    const s = await newSession(t.app, ip());
    const res = await s.post(`${base}/verify-patient`, { barcode: link!.barcode, token: link!.token, dateOfBirth: '1957-02-30' }).expect(400);
    expect(res.body.error.code).to.equal('validation_failed');
    const row = await t.ctx.db.models.PatientResultLink.findOne({ where: { sampleId: fixture.sampleId, revokedAt: null } });
    expect(row!.dobFailures).to.equal(0);
  });

  it('10 wrong answers lock the link (even the right answer then gets 423); a provider re-send issues a new working link and the old one dies', async () => {
    const { fixture, link } = await delivered();
    const s = await newSession(t.app, ip());
    const attempt = (dateOfBirth: string) => s.post(`${base}/verify-patient`, { barcode: link!.barcode, token: link!.token, dateOfBirth });
    for (let i = 1; i < RESULT_LINK_MAX_DOB_FAILURES; i++) {
      const res = await attempt('1960-01-01').expect(400);
      expect(res.body.error.message).to.include(`You have ${RESULT_LINK_MAX_DOB_FAILURES - i} attempt`);
    }
    const tenth = await attempt('1960-01-01').expect(423);
    expect(tenth.body.error).to.deep.equal({ code: 'locked', message: LOCKED });
    const right = await attempt(DOB).expect(423);
    expect(right.body.error).to.deep.equal({ code: 'locked', message: LOCKED });
    expect(right.body).to.not.have.property('result');
    const greeting = await s.agent.get(`${base}/${link!.barcode}?token=${link!.token}`).expect(200);
    expect(greeting.body).to.include({ locked: true, verified: false });
    const row = await t.ctx.db.models.PatientResultLink.findOne({ where: { sampleId: fixture.sampleId, revokedAt: null } });
    expect(row!.lockedAt).to.be.instanceOf(Date);
    expect(row!.dobFailures).to.equal(RESULT_LINK_MAX_DOB_FAILURES);

    // The provider re-sends the link.
    const provider = await signInAs(t.app, clinic.email);
    const sent = await provider.post(`/api/provider-clinic/${clinic.account.id}/patient/send-result-email`, { sampleId: fixture.sampleId }).expect(202);
    expect(sent.body.sentTo).to.equal(fixture.patient.email);
    const mails = await waitForMail(fixture.patient.email!, 2);
    const fresh = resultLinkIn(mails[1].text);
    expect(fresh.token).to.not.equal(link!.token);

    const old = await s.agent.get(`${base}/${link!.barcode}?token=${link!.token}`).expect(404);
    expect(old.body.error.code).to.equal('not_found');
    await s.post(`${base}/verify-patient`, { barcode: link!.barcode, token: link!.token, dateOfBirth: DOB }).expect(404);

    const opened = await s.agent.get(`${base}/${fresh.barcode}?token=${fresh.token}`).expect(200);
    expect(opened.body).to.include({ locked: false, verified: false });
    const ok = await s.post(`${base}/verify-patient`, { barcode: fresh.barcode, token: fresh.token, dateOfBirth: DOB }).expect(200);
    expect(ok.body.result.results[0].value).to.equal('High Risk');
    const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'result.link_sent', entityKind: 'sample', entityId: String(fixture.sampleId) } });
    expect(audit!.actorKind).to.equal('provider');
    expect(audit!.actorUserId).to.equal(clinic.userId);
  });

  it('the per-address throttle answers 429 with Retry-After, whatever the link', async () => {
    const { link } = await delivered({ withReport: false });
    const address = ip();
    const s = await newSession(t.app, address);
    for (let i = 0; i < 30; i++) {
      // unknown links: each attempt counts for the address, no link is touched
      await s.post(`${base}/verify-patient`, { barcode: `4199${String(i).padStart(10, '0')}`, token: 'a'.repeat(64), dateOfBirth: DOB }).expect(404);
    }
    const blocked = await s.post(`${base}/verify-patient`, { barcode: link!.barcode, token: link!.token, dateOfBirth: DOB }).expect(429);
    expect(Number(blocked.headers['retry-after'])).to.be.greaterThan(0);
    expect(blocked.body.error.code).to.equal('too_many_attempts');
    // another address is not affected
    await verified(link!, ip());
  });

  it('log-view-result writes one audit row per view, only for a verified session', async () => {
    const { fixture, link } = await delivered({ withReport: false });
    const body = { barcode: link!.barcode, token: link!.token };
    const stranger = await newSession(t.app, ip());
    const refused = await stranger.post(`${base}/log-view-result`, body).expect(403);
    expect(refused.body.error.code).to.equal('not_verified');
    expect(await auditCount('result.viewed', fixture.sampleId)).to.equal(0);

    const s = await verified(link!);
    await s.post(`${base}/log-view-result`, body).expect(204);
    await s.post(`${base}/log-view-result`, body).expect(204);
    expect(await auditCount('result.viewed', fixture.sampleId)).to.equal(2);
    const row = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'result.viewed', entityId: String(fixture.sampleId) } });
    expect(row!.actorKind).to.equal('patient');
    expect(JSON.stringify(row!.details)).to.not.include('High Risk');
  });

  it('update-demographic-info changes contact details for a verified session; unknown fields are refused and nothing is written', async () => {
    const { fixture, link } = await delivered({ withReport: false });
    const s = await verified(link!);
    const bad = await s.post(`${base}/update-demographic-info`, { barcode: link!.barcode, token: link!.token, phone: '555-0100', dateOfBirth: '1990-01-01' }).expect(400);
    expect(bad.body.error.fields.map((f: { field: string }) => f.field)).to.include('dateOfBirth');
    const unchanged = await t.ctx.db.models.Patient.findByPk(fixture.patientId);
    expect(unchanged!.phone).to.equal(null);
    expect(unchanged!.dateOfBirth).to.equal(DOB);
    expect(await t.ctx.db.models.AuditEvent.count({ where: { action: 'patient.contact_updated', entityKind: 'patient', entityId: String(fixture.patientId) } })).to.equal(0);

    await s.post(`${base}/update-demographic-info`, { barcode: link!.barcode, token: link!.token }).expect(400);
    const stranger = await newSession(t.app, ip());
    await stranger.post(`${base}/update-demographic-info`, { barcode: link!.barcode, token: link!.token, phone: '555-0100' }).expect(403);

    const newEmail = `walter.new.${uniq()}@patients.test`;
    const ok = await s.post(`${base}/update-demographic-info`, {
      barcode: link!.barcode, token: link!.token, email: newEmail, phone: '(555) 010-0199', addressLine1: '12 Elm Street', city: 'Springfield', state: 'IL', postalCode: '62701',
    }).expect(200);
    expect(ok.body.contact).to.include({ email: newEmail, phone: '(555) 010-0199', city: 'Springfield', postalCode: '62701' });
    const patient = await t.ctx.db.models.Patient.findByPk(fixture.patientId);
    expect(patient!.get({ plain: true })).to.include({ email: newEmail, phone: '(555) 010-0199', addressLine1: '12 Elm Street', city: 'Springfield', state: 'IL', postalCode: '62701' });
    const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'patient.contact_updated', entityKind: 'patient', entityId: String(fixture.patientId) } });
    expect(audit!.actorKind).to.equal('patient');
    expect((audit!.details as { fields: string[] }).fields).to.have.members(['email', 'phone', 'addressLine1', 'city', 'state', 'postalCode']);
    expect(JSON.stringify(audit!.details)).to.not.include('Elm');
  });

  it('set-language stores a verified patient\'s choice (audited); the re-sent result email is then in Spanish', async () => {
    const { fixture, link } = await delivered({ withReport: false });
    const [first] = await waitForMail(fixture.patient.email!);
    expect(first.subject).to.match(/test result is ready$/);
    const stranger = await newSession(t.app, ip());
    await stranger.post(`${base}/set-language`, { barcode: link!.barcode, token: link!.token, language: 'es' }).expect(403);
    const s = await verified(link!);
    const bad = await s.post(`${base}/set-language`, { barcode: link!.barcode, token: link!.token, language: 'fr' }).expect(400);
    expect(bad.body.error.fields[0].field).to.equal('language');
    expect((await t.ctx.db.models.Patient.findByPk(fixture.patientId))!.preferredLanguage).to.equal('en');

    const ok = await s.post(`${base}/set-language`, { barcode: link!.barcode, token: link!.token, language: 'es' }).expect(200);
    expect(ok.body).to.deep.equal({ language: 'es' });
    expect((await t.ctx.db.models.Patient.findByPk(fixture.patientId))!.preferredLanguage).to.equal('es');
    const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'patient.language_changed', entityKind: 'patient', entityId: String(fixture.patientId) } });
    expect(audit!.actorKind).to.equal('patient');

    const provider = await signInAs(t.app, clinic.email);
    await provider.post(`/api/provider-clinic/${clinic.account.id}/patient/send-result-email`, { sampleId: fixture.sampleId }).expect(202);
    const mails = await waitForMail(fixture.patient.email!, 2);
    expect(mails[1].subject).to.match(/^Su resultado de la prueba de .+ está listo$/);
    expect(mails[1].text).to.include('Para verlo, abra este enlace. Para proteger su privacidad, primero le pediremos su fecha de nacimiento:');
    expect(resultLinkIn(mails[1].text).barcode).to.equal(link!.barcode);
    // The link opens the page in Spanish too (before: the page followed the browser only; issue 25, item 10).
    expect(mails[1].text).to.match(/\/reports\/patient_result\/\S+\?token=[0-9a-f]{64}&lang=es(\s|$)/);
    expect(mails[0].text).to.not.include('lang=');
  });

  it('the verified patient downloads the lab report PDF (audited); others cannot', async () => {
    const { fixture, link } = await delivered();
    const path = `${base}/${link!.barcode}/report.pdf?token=${link!.token}`;
    const stranger = await newSession(t.app, ip());
    await stranger.agent.get(path).expect(403);
    expect(await auditCount('result.downloaded', fixture.sampleId)).to.equal(0);

    const s = await verified(link!);
    const res = await s.agent.get(path).buffer(true).parse(binary).expect(200);
    expect(res.headers['content-type']).to.equal('application/pdf');
    expect(res.headers['content-disposition']).to.include(`lab-report-${fixture.barcode}.pdf`);
    const text = await pdfText(res.body as Buffer);
    expect(text).to.include(fixture.barcode);
    expect(text).to.include('Result: High Risk');
    expect(await auditCount('result.downloaded', fixture.sampleId)).to.equal(1);
  });

  it('says the report is not ready when none was rendered yet', async () => {
    const { link } = await delivered({ withReport: false });
    const s = await verified(link!);
    const view = await s.agent.get(`${base}/${link!.barcode}?token=${link!.token}`).expect(200);
    expect(view.body.result.reportAvailable).to.equal(false);
    const res = await s.agent.get(`${base}/${link!.barcode}/report.pdf?token=${link!.token}`).expect(404);
    expect(res.body.error).to.deep.equal({ code: 'not_ready', message: 'The report is not ready yet' });
  });

  it('every POST needs the CSRF token', async () => {
    const { link } = await delivered({ withReport: false });
    const s = await newSession(t.app, ip());
    await s.agent.post(`${base}/verify-patient`).send({ barcode: link!.barcode, token: link!.token, dateOfBirth: DOB }).expect(403);
  });
});
