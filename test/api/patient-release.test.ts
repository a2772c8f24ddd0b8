/**
 * The patient release policy per test (issue 29, part 5), through the API and the real worker:
 * the admin's policies (GET / PUT, audited with old and new values); a result of a test set "To the
 * clinic first" emails the clinic at release but not the patient, and goes to the patient when a
 * provider of the account marks it reviewed, or when the hold ends (the scanner's look with a
 * clock moved N days ahead); meanwhile the patient reads nothing of it through any endpoint.
 */
import { expect } from 'chai';
import { JobStatus, PatientReleasePolicy } from '@platform/domain';
import { issuePatientResultLink, releaseDueHolds } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { mailTo, waitForMail } from '../support/mail';
import { emailsSettled } from '../support/jobs';
import { createClinic, createResult, resultLinkIn, runJob, signInAs, type Clinic, type ResultFixture } from '../support/fixtures/reports';

const DOB = '1957-08-19';
const DAY_MS = 24 * 3600_000;
const HELD_TEST = 'PREVIOTOX';
const POLICIES = '/api/admin/patient-release/policies';
const patientBase = '/api/reports/patient-result';
const ip = () => `10.78.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

describe('patient release policy (API and worker)', function () {
  this.timeout(90_000);
  let t: TestApp;
  let worker: RunningWorker;
  let clinic: Clinic;
  let otherClinic: Clinic;
  let admin: Session;
  let provider: Session;

  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    clinic = await createClinic(t.ctx.db, 'release');
    otherClinic = await createClinic(t.ctx.db, 'elsewhere');
    admin = await signIn(t.app, 'admin', 'admin', '10.78.0.1');
    provider = await signInAs(t.app, clinic.email, 'provider', '10.78.0.2');
  });
  after(async () => {
    // Files after this one in the same process find the default policy again.
    await t?.ctx.db.sequelize.query('DELETE FROM patient_release_policies');
    await worker?.close();
    await t?.close();
  });

  const audits = (action: string, where: Record<string, unknown> = {}) =>
    t.ctx.db.models.AuditEvent.findAll({ where: { action, ...where }, order: [['id', 'ASC']] });

  /** A released PREVIOTOX result of the clinic, its lab report rendered. */
  async function heldCandidate(): Promise<ResultFixture> {
    const r = await createResult(t.ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, testName: HELD_TEST, value: 'High Risk' });
    const rendered = await runJob(t.ctx, 'render-pdf', { sampleId: r.sampleId, documentType: 'lab_report', testResultId: r.resultId });
    expect(rendered.status, String(rendered.error)).to.equal(JobStatus.Completed);
    return r;
  }

  /** A link to the sample as an earlier email would have given it (a patient may hold one from another test of the sample). */
  async function earlierLink(r: ResultFixture): Promise<{ barcode: string; token: string }> {
    const m = t.ctx.db.models;
    const { token } = await t.ctx.db.sequelize.transaction(async (transaction) =>
      issuePatientResultLink(t.ctx, transaction, (await m.Sample.findByPk(r.sampleId, { transaction }))!, (await m.Patient.findByPk(r.patientId, { transaction }))!, { createdByUserId: null }));
    return { barcode: r.barcode, token };
  }

  async function verifiedAs(link: { barcode: string; token: string }): Promise<{ session: Session; body: Record<string, any> }> {
    const session = await newSession(t.app, ip());
    const res = await session.post(`${patientBase}/verify-patient`, { barcode: link.barcode, token: link.token, dateOfBirth: DOB });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return { session, body: res.body };
  }

  /** Every patient-facing read of the sample: none shows the held result, the report is refused. */
  async function expectNothingForThePatient(link: { barcode: string; token: string }, availableBy: string | null) {
    const { session, body } = await verifiedAs(link);
    for (const view of [body.result, (await session.agent.get(`${patientBase}/${link.barcode}?token=${link.token}`).expect(200)).body.result]) {
      expect(view.results, 'no result shown').to.deep.equal([]);
      expect(view.reportAvailable).to.equal(false);
      expect(view.inReview).to.have.length(1);
      expect(view.inReview[0].testName).to.equal(HELD_TEST);
      if (availableBy) expect(view.inReview[0].availableBy).to.equal(availableBy);
      expect(JSON.stringify(view)).to.not.include('High Risk');
    }
    const pdf = await session.agent.get(`${patientBase}/${link.barcode}/report.pdf?token=${link.token}`).expect(404);
    expect(pdf.body.error.code).to.equal('in_review');
    expect(pdf.body.error.message).to.equal('Your report will be available once your clinician has reviewed your result.');
  }

  async function completedRow(sampleId: number) {
    const res = await provider.agent.get(`/api/provider-clinic/${clinic.account.id}/tests?category=COMPLETED&pageSize=100`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return (res.body as { sampleId: number; awaitingReview: { tests: string[]; releaseDueAt: string } | null }[]).find((r) => r.sampleId === sampleId);
  }

  describe('the admin\'s policies', () => {
    it('lists every test whose results go to patients with the default; PUT sets one, audited with old and new values', async () => {
      const list = (await admin.agent.get(POLICIES).expect(200)).body as { testName: string; policy: string; holdDays: number; custom: boolean }[];
      expect(list.map((p) => p.testName)).to.include.members(['PROSTOX ultra', 'PROSTOX CFRT', 'KRAS', 'PREVIOTOX', 'COVID-19 PCR']);
      expect(list.map((p) => p.testName), 'research tests and processing steps have no policy').to.not.include.members(['PROSTOX Research', 'SARCOMA', 'DNA Extraction']);
      expect(list.find((p) => p.testName === HELD_TEST)).to.include({ policy: PatientReleasePolicy.OnRelease, holdDays: 3, custom: false });

      const put = await admin.put(POLICIES, { testName: HELD_TEST, policy: PatientReleasePolicy.ClinicFirst, holdDays: 5 }).expect(200);
      expect(put.body).to.include({ testName: HELD_TEST, policy: PatientReleasePolicy.ClinicFirst, holdDays: 5, custom: true, updatedBy: 'Ada Admin' });
      const again = await admin.put(POLICIES, { testName: HELD_TEST, policy: PatientReleasePolicy.ClinicFirst, holdDays: 3 }).expect(200);
      expect(again.body.holdDays).to.equal(3);
      const [first, second] = (await audits('patient_release_policy.updated')).slice(-2);
      expect(first.details).to.deep.include({
        testName: HELD_TEST,
        old: { policy: PatientReleasePolicy.OnRelease, holdDays: 3, custom: false },
        new: { policy: PatientReleasePolicy.ClinicFirst, holdDays: 5 },
      });
      expect(second.details).to.deep.include({ old: { policy: PatientReleasePolicy.ClinicFirst, holdDays: 5, custom: true }, new: { policy: PatientReleasePolicy.ClinicFirst, holdDays: 3 } });
    });

    it('refuses bad input naming the field, and anyone but an admin', async () => {
      const days = await admin.put(POLICIES, { testName: HELD_TEST, policy: PatientReleasePolicy.ClinicFirst, holdDays: 31 }).expect(400);
      expect(JSON.stringify(days.body.error)).to.include('holdDays');
      const test = await admin.put(POLICIES, { testName: 'SARCOMA', policy: PatientReleasePolicy.ClinicFirst, holdDays: 3 }).expect(400);
      expect(JSON.stringify(test.body.error)).to.include('testName');
      const policy = await admin.put(POLICIES, { testName: HELD_TEST, policy: 'Never', holdDays: 3 }).expect(400);
      expect(JSON.stringify(policy.body.error)).to.include('policy');
      await provider.put(POLICIES, { testName: HELD_TEST, policy: PatientReleasePolicy.OnRelease, holdDays: 3 }).expect(403);
      await provider.agent.get(POLICIES).expect(403);
      const now = (await admin.agent.get(POLICIES).expect(200)).body.find((p: { testName: string }) => p.testName === HELD_TEST);
      expect(now).to.include({ policy: PatientReleasePolicy.ClinicFirst, holdDays: 3 });
    });
  });

  describe('a test released to the clinic first', () => {
    before(async () => {
      await admin.put(POLICIES, { testName: HELD_TEST, policy: PatientReleasePolicy.ClinicFirst, holdDays: 3 }).expect(200);
    });

    it('at release emails only the clinic; the patient sees nothing of it until a provider of the account marks it reviewed, then gets the email and the result', async () => {
      const r = await heldCandidate();
      const link = await earlierLink(r);
      // Before notify-result decides, the released result is already not the patient's.
      await expectNothingForThePatient(link, null);

      const started = Date.now();
      const job = await runJob(t.ctx, 'notify-result', { testResultId: r.resultId });
      expect(job.status, String(job.error)).to.equal(JobStatus.Completed);
      expect(job.result).to.include({ providerEmails: 1, patientEmail: false });
      // The job is over: every email it logged has been sent once these settle.
      expect(await emailsSettled(t.ctx, r.patient.email!), 'patient emails logged at release').to.equal(0);
      await emailsSettled(t.ctx, clinic.email);
      expect(await mailTo(r.patient.email!)).to.have.length(0);
      const clinicMails = (await mailTo(clinic.email)).filter((mail) => mail.subject.includes(r.barcode));
      expect(clinicMails.map((mail) => mail.subject)).to.deep.equal([`Result ready: PREVIOTOX for sample ${r.barcode}`]);

      const [held] = await audits('result.held_for_clinic', { entityId: String(r.testId) });
      const due = new Date(held.details.releaseDueAt as string).getTime();
      expect(due - started).to.be.within(3 * DAY_MS - 60_000, 3 * DAY_MS + 60_000);

      // The clinic's Completed list says it waits for the clinic's review.
      const row = await completedRow(r.sampleId);
      expect(row?.awaitingReview?.tests).to.deep.equal([HELD_TEST]);
      expect(row?.awaitingReview?.releaseDueAt).to.equal(new Date(due).toISOString());

      // The patient: nothing, the report refused, the date it is available by; the clinic's re-send refused.
      await expectNothingForThePatient(link, new Date(due).toISOString());
      const resend = await provider.post(`/api/provider-clinic/${clinic.account.id}/patient/send-result-email`, { sampleId: r.sampleId }).expect(409);
      expect(resend.body.error.message).to.equal('This result is waiting for your review. Mark it reviewed to send it to the patient.');

      // Only a provider of the sample's account may mark it reviewed.
      const stranger = await signInAs(t.app, otherClinic.email, 'provider', '10.78.0.3');
      await stranger.post(`/api/provider-clinic/${otherClinic.account.id}/samples/${r.sampleId}/mark-reviewed`).expect(404);
      await stranger.post(`/api/provider-clinic/${clinic.account.id}/samples/${r.sampleId}/mark-reviewed`).expect(404);
      expect(await emailsSettled(t.ctx, r.patient.email!)).to.equal(0);

      const reviewed = await provider.post(`/api/provider-clinic/${clinic.account.id}/samples/${r.sampleId}/mark-reviewed`).expect(200);
      expect(reviewed.body).to.include({ sampleId: r.sampleId, message: 'Marked reviewed. The patient is sent their PREVIOTOX result now.' });
      expect(reviewed.body.releasedToPatient).to.deep.equal([HELD_TEST]);
      const [mail] = await waitForMail(r.patient.email!);
      const fresh = resultLinkIn(mail.text);
      expect(fresh.barcode).to.equal(r.barcode);
      expect(mail.text + mail.subject).to.not.include('High Risk');

      const { session, body } = await verifiedAs(fresh);
      expect(body.result.results.map((x: { testName: string; value: string }) => [x.testName, x.value])).to.deep.equal([[HELD_TEST, 'High Risk']]);
      expect(body.result.inReview).to.deep.equal([]);
      expect(body.result.reportAvailable).to.equal(true);
      const pdf = await session.agent.get(`${patientBase}/${fresh.barcode}/report.pdf?token=${fresh.token}`).expect(200);
      expect(pdf.headers['content-type']).to.equal('application/pdf');
      expect((await completedRow(r.sampleId))?.awaitingReview).to.equal(null);

      // Idempotent: a second review sends nothing more.
      const twice = await provider.post(`/api/provider-clinic/${clinic.account.id}/samples/${r.sampleId}/mark-reviewed`).expect(200);
      expect(twice.body.releasedToPatient).to.deep.equal([]);
      expect(twice.body.reviewedAt).to.equal(reviewed.body.reviewedAt);
      expect(await emailsSettled(t.ctx, r.patient.email!)).to.equal(1);
      expect(await mailTo(r.patient.email!)).to.have.length(1);

      const [review] = await audits('result.clinic_reviewed', { entityId: String(r.sampleId) });
      expect(review.actorUserId).to.equal(clinic.userId);
      expect(await audits('result.clinic_reviewed', { entityId: String(r.sampleId) })).to.have.length(1);
      const released = await audits('result.released_to_patient', { entityId: String(r.testId) });
      expect(released).to.have.length(1);
      expect(released[0].actorUserId).to.equal(clinic.userId);
      expect(released[0].details).to.include({ trigger: 'review', testResultId: r.resultId });
    });

    it('goes to the patient by itself when the hold ends without a review (the look with a clock moved N days ahead)', async () => {
      const r = await heldCandidate();
      const job = await runJob(t.ctx, 'notify-result', { testResultId: r.resultId });
      expect(job.status, String(job.error)).to.equal(JobStatus.Completed);
      const [held] = await audits('result.held_for_clinic', { entityId: String(r.testId) });
      const due = new Date(held.details.releaseDueAt as string);

      // A day before the end: nothing for this sample.
      await releaseDueHolds(t.ctx, { now: new Date(due.getTime() - DAY_MS) });
      expect(await audits('result.released_to_patient', { entityId: String(r.testId) })).to.have.length(0);
      expect(await emailsSettled(t.ctx, r.patient.email!)).to.equal(0);

      const look = await releaseDueHolds(t.ctx, { now: new Date(due.getTime() + 60_000) });
      expect(look.released).to.be.at.least(1);
      const [mail] = await waitForMail(r.patient.email!);
      const link = resultLinkIn(mail.text);
      const { body } = await verifiedAs(link);
      expect(body.result.results.map((x: { testName: string }) => x.testName)).to.deep.equal([HELD_TEST]);
      expect(body.result.reportAvailable).to.equal(true);

      const released = await audits('result.released_to_patient', { entityId: String(r.testId) });
      expect(released).to.have.length(1);
      expect(released[0].actorKind).to.equal('system');
      expect(released[0].details).to.include({ trigger: 'timeout' });

      // A second look sends nothing more; the clinic's later review is recorded and sends nothing.
      await releaseDueHolds(t.ctx, { now: new Date(due.getTime() + 2 * DAY_MS) });
      const late = await provider.post(`/api/provider-clinic/${clinic.account.id}/samples/${r.sampleId}/mark-reviewed`).expect(200);
      expect(late.body.releasedToPatient).to.deep.equal([]);
      expect(await emailsSettled(t.ctx, r.patient.email!)).to.equal(1);
      expect(await audits('result.released_to_patient', { entityId: String(r.testId) })).to.have.length(1);
    });

    it('a test on the default policy still goes to the patient at release; "Mark reviewed" has nothing to do there', async () => {
      const r = await createResult(t.ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id });
      expect((await runJob(t.ctx, 'notify-result', { testResultId: r.resultId })).status).to.equal(JobStatus.Completed);
      const [mail] = await waitForMail(r.patient.email!);
      const { body } = await verifiedAs(resultLinkIn(mail.text));
      expect(body.result.results).to.have.length(1);
      expect(body.result.inReview).to.deep.equal([]);
      expect((await completedRow(r.sampleId))?.awaitingReview).to.equal(null);
      const refused = await provider.post(`/api/provider-clinic/${clinic.account.id}/samples/${r.sampleId}/mark-reviewed`).expect(409);
      expect(refused.body.error.message).to.equal('This sample has no result waiting for the clinic\'s review.');
    });
  });
});
