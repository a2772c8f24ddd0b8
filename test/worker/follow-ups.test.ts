/**
 * The PROSTOX registry's follow-up schedule, with a clock the test moves (sendDueFollowUps takes
 * `now`): a released PROSTOX result schedules surveys at 3, 6 and 12 months; each is emailed once
 * when due (whatever the number of scans), gets one reminder 14 days later when unanswered and
 * none once answered; a patient without an email is recorded Not Sendable once; a worker killed in
 * the middle of sending leads to exactly one email.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import {
  addLabDays, addLabMonths, FollowUpKind, FollowUpStatus, JobStatus, NO_EMAIL_REASON, PROSTOX_REGISTRY_SURVEY, SampleStatus, TestResultStatus,
} from '@platform/domain';
import { sendDueFollowUps } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { createClinic, createResult, type Clinic, type ResultFixture } from '../support/fixtures/reports';
import { startTestWorker } from '../support/server';
import { mailTo, waitForMail, type CaughtMail } from '../support/mail';
import { emailsSettled, jobSettled } from '../support/jobs';
import { until } from '../support/wait';
import { mailCatcher } from '../support/hooks';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SURVEY_LINK = /\/registry\/study\/prostox\/(\d+)\/survey\/new\?token=([0-9a-f]{64})/;
const isSurvey = (mail: CaughtMail) => /follow-up survey/.test(mail.subject);

/** Every question answered (the middle of each scale, No to each yes/no question). */
const ALL_ANSWERED = Object.fromEntries(PROSTOX_REGISTRY_SURVEY.map((q) => [q.id, q.kind === 'scale' ? 1 : 'No']));

describe('registry follow-ups: the schedule, with a controllable clock', function () {
  this.timeout(90_000);
  let t: TestApp;
  let clinic: Clinic;
  let lab2: Session;

  before(async () => {
    t = await buildTestApp();
    clinic = await createClinic(t.ctx.db, 'followups');
    lab2 = await signIn(t.app, 'lab2', 'lab');
  });
  after(() => t.close());

  /** A PROSTOX ultra result in review, approved through the lab's endpoint: the release that schedules the surveys. */
  async function releasedProstox(patientEmail?: string | null): Promise<ResultFixture & { releasedAt: Date }> {
    const r = await createResult(t.ctx.db, {
      accountId: clinic.account.id, physicianId: clinic.physician.id, resultStatus: TestResultStatus.InReview, sampleStatus: SampleStatus.InTesting, patientEmail,
    });
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [r.resultId] }).expect(200);
    const result = await t.ctx.db.models.TestResult.findByPk(r.resultId);
    return { ...r, releasedAt: result!.reviewedAt! };
  }

  // Days and months on the lab's clock, as the schedule counts them (tests: America/New_York).
  const addDays = (at: Date, days: number) => addLabDays(at, days, t.ctx.config.labTimeZone);
  const addMonths = (at: Date, months: number) => addLabMonths(at, months, t.ctx.config.labTimeZone);
  const followUps = (sampleId: number) =>
    t.ctx.db.models.SampleFollowUp.findAll({ where: { sampleId, kind: FollowUpKind.RegistrySurvey }, order: [['months', 'ASC']] });
  const scan = (now: Date) => sendDueFollowUps(t.ctx, { now });
  const surveyMails = async (to: string) => (await mailTo(to)).filter(isSurvey);

  it('schedules 3, 6 and 12 months after the release; emails each once when due; one reminder 14 days later', async () => {
    const r = await releasedProstox();
    const rows = await followUps(r.sampleId);
    expect(rows.map((f) => [f.months, f.status, f.dueAt.toISOString()])).to.deep.equal(
      [3, 6, 12].map((m) => [m, FollowUpStatus.Scheduled, addMonths(r.releasedAt, m).toISOString()]),
    );
    const due3 = rows[0].dueAt;

    const worker = await startTestWorker();
    try {
      await scan(new Date(due3.getTime() - 60_000));
      expect((await followUps(r.sampleId)).map((f) => f.status)).to.deep.equal(['Scheduled', 'Scheduled', 'Scheduled']);

      // Due: emailed. Scanning again (another worker, a restart) sends nothing more.
      await scan(due3);
      await scan(due3);
      await scan(addDays(due3, 1));
      const [three, six, twelve] = await followUps(r.sampleId);
      expect([three.status, three.sentAt?.toISOString(), six.status, twelve.status]).to.deep.equal(['Sent', due3.toISOString(), 'Scheduled', 'Scheduled']);
      const [mail] = await waitForMail(r.patient.email!, 1, { matching: isSurvey });
      expect(mail.subject).to.equal('Your 3-month Prostox follow-up survey');
      expect(SURVEY_LINK.exec(mail.text)?.[1]).to.equal(String(r.sampleId));

      // Not yet 14 days: no reminder. Then exactly one, whatever the number of scans.
      await scan(addDays(due3, 13));
      expect((await followUps(r.sampleId))[0].status).to.equal('Sent');
      await scan(addDays(due3, 14));
      await scan(addDays(due3, 20));
      const reminded = (await followUps(r.sampleId))[0];
      expect([reminded.status, reminded.remindedAt?.toISOString()]).to.deep.equal(['Reminded', addDays(due3, 14).toISOString()]);
      await emailsSettled(t.ctx, r.patient.email!);
      const mails = await surveyMails(r.patient.email!);
      expect(mails.map((m) => m.subject)).to.deep.equal(['Your 3-month Prostox follow-up survey', 'Reminder: your 3-month Prostox follow-up survey']);
      // Each email has its own working link: the reminder's opens the same survey.
      const tokens = mails.map((m) => SURVEY_LINK.exec(m.text)![2]);
      expect(tokens[0]).to.not.equal(tokens[1]);
      const opened = await newSession(t.app);
      const view = await opened.agent.get(`/api/registry/study/prostox/${r.sampleId}/follow-up-survey?token=${tokens[1]}`).expect(200);
      expect(view.body).to.deep.equal({ firstName: r.patient.firstName, months: 3, study: 'prostox' });
    } finally {
      await worker.close();
    }
  });

  it('an answered follow-up gets no reminder, and its link is refused a second time', async () => {
    const r = await releasedProstox();
    const due3 = (await followUps(r.sampleId))[0].dueAt;
    const worker = await startTestWorker();
    try {
      await scan(due3);
      const [mail] = await waitForMail(r.patient.email!, 1, { matching: isSurvey });
      const token = SURVEY_LINK.exec(mail.text)![2];
      const patient = await newSession(t.app);
      const url = `/api/registry/study/prostox/${r.sampleId}/follow-up-survey`;
      await patient.post(url, { token, answers: ALL_ANSWERED }).expect(201);
      const again = await patient.post(url, { token, answers: ALL_ANSWERED }).expect(409);
      expect(again.body.error).to.include({ code: 'link_used', message: 'This link has already been used: your answers were received. Thank you.' });
      await patient.agent.get(`${url}?token=${token}`).expect(409);

      await scan(addDays(due3, 15));
      await scan(addDays(due3, 30));
      const answered = (await followUps(r.sampleId))[0];
      expect([answered.status, answered.reminderEmailId, answered.remindedAt]).to.deep.equal(['Answered', null, null]);
      expect((answered.answers as { answers: unknown }).answers).to.deep.equal(ALL_ANSWERED);
      await emailsSettled(t.ctx, r.patient.email!);
      expect((await surveyMails(r.patient.email!)).map((m) => m.subject)).to.deep.equal(['Your 3-month Prostox follow-up survey']);
    } finally {
      await worker.close();
    }
  });

  it('a patient without an email: the follow-up is Not Sendable, recorded once, no email and no retry', async () => {
    const r = await releasedProstox(null);
    const due3 = (await followUps(r.sampleId))[0].dueAt;
    await scan(due3);
    const first = (await followUps(r.sampleId))[0];
    expect([first.status, first.notSendableReason, first.emailId]).to.deep.equal([FollowUpStatus.NotSendable, NO_EMAIL_REASON, null]);
    const updatedAt = first.updatedAt.getTime();
    await scan(addDays(due3, 20));
    const later = (await followUps(r.sampleId))[0];
    expect([later.status, later.updatedAt.getTime()]).to.deep.equal([FollowUpStatus.NotSendable, updatedAt]);
    expect(await t.ctx.db.models.Email.count({ where: { entityKind: 'sample', entityId: String(r.sampleId), template: 'registry-survey' } })).to.equal(0);
    const audits = await t.ctx.db.models.AuditEvent.count({ where: { action: 'follow_up.not_sendable', entityId: String(r.sampleId) } });
    expect(audits).to.equal(1);
  });

  it('a worker killed (SIGKILL) in the middle of sending a follow-up leads to exactly one email', async () => {
    const r = await releasedProstox();
    const due3 = (await followUps(r.sampleId))[0].dueAt;
    mailCatcher.setAcceptDelay(5_000); // the SMTP answer comes late: the kill lands mid-send
    let child: ChildProcess | null = spawn(process.execPath, ['--import', 'tsx', 'worker/src/main.ts'], {
      cwd: ROOT, env: { ...process.env, WORKER_LOCK_MS: '2000' }, stdio: 'ignore',
    });
    let replacement: RunningWorker | null = null;
    try {
      await scan(due3);
      const followUp = (await followUps(r.sampleId))[0];
      expect(followUp.status).to.equal(FollowUpStatus.Sent);
      const job = await until(async () => {
        const row = await t.ctx.db.models.Job.findOne({ where: { name: 'send-email', payload: { emailId: followUp.emailId } } as never });
        return (row?.attempts ?? 0) >= 1 ? row : null;
      }, { what: 'the first worker to start sending the survey email' });
      await new Promise((resolve) => setTimeout(resolve, 700));
      child.kill('SIGKILL');
      await new Promise((resolve) => child!.once('exit', resolve));
      child = null;
      mailCatcher.setAcceptDelay(0);
      expect((await t.ctx.db.models.Email.findByPk(followUp.emailId!))!.status).to.equal('Pending');

      // The restarted side: its scan finds the follow-up Sent (nothing new), its worker finishes the send.
      await scan(due3);
      replacement = await startTestWorker({ WORKER_LOCK_MS: '2000' });
      await waitForMail(r.patient.email!, 1, { matching: isSurvey, timeoutMs: 30_000 });
      expect((await jobSettled(t.ctx, job.id, { timeoutMs: 30_000 })).status).to.equal(JobStatus.Completed);
      await emailsSettled(t.ctx, r.patient.email!);
      expect(await surveyMails(r.patient.email!)).to.have.length(1);
      expect(await t.ctx.db.models.Email.count({ where: { template: 'registry-survey', toAddress: r.patient.email! } })).to.equal(1);
    } finally {
      mailCatcher.setAcceptDelay(0);
      child?.kill('SIGKILL');
      await replacement?.close();
    }
  });
});
