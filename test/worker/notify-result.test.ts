/**
 * The result's worker side, on the real worker: the lab report PDF ('render-pdf' lab_report) and
 * the notifications ('notify-result'), each enqueued through the outbox like the lab's approval does.
 */
import { pdfPageCount } from '../support/pdf';
import { expect } from 'chai';
import { JobStatus, SampleStatus, TestResultStatus, resultInterpretation } from '@platform/domain';
import { createContext, closeContext, type AppContext } from '@platform/api';
import type { RunningWorker } from '@platform/worker';
import { startTestWorker, testConfig } from '../support/server';
import { mailTo, waitForMail } from '../support/mail';
import { emailsSettled } from '../support/jobs';
import {
  createClinic, createResult, currentReport, pdfText, releaseCorrection, resultLinkIn, runJob, uniq, withoutResultLinks, type Clinic,
} from '../support/fixtures/reports';

describe('lab report PDF and result notifications (worker)', function () {
  this.timeout(60_000);
  let ctx: AppContext;
  let worker: RunningWorker;
  let clinic: Clinic;

  before(async () => {
    ctx = await createContext(testConfig(), 'test');
    worker = await startTestWorker();
    clinic = await createClinic(ctx.db, 'worker');
  });
  after(async () => {
    await worker?.close();
    await closeContext(ctx);
  });

  describe('render-pdf lab_report', () => {
    it('renders the released result: patient, sample, test, risk level, interpretation, approver', async () => {
      const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'High Risk' });
      const job = await runJob(ctx, 'render-pdf', { sampleId: r.sampleId, documentType: 'lab_report', testResultId: r.resultId });
      expect(job.status, String(job.error)).to.equal(JobStatus.Completed);
      const report = await currentReport(ctx.db, r.sampleId);
      expect(report, 'a lab report document').to.not.equal(null);
      expect(report!.doc.corrected).to.equal(false);
      expect(report!.content.subarray(0, 5).toString()).to.equal('%PDF-');
      expect(pdfPageCount(report!.content), 'a one-page report, no blank page after it').to.equal(1);
      const text = await pdfText(report!.content);
      expect(text).to.include(`${r.patient.firstName} ${r.patient.lastName}`);
      expect(text).to.include('08/19/1957'); // date of birth, MM/DD/YYYY
      expect(text).to.include(r.barcode);
      expect(text).to.include('PROSTOX ultra');
      expect(text).to.include('Result: High Risk');
      // pdfkit wraps at hyphens too ("follow- up"): join those back before comparing.
      expect(text.replace(/- /g, '-')).to.include(resultInterpretation('PROSTOX ultra', 'High Risk'));
      expect(text).to.include(clinic.account.name);
      expect(text).to.include(`${clinic.physician.firstName} ${clinic.physician.lastName}`);
      expect(text).to.include('Lena Pipette'); // approver (lab2)
      expect(text).to.include('Leo Bench'); // entered by (lab1)
      expect(text).to.include('10/20/2026'); // approval date
      expect(text).to.not.match(/corrected/i);
    });

    it('a correction renders a "Corrected report" with the reason and the replaced value; the first report is kept', async () => {
      const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'Low-Average Risk' });
      expect((await runJob(ctx, 'render-pdf', { sampleId: r.sampleId, documentType: 'lab_report', testResultId: r.resultId })).status).to.equal(JobStatus.Completed);
      const first = await currentReport(ctx.db, r.sampleId);

      const correctionId = await releaseCorrection(ctx.db, r, 'Very High Risk', 'Sample swap found on plate review');
      const job = await runJob(ctx, 'render-pdf', { sampleId: r.sampleId, documentType: 'lab_report', testResultId: correctionId });
      expect(job.status, String(job.error)).to.equal(JobStatus.Completed);

      const docs = await ctx.db.models.SampleDocument.findAll({ where: { sampleId: r.sampleId, type: 'lab_report' }, order: [['version', 'ASC']] });
      expect(docs.map((d) => d.version)).to.deep.equal([1, 2]);
      expect(docs[0].id).to.equal(first!.doc.id);
      expect(docs[0].supersededAt, 'the first report is kept, marked superseded').to.be.instanceOf(Date);
      expect(docs[0].corrected).to.equal(false);
      expect(docs[1].supersededAt).to.equal(null);
      expect(docs[1].corrected).to.equal(true);
      const firstFile = await ctx.db.models.StoredFile.scope('withContent').findByPk(docs[0].fileId);
      expect(await pdfText(firstFile!.content)).to.include('Result: Low-Average Risk');

      const text = await pdfText((await currentReport(ctx.db, r.sampleId))!.content);
      expect(text).to.include('CORRECTED REPORT');
      expect(text).to.include('Corrected.');
      expect(text).to.include('Sample swap found on plate review');
      expect(text).to.match(/Earlier result \(replaced\)\s+Low-Average Risk/);
      expect(text).to.include('Result: Very High Risk');
    });

    it('refuses (Failed, no retry, no document) a result that is not Released or not of that sample', async () => {
      const inReview = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, resultStatus: TestResultStatus.InReview, sampleStatus: SampleStatus.InTesting });
      const other = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id });
      const notReleased = await runJob(ctx, 'render-pdf', { sampleId: inReview.sampleId, documentType: 'lab_report', testResultId: inReview.resultId });
      expect(notReleased.status).to.equal(JobStatus.Failed);
      expect(notReleased.error).to.match(/not Released/);
      expect(notReleased.attempts).to.equal(1);
      const wrongSample = await runJob(ctx, 'render-pdf', { sampleId: other.sampleId, documentType: 'lab_report', testResultId: inReview.resultId });
      expect(wrongSample.status).to.equal(JobStatus.Failed);
      expect(wrongSample.error).to.match(/does not belong/);
      expect(await currentReport(ctx.db, inReview.sampleId)).to.equal(null);
      expect(await currentReport(ctx.db, other.sampleId)).to.equal(null);
    });
  });

  describe('notify-result', () => {
    it('emails the ordering physician (no patient name, no result) and the patient (a working link, no result); the sample is Completed', async () => {
      const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, value: 'Very High Risk' });
      const job = await runJob(ctx, 'notify-result', { testResultId: r.resultId });
      expect(job.status, String(job.error)).to.equal(JobStatus.Completed);

      const [providerMail] = await waitForMail(clinic.email, 1, { matching: (mail) => mail.subject.includes(r.barcode) });
      expect(providerMail, 'the provider email').to.not.equal(undefined);
      expect(providerMail!.subject).to.equal(`Result ready: PROSTOX ultra for sample ${r.barcode}`);
      expect(providerMail!.text).to.include(`${testConfig().publicUrl}/provider-clinic/${clinic.account.id}/completed`);
      // When it was released, on the lab's clock with its zone (the tests' LAB_TIME_ZONE, America/New_York): 16:30 UTC is 12:30 PM EDT.
      expect(providerMail!.text).to.include('laboratory on 10/20/2026 12:30 PM EDT.');
      // The date of birth in the forms a text would write it (a bare "1957" can be part of a random barcode).
      for (const secret of [r.patient.firstName, r.patient.lastName, 'Very High', 'Risk', '1957-08-19', '08/19/1957', '19570819', 'August 19, 1957']) {
        expect(providerMail!.text + providerMail!.subject, `provider email must not hold "${secret}"`).to.not.include(secret);
      }

      const [patientMail] = await waitForMail(r.patient.email!);
      const link = resultLinkIn(patientMail.text);
      expect(link.url.startsWith(`${testConfig().publicUrl}/reports/patient_result/${r.barcode}?token=`)).to.equal(true);
      for (const secret of ['Very High', 'Risk', '1957', 'PROSTOX ultra result:']) expect(withoutResultLinks(patientMail.text) + patientMail.subject).to.not.include(secret);
      // Whom to ask: the ordering clinic and its doctor, then the laboratory, each with how to reach them.
      const ask = patientMail.text.slice(patientMail.text.indexOf('Any questions?'));
      expect(ask).to.include(`Your clinic: ${clinic.account.name}\nYour doctor: ${clinic.physician.firstName} ${clinic.physician.lastName}\nEmail: ${clinic.email}`);
      expect(ask).to.include(`The laboratory: ${testConfig().lab.name}\nPhone: ${testConfig().lab.phone}\nEmail: ${testConfig().lab.email}`);

      const links = await ctx.db.models.PatientResultLink.findAll({ where: { sampleId: r.sampleId } });
      expect(links).to.have.length(1);
      expect(links[0].tokenHash).to.not.equal(link.token); // only the hash is stored
      expect(links[0].tokenHash).to.match(/^[0-9a-f]{64}$/);

      const sample = await ctx.db.models.Sample.findByPk(r.sampleId);
      expect(sample!.status).to.equal(SampleStatus.Completed);
      const event = await ctx.db.models.SampleStatusEvent.findOne({ where: { sampleId: r.sampleId, toStatus: SampleStatus.Completed } });
      expect(event!.actorKind).to.equal('system');
      expect(event!.fromStatus).to.equal(SampleStatus.Resulted);
    });

    it('a second delivery of the same result sends nothing more', async () => {
      const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id });
      expect((await runJob(ctx, 'notify-result', { testResultId: r.resultId })).status).to.equal(JobStatus.Completed);
      await waitForMail(r.patient.email!);
      const again = await runJob(ctx, 'notify-result', { testResultId: r.resultId });
      expect(again.status).to.equal(JobStatus.Completed);
      expect(again.result).to.deep.equal({ skipped: 'already notified' });
      // Both deliveries are over: wait until every email they logged has been sent, then count.
      expect(await emailsSettled(ctx, r.patient.email!), 'patient emails logged').to.equal(1);
      await emailsSettled(ctx, clinic.email);
      expect(await mailTo(r.patient.email!)).to.have.length(1);
      expect((await mailTo(clinic.email)).filter((mail) => mail.subject.includes(r.barcode))).to.have.length(1);
      expect(await ctx.db.models.PatientResultLink.count({ where: { sampleId: r.sampleId } })).to.equal(1);
    });

    it('a released correction is announced as corrected, with a new patient link (the old one revoked)', async () => {
      const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id });
      await runJob(ctx, 'notify-result', { testResultId: r.resultId });
      await waitForMail(r.patient.email!);
      const correctionId = await releaseCorrection(ctx.db, r, 'Intermediate Risk', 'Re-analysis');
      expect((await runJob(ctx, 'notify-result', { testResultId: correctionId })).status).to.equal(JobStatus.Completed);
      const mails = await waitForMail(r.patient.email!, 2);
      expect(mails[1].subject).to.match(/corrected/i);
      expect(resultLinkIn(mails[1].text).token).to.not.equal(resultLinkIn(mails[0].text).token);
      const providerMails = await waitForMail(clinic.email, 2, { matching: (m) => m.subject.includes(r.barcode) });
      expect(providerMails[1].subject).to.equal(`Corrected result ready: PROSTOX ultra for sample ${r.barcode}`);
      const links = await ctx.db.models.PatientResultLink.findAll({ where: { sampleId: r.sampleId }, order: [['id', 'ASC']] });
      expect(links).to.have.length(2);
      expect(links[0].revokedAt).to.be.instanceOf(Date);
      expect(links[1].revokedAt).to.equal(null);
      expect((await ctx.db.models.Sample.findByPk(r.sampleId))!.status).to.equal(SampleStatus.Completed);
    });

    it('without a physician contact it emails the account\'s physicians; a patient without email gets nothing', async () => {
      const other = await createClinic(ctx.db, 'fallback');
      const noContact = await ctx.db.models.Physician.create({ accountId: other.account.id, contactId: null, firstName: 'Omar', lastName: `Nomail${uniq()}`, npi: null, specialty: null });
      const r = await createResult(ctx.db, { accountId: other.account.id, physicianId: noContact.id, patientEmail: null });
      const job = await runJob(ctx, 'notify-result', { testResultId: r.resultId });
      expect(job.status, String(job.error)).to.equal(JobStatus.Completed);
      expect(job.result).to.include({ providerEmails: 1, patientEmail: false });
      const [mail] = await waitForMail(other.email);
      expect(mail.subject).to.equal(`Result ready: PROSTOX ultra for sample ${r.barcode}`);
      expect(await ctx.db.models.PatientResultLink.count({ where: { sampleId: r.sampleId } })).to.equal(0);
    });

    it('does nothing for a result that is not Released', async () => {
      const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, resultStatus: TestResultStatus.InReview, sampleStatus: SampleStatus.InTesting });
      const job = await runJob(ctx, 'notify-result', { testResultId: r.resultId });
      expect(job.status).to.equal(JobStatus.Completed);
      expect(job.result).to.deep.equal({ skipped: 'result is In Review' });
      // The job is over: whatever it logged has been sent once these settle.
      expect(await emailsSettled(ctx, r.patient.email!), 'patient emails logged').to.equal(0);
      await emailsSettled(ctx, clinic.email);
      expect(await mailTo(r.patient.email!)).to.have.length(0);
      expect((await mailTo(clinic.email)).filter((mail) => mail.subject.includes(r.barcode)), 'provider emails of this sample').to.have.length(0);
      expect((await ctx.db.models.Sample.findByPk(r.sampleId))!.status).to.equal(SampleStatus.InTesting);
    });
  });
});
