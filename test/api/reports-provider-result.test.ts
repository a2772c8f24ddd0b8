/**
 * The provider's side of a result: downloading the report of a sample of their own account
 * (audited; 404 to everyone else) and re-sending the patient's result email.
 */
import { expect } from 'chai';
import { SampleStatus, TestResultStatus } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, signIn, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { mailTo, waitForMail } from '../support/mail';
import { emailsSettled } from '../support/jobs';
import { binary, createClinic, createResult, deliveredResult, pdfText, releaseCorrection, runJob, signInAs, type Clinic } from '../support/fixtures/reports';

describe('provider result (API)', function () {
  this.timeout(60_000);
  let t: TestApp;
  let worker: RunningWorker;
  let clinic: Clinic;
  let otherClinic: Clinic;

  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    clinic = await createClinic(t.ctx.db, 'provider');
    otherClinic = await createClinic(t.ctx.db, 'other');
  });
  after(async () => {
    await worker?.close();
    await t?.close();
  });

  const downloads = (sampleId: number) =>
    t.ctx.db.models.AuditEvent.findAll({ where: { action: 'report.downloaded', entityKind: 'sample', entityId: String(sampleId) } });

  describe('GET /api/metabase/samples/:sampleId/reports/download', () => {
    it('the account\'s provider downloads the current report, and the download is audited', async () => {
      const { fixture } = await deliveredResult(t.ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'Intermediate Risk' });
      const provider = await signInAs(t.app, clinic.email);
      const res = await provider.agent.get(`/api/metabase/samples/${fixture.sampleId}/reports/download`).buffer(true).parse(binary).expect(200);
      expect(res.headers['content-type']).to.equal('application/pdf');
      expect(res.headers['content-disposition']).to.match(new RegExp(`^attachment; filename="lab-report-${fixture.barcode}\\.pdf"$`));
      const text = await pdfText(res.body as Buffer);
      expect(text).to.include(`${fixture.patient.firstName} ${fixture.patient.lastName}`);
      expect(text).to.include('Result: Intermediate Risk');

      await provider.agent.get(`/api/metabase/samples/${fixture.sampleId}/reports/download`).expect(200);
      const audit = await downloads(fixture.sampleId);
      expect(audit).to.have.length(2);
      expect(audit[0].actorUserId).to.equal(clinic.userId);
      expect(audit[0].actorKind).to.equal('provider');
      expect(audit[0].details).to.include({ accountId: clinic.account.id });
    });

    it('after a correction it answers the corrected report', async () => {
      const { fixture } = await deliveredResult(t.ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'Low-Average Risk' });
      const correctionId = await releaseCorrection(t.ctx.db, fixture, 'High Risk', 'Transcription error');
      await runJob(t.ctx, 'render-pdf', { sampleId: fixture.sampleId, documentType: 'lab_report', testResultId: correctionId });
      const provider = await signInAs(t.app, clinic.email);
      const res = await provider.agent.get(`/api/metabase/samples/${fixture.sampleId}/reports/download`).buffer(true).parse(binary).expect(200);
      expect(res.headers['content-disposition']).to.include('-corrected.pdf');
      const text = await pdfText(res.body as Buffer);
      expect(text).to.include('CORRECTED REPORT');
      expect(text).to.include('Result: High Risk');
    });

    it('is 404 (nothing leaked, nothing audited) for a provider of another account, the researcher and an unknown id; 403 for a lab user; 401 signed out', async () => {
      const { fixture } = await deliveredResult(t.ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id });
      const path = `/api/metabase/samples/${fixture.sampleId}/reports/download`;
      const other = await signInAs(t.app, otherClinic.email);
      const res = await other.agent.get(path).expect(404);
      expect(JSON.stringify(res.body)).to.not.include(fixture.barcode);
      const researcher = await signIn(t.app, 'researcher', 'research');
      await researcher.agent.get(path).expect(404);
      const physician = await signIn(t.app, 'physician', 'provider'); // the demo physician: Riverside and Lakeside, not this clinic
      await physician.agent.get(path).expect(404);
      const lab = await signIn(t.app, 'lab1', 'lab');
      await lab.agent.get(path).expect(403);
      const mine = await signInAs(t.app, clinic.email);
      await mine.agent.get('/api/metabase/samples/999999999/reports/download').expect(404);
      await mine.agent.get('/api/metabase/samples/abc/reports/download').expect(404);
      const { default: request } = await import('supertest');
      await request(t.app).get(path).expect(401);
      expect(await downloads(fixture.sampleId)).to.have.length(0);
    });

    it('answers 404 not_ready while no report has been rendered', async () => {
      const fixture = await createResult(t.ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id });
      const provider = await signInAs(t.app, clinic.email);
      const res = await provider.agent.get(`/api/metabase/samples/${fixture.sampleId}/reports/download`).expect(404);
      expect(res.body.error).to.deep.equal({ code: 'not_ready', message: 'The report is not ready yet' });
    });
  });

  describe('POST /api/provider-clinic/:accountId/patient/send-result-email', () => {
    it('sends the patient a new link (send-cancer-result-email too); the earlier link is revoked', async () => {
      const { fixture, link } = await deliveredResult(t.ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, withReport: false });
      const provider = await signInAs(t.app, clinic.email);
      const res = await provider.post(`/api/provider-clinic/${clinic.account.id}/patient/send-cancer-result-email`, { sampleId: fixture.sampleId }).expect(202);
      expect(res.body).to.deep.equal({ message: 'The result link was emailed to the patient.', sentTo: fixture.patient.email });
      const mails = await waitForMail(fixture.patient.email!, 2);
      expect(mails[1].text).to.not.include(link!.token);
      expect(mails[1].text).to.not.include('High Risk');
      const links = await t.ctx.db.models.PatientResultLink.findAll({ where: { sampleId: fixture.sampleId }, order: [['id', 'ASC']] });
      expect(links).to.have.length(2);
      expect(links[0].revokedAt).to.be.instanceOf(Date);
      expect(links[1].createdByUserId).to.equal(clinic.userId);
    });

    it('refuses other accounts\' samples (404), unknown fields (400), a sample without a released result or a patient without email (409); nothing is sent', async () => {
      const { fixture } = await deliveredResult(t.ctx, { accountId: clinic.account.id, physicianId: clinic.physician.id, withReport: false });
      const other = await signInAs(t.app, otherClinic.email);
      await other.post(`/api/provider-clinic/${clinic.account.id}/patient/send-result-email`, { sampleId: fixture.sampleId }).expect(404);
      await other.post(`/api/provider-clinic/${otherClinic.account.id}/patient/send-result-email`, { sampleId: fixture.sampleId }).expect(404);
      const researcher = await signIn(t.app, 'researcher', 'research');
      await researcher.post(`/api/provider-clinic/${clinic.account.id}/patient/send-result-email`, { sampleId: fixture.sampleId }).expect(404);

      const provider = await signInAs(t.app, clinic.email);
      await provider.post(`/api/provider-clinic/${clinic.account.id}/patient/send-result-email`, { sampleId: fixture.sampleId, email: 'x@y.test' }).expect(400);

      const pending = await createResult(t.ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, resultStatus: TestResultStatus.InReview, sampleStatus: SampleStatus.InTesting });
      const notReleased = await provider.post(`/api/provider-clinic/${clinic.account.id}/patient/send-result-email`, { sampleId: pending.sampleId }).expect(409);
      expect(notReleased.body.error.message).to.equal('This sample has no released result yet');

      const noEmail = await createResult(t.ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, patientEmail: null });
      const refused = await provider.post(`/api/provider-clinic/${clinic.account.id}/patient/send-result-email`, { sampleId: noEmail.sampleId }).expect(409);
      expect(refused.body.error.message).to.match(/no email address/);

      // Every refusal was answered, so whatever it queued is logged; wait until those emails are sent, then count.
      expect(await emailsSettled(t.ctx, fixture.patient.email!), 'emails logged for the patient').to.equal(1);
      expect(await mailTo(fixture.patient.email!)).to.have.length(1); // only the first notification
      expect(await emailsSettled(t.ctx, pending.patient.email!), 'emails logged for the patient whose result is in review').to.equal(0);
      expect(await t.ctx.db.models.PatientResultLink.count({ where: { sampleId: fixture.sampleId } })).to.equal(1);
      expect(await t.ctx.db.models.PatientResultLink.count({ where: { sampleId: pending.sampleId } })).to.equal(0);
    });
  });
});
