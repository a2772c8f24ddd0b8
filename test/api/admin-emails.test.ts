/**
 * The admin's emails and job monitor on the real API and a real worker: who may call them, the
 * email log (never a body), resending, the two campaigns (audience preview, send, progress), a
 * send the SMTP server refuses (the email is Failed, the job monitor shows why) and its retry.
 */
import { expect } from 'chai';
import { AccountRole, EmailCampaign, JobStatus, type CampaignPreview, type CampaignProgress, type EmailLogRow, type JobRow } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { emailJobsSettled, emailsSettled, jobSettled } from '../support/jobs';
import { mailTo, waitForMail } from '../support/mail';
import { until } from '../support/wait';
import { createAccount, createProvider, startStandInSmtp } from '../support/fixtures/campaigns';

const EMAIL_LOG_KEYS = ['id', 'toAddress', 'subject', 'template', 'status', 'error', 'sentAt', 'createdAt', 'campaignId'];

describe('admin: emails, campaigns and the job monitor', function () {
  this.timeout(120_000);
  let t: TestApp;
  let worker: RunningWorker | null = null;
  let admin: Session;
  let adminId: number;

  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    admin = await signIn(t.app, 'admin', 'admin');
    adminId = (await t.ctx.db.models.User.findOne({ where: { email: 'admin@demo.test' } }))!.id;
  });
  after(async () => {
    await worker?.close();
    await t?.close();
  });

  const get = (s: Session, path: string) => s.agent.get(path);
  const send = (campaign: string, body: object) => admin.post(`/api/admin/send-email/${campaign}`, body);
  const preview = async (audience: object): Promise<CampaignPreview> =>
    (await send(EmailCampaign.PortalFeedbackRequest, { audience, preview: true }).expect(200)).body;

  async function campaignDone(id: number, until_: (p: CampaignProgress) => boolean): Promise<CampaignProgress> {
    return until(async () => {
      const p = (await get(admin, `/api/admin/email-campaigns/${id}`).expect(200)).body as CampaignProgress;
      return until_(p) ? p : null;
    }, { what: `campaign ${id} to reach the expected progress`, timeoutMs: 30_000 });
  }

  describe('who may call', () => {
    const endpoints: [string, string][] = [
      ['get', '/api/admin/emails'],
      ['post', '/api/admin/emails/1/resend'],
      ['post', '/api/admin/send-email/portal-feedback-request'],
      ['post', '/api/admin/send-email/portal-signup-reminder'],
      ['get', '/api/admin/email-campaigns'],
      ['get', '/api/admin/email-campaigns/1'],
      ['get', '/api/admin/email-campaigns/1/recipients'],
      ['get', '/api/admin/jobs/summary'],
      ['get', '/api/admin/jobs'],
      ['post', '/api/admin/jobs/1/retry'],
      ['post', '/api/admin/jobs/retry-failed'],
    ];
    const call = (s: Session, [method, path]: [string, string]) =>
      method === 'get' ? s.agent.get(path) : s.post(path, { audience: {}, preview: true });

    it('anonymous callers get 401, provider and lab users 403, on every endpoint', async () => {
      const sessions = {
        anonymous: await newSession(t.app),
        provider: await signIn(t.app, 'physician', 'provider'),
        superAdmin: await signIn(t.app, 'superAdmin', 'provider'),
        lab: await signIn(t.app, 'lab1', 'lab'),
      };
      const answers: string[] = [];
      for (const endpoint of endpoints) {
        for (const [who, s] of Object.entries(sessions)) answers.push(`${who} ${endpoint.join(' ')} ${(await call(s, endpoint)).status}`);
      }
      const expected = endpoints.flatMap((e) => Object.keys(sessions).map((who) => `${who} ${e.join(' ')} ${who === 'anonymous' ? 401 : 403}`));
      expect(answers).to.deep.equal(expected);
      // The guard is the only thing in the way: the admin reaches the same endpoint.
      await get(admin, '/api/admin/jobs/summary').expect(200);
    });
  });

  describe('campaigns', () => {
    it('the preview counts the audience by accounts, roles (within those accounts) and never signed in; it writes nothing', async () => {
      const db = t.ctx.db;
      const [a, b, closed] = [await createAccount(db, 'A'), await createAccount(db, 'B'), await createAccount(db, 'closed', false)];
      const p1 = await createProvider(db, 'p1', { memberships: [{ accountId: a.id }] });
      const p2 = await createProvider(db, 'p2', { memberships: [{ accountId: a.id }], signedIn: true });
      const s1 = await createProvider(db, 's1', { memberships: [{ accountId: a.id, role: AccountRole.SupportStaff }] });
      const s2 = await createProvider(db, 's2', { memberships: [{ accountId: b.id, role: AccountRole.SupportStaff }] });
      const both = await createProvider(db, 'both', { memberships: [{ accountId: a.id }, { accountId: b.id, role: AccountRole.SupportStaff }] });
      // Never in any audience: access not approved, sign-in deactivated, membership removed, account closed.
      await createProvider(db, 'pending', { memberships: [{ accountId: a.id }], accessStatus: 'Pending' });
      await createProvider(db, 'inactive', { memberships: [{ accountId: a.id }], userActive: false });
      await createProvider(db, 'removed', { memberships: [{ accountId: a.id, isActive: false }] });
      await createProvider(db, 'closed', { memberships: [{ accountId: closed.id }] });
      const campaignsBefore = await db.models.EmailCampaignRun.count();

      const inA = await preview({ accountIds: [a.id] });
      expect(inA.recipientCount).to.equal(4);
      expect(inA.sampleRecipients.map((r) => r.email).sort()).to.deep.equal([p1, p2, s1, both].map((p) => p.email).sort());
      expect((await preview({ accountIds: [a.id, b.id] })).recipientCount, 'A or B, each person once').to.equal(5);
      expect((await preview({ accountIds: [a.id], roles: [AccountRole.SupportStaff] })).sampleRecipients.map((r) => r.email), 'support staff in A').to.deep.equal([s1.email]);
      expect((await preview({ accountIds: [a.id, b.id], roles: [AccountRole.SupportStaff] })).recipientCount, 'support staff in A or B').to.equal(3);
      expect((await preview({ accountIds: [a.id], neverSignedIn: true })).sampleRecipients.map((r) => r.email).sort(), 'never signed in, in A')
        .to.deep.equal([p1, s1, both].map((p) => p.email).sort());
      expect((await preview({ accountIds: [closed.id] })).recipientCount, 'a closed account').to.equal(0);

      expect(inA.campaign).to.equal(EmailCampaign.PortalFeedbackRequest);
      expect(inA.text).to.include('Hello [first name],').and.include(`${t.ctx.config.publicUrl}/provider/login`).and.not.include('token');
      expect(await db.models.EmailCampaignRun.count(), 'campaigns written by previews').to.equal(campaignsBefore);
    });

    it('refuses an unknown campaign (404), an empty audience (400 on audience) and an unknown field (400)', async () => {
      const closed = await createAccount(t.ctx.db, 'empty', false);
      const unknown = await send('portal-newsletter', { audience: {}, preview: true }).expect(404);
      expect(unknown.body.error.message).to.equal('No such email campaign');
      const empty = await send(EmailCampaign.PortalSignupReminder, { audience: { accountIds: [closed.id] } }).expect(400);
      expect(empty.body.error.fields.map((f: { field: string }) => f.field)).to.deep.equal(['audience']);
      const bad = await send(EmailCampaign.PortalSignupReminder, { audience: { accountIds: [closed.id], everyone: true } }).expect(400);
      expect(bad.body.error.code).to.equal('validation_failed');
    });

    let sentCampaign: { id: number; addresses: string[] };

    it('send answers 202 with the progress; it reaches sent = recipientCount, one greeting by first name each', async () => {
      const db = t.ctx.db;
      const account = await createAccount(db, 'send');
      const people = [
        await createProvider(db, 'avery', { memberships: [{ accountId: account.id }], firstName: 'Avery' }),
        await createProvider(db, 'blake', { memberships: [{ accountId: account.id }], firstName: 'Blake' }),
        await createProvider(db, 'cory', { memberships: [{ accountId: account.id }], firstName: 'Cory' }),
      ];
      const res = await send(EmailCampaign.PortalSignupReminder, { audience: { accountIds: [account.id] } }).expect(202);
      const started = res.body as CampaignProgress;
      expect([started.campaign, started.recipientCount]).to.deep.equal([EmailCampaign.PortalSignupReminder, 3]);
      expect(started.jobId).to.be.a('number');

      const done = await campaignDone(started.id, (p) => p.sent === p.recipientCount && p.jobStatus === JobStatus.Completed);
      expect([done.queued, done.sent, done.failed]).to.deep.equal([3, 3, 0]);
      for (const person of people) {
        const [mail] = await waitForMail(person.email);
        expect(mail.text).to.include(`Hello ${person.firstName},`).and.include(`${t.ctx.config.publicUrl}/provider/login`).and.include('Forgot password');
        expect(mail.text).to.not.include('token');
      }

      // Recipients are written in the audience's order: by last name.
      const byName = [...people].sort((x, y) => x.lastName.toLowerCase().localeCompare(y.lastName.toLowerCase()));
      const page = await get(admin, `/api/admin/email-campaigns/${started.id}/recipients?pageSize=2`).expect(200);
      expect(page.headers['x-total-count']).to.equal('3');
      expect(page.body.map((r: { toAddress: string; status: string; name: string }) => [r.toAddress, r.status, r.name]))
        .to.deep.equal(byName.slice(0, 2).map((p) => [p.email, 'Sent', p.name]));
      const list = await get(admin, '/api/admin/email-campaigns').expect(200);
      expect(list.body.find((c: CampaignProgress) => c.id === started.id)).to.deep.include({ sent: 3, recipientCount: 3, jobStatus: JobStatus.Completed });
      await get(admin, '/api/admin/email-campaigns/999999999').expect(404);

      const audit = await db.models.AuditEvent.findOne({ where: { action: 'email_campaign.started', entityId: String(started.id) } });
      expect(audit?.actorUserId).to.equal(adminId);
      expect(audit?.details).to.deep.include({ campaign: EmailCampaign.PortalSignupReminder, recipientCount: 3, jobId: started.jobId });
      sentCampaign = { id: started.id, addresses: people.map((p) => p.email) };
    });

    it('the email log lists emails without their bodies or tokens, by status, template and address; campaign emails name their campaign', async () => {
      const rows = (await get(admin, `/api/admin/emails?q=${encodeURIComponent(sentCampaign.addresses[0])}`).expect(200)).body as EmailLogRow[];
      expect(rows).to.have.length(1);
      expect(Object.keys(rows[0]).sort()).to.deep.equal([...EMAIL_LOG_KEYS].sort());
      expect(rows[0]).to.deep.include({ template: EmailCampaign.PortalSignupReminder, status: 'Sent', campaignId: sentCampaign.id, error: null });

      // A password reset carries a token: the mailbox has it, the log's answer never does.
      const person = await createProvider(t.ctx.db, 'reset', { memberships: [] });
      await (await newSession(t.app, '10.9.8.7')).post('/api/auth/forgot-password', { email: person.email, portal: 'provider' }).expect(202);
      await waitForMail(person.email);
      await emailsSettled(t.ctx, person.email);
      const token = /token=([0-9a-f]{64})/.exec((await mailTo(person.email))[0].text)![1];
      const log = await get(admin, `/api/admin/emails?template=password-reset&q=${encodeURIComponent(person.email)}`).expect(200);
      expect(log.body.map((r: EmailLogRow) => [r.toAddress, r.template, r.status])).to.deep.equal([[person.email, 'password-reset', 'Sent']]);
      expect(JSON.stringify(log.body)).to.not.include(token).and.not.include('token=');
      expect(Object.keys(log.body[0]).sort()).to.deep.equal([...EMAIL_LOG_KEYS].sort());

      const sent = await get(admin, '/api/admin/emails?status=Sent&pageSize=2').expect(200);
      expect(Number(sent.headers['x-total-count']), 'the three campaign emails and the reset').to.be.at.least(4);
      expect(sent.body).to.have.length(2);
      expect(sent.body.every((r: EmailLogRow) => r.status === 'Sent')).to.equal(true);
      await get(admin, '/api/admin/emails?status=Lost').expect(400);
    });

    it('resend writes a new logged email with the same subject, text and template; an email with a single-use link is refused (409)', async () => {
      const db = t.ctx.db;
      const to = sentCampaign.addresses[0];
      const original = (await db.models.Email.findOne({ where: { toAddress: to } }))!;
      const res = await admin.post(`/api/admin/emails/${original.id}/resend`).expect(201);
      const copy = res.body as EmailLogRow;
      expect(copy.id).to.not.equal(original.id);
      expect(copy).to.deep.include({ toAddress: to, subject: original.subject, template: original.template, status: 'Pending', campaignId: null });
      expect((await db.models.Email.findByPk(copy.id))!.textBody).to.equal(original.textBody);
      const mails = await waitForMail(to, 2);
      expect(mails.map((m) => m.subject)).to.deep.equal([original.subject, original.subject]);
      const audit = await db.models.AuditEvent.findOne({ where: { action: 'email.resent', entityId: String(copy.id) } });
      expect([audit?.actorUserId, (audit?.details as { resentFromEmailId?: number }).resentFromEmailId]).to.deep.equal([adminId, original.id]);

      const reset = (await db.models.Email.findOne({ where: { template: 'password-reset', status: 'Sent' }, order: [['id', 'DESC']] }))!;
      const refused = await admin.post(`/api/admin/emails/${reset.id}/resend`).expect(409);
      expect(refused.body.error.message).to.match(/single-use link/);
      expect(await db.models.Email.count({ where: { toAddress: reset.toAddress } }), 'emails to the reset address').to.equal(1);
      await admin.post('/api/admin/emails/999999999/resend').expect(404);
      await admin.post('/api/admin/emails/abc/resend').expect(404);
    });
  });

  describe('failed emails and the job monitor', () => {
    it('a send the SMTP server refuses marks the email Failed; the monitor shows the job and its error; retries run it to Completed', async () => {
      const db = t.ctx.db;
      // Two campaigns of one recipient each: two send-email-batch jobs, one retried alone, the other with every failed job.
      const accounts = [await createAccount(db, 'refused1'), await createAccount(db, 'refused2')];
      const people = [
        await createProvider(db, 'refused1', { memberships: [{ accountId: accounts[0].id }] }),
        await createProvider(db, 'refused2', { memberships: [{ accountId: accounts[1].id }] }),
      ];
      const refusing = await startStandInSmtp();
      await worker!.close();
      worker = await startTestWorker({ SMTP_PORT: String(refusing.port) });
      let campaigns: CampaignProgress[];
      try {
        campaigns = [];
        for (const account of accounts) {
          const campaign = (await send(EmailCampaign.PortalFeedbackRequest, { audience: { accountIds: [account.id] } }).expect(202)).body as CampaignProgress;
          await campaignDone(campaign.id, (p) => p.failed === 1);
          campaigns.push(campaign);
        }
      } finally {
        await worker.close();
        worker = null;
        await refusing.close();
      }
      const emails = await Promise.all(people.map(async (p) => (await db.models.Email.findOne({ where: { toAddress: p.email } }))!));
      await emailJobsSettled(t.ctx, emails.map((e) => e.id));
      await Promise.all(emails.map((e) => e.reload()));
      expect(emails.map((e) => e.status)).to.deep.equal(['Failed', 'Failed']);
      expect(emails[0].error).to.match(/550 Mailbox unavailable/);

      const logged = await get(admin, `/api/admin/emails?status=Failed&q=${encodeURIComponent(people[0].email)}`).expect(200);
      expect(logged.body.map((r: EmailLogRow) => [r.id, r.status, r.campaignId])).to.deep.equal([[emails[0].id, 'Failed', campaigns[0].id]]);
      expect(logged.body[0].error).to.match(/550/);

      const failed = (await get(admin, '/api/admin/jobs?status=Failed&name=send-email-batch&pageSize=200').expect(200)).body as JobRow[];
      const jobIdOf = async (emailId: number) =>
        ((await db.models.Outbox.findOne({ where: { idempotencyKey: `send-email-batch:${emailId}` } }))!.payload as { jobRowId: number }).jobRowId;
      const [job1, job2] = [await jobIdOf(emails[0].id), await jobIdOf(emails[1].id)];
      const shown = failed.filter((j) => j.id === job1 || j.id === job2).sort((x, y) => x.id - y.id);
      expect(shown.map((j) => [j.id, j.name, j.status, j.attempts])).to.deep.equal([[job1, 'send-email-batch', 'Failed', 1], [job2, 'send-email-batch', 'Failed', 1]].sort((x, y) => Number(x[0]) - Number(y[0])));
      expect(failed.map((j) => j.id), 'newest first').to.deep.equal([...failed.map((j) => j.id)].sort((x, y) => y - x));
      expect(shown[0].error).to.match(/^1 of 1 emails refused: .*550 Mailbox unavailable/);
      const summary = (await get(admin, '/api/admin/jobs/summary').expect(200)).body;
      expect(summary.rows.Failed).to.be.at.least(2);
      expect(summary.queue.failed, 'BullMQ failed count').to.be.at.least(2);
      expect(Object.keys(summary.rows).sort()).to.deep.equal(['Completed', 'Failed', 'Pending']);

      // Retry one (no worker runs yet: the state the retry leaves is seen as it is).
      expect((await admin.post(`/api/admin/jobs/${job1}/retry`).expect(200)).body).to.deep.equal({ retried: 1 });
      const row1 = (await db.models.Job.findByPk(job1))!;
      expect([row1.status, row1.error]).to.deep.equal([JobStatus.Pending, null]);
      await emails[0].reload();
      expect([emails[0].status, emails[0].error]).to.deep.equal(['Pending', null]);
      const outbox = await db.models.Outbox.findOne({ where: { idempotencyKey: `retry:${job1}:1` } });
      expect(outbox?.payload).to.deep.equal({ jobRowId: job1, payload: { emailIds: [emails[0].id] } });
      const again = await admin.post(`/api/admin/jobs/${job1}/retry`).expect(409);
      expect(again.body.error.message).to.equal(`Only a failed job can be retried: job ${job1} is Pending`);

      // Retry every failed job: the other email too (this file runs first: its failures are the only ones).
      const all = (await admin.post('/api/admin/jobs/retry-failed').expect(200)).body;
      expect(all.retried).to.be.at.least(1);
      await emails[1].reload();
      expect(emails[1].status).to.equal('Pending');

      worker = await startTestWorker();
      for (const jobId of [job1, job2]) expect((await jobSettled(t.ctx, jobId)).status).to.equal(JobStatus.Completed);
      for (const person of people) expect(await waitForMail(person.email)).to.have.length(1);
      for (const campaign of campaigns) {
        const done = await campaignDone(campaign.id, (p) => p.sent === 1);
        expect([done.sent, done.failed]).to.deep.equal([1, 0]);
      }
      await admin.post(`/api/admin/jobs/${job1}/retry`).expect(409);
      await admin.post('/api/admin/jobs/999999999/retry').expect(404);

      const retried = await db.models.AuditEvent.findOne({ where: { action: 'job.retried', entityId: String(job1) } });
      expect(retried?.actorUserId).to.equal(adminId);
      expect(retried?.details).to.deep.include({ name: 'send-email-batch', before: { status: 'Failed', attempts: 1 }, after: { status: 'Pending' } });
      const bulk = await db.models.AuditEvent.findOne({ where: { action: 'jobs.retried_failed', actorUserId: adminId } });
      expect((bulk?.details as { jobs: { id: number }[] }).jobs.map((j) => j.id)).to.include(job2);
    });
  });
});
