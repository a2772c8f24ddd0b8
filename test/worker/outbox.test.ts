import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { JobStatus } from '@platform/domain';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { type OutboxRelay, queueEmail } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { startTestWorker, testConfig } from '../support/server';
import { mailTo, waitForMail } from '../support/mail';
import { jobSettled } from '../support/jobs';
import { until } from '../support/wait';
import { mailCatcher } from '../support/hooks';

const ROOT = path.resolve(import.meta.dirname, '../..');
const relayDown: OutboxRelay = { relay: async () => undefined, sweep: async () => 0, start() {}, stop() {} };

describe('outbox → BullMQ → worker', function () {
  this.timeout(60_000);
  let ctx: AppContext;
  before(async () => {
    ctx = await createContext(testConfig(), 'test');
  });
  after(() => closeContext(ctx));

  const emailTo = (to: string, relay: OutboxRelay = ctx.relay) =>
    ctx.db.sequelize.transaction((transaction) =>
      queueEmail({ ...ctx, relay }, transaction, { to, subject: 'Outbox test', text: 'Hello from the outbox test', template: 'test' }),
    );

  it('a job committed while the relay is down runs once the sweeper sends it', async () => {
    const worker = await startTestWorker();
    try {
      const to = 'relay-down@demo.test';
      const email = await emailTo(to, relayDown);
      // The email is written with its Message-ID, before anything sends it.
      const { messageId } = (await ctx.db.models.Email.findByPk(email.id))!;
      expect(messageId, 'Message-ID written with the email').to.match(/^<[0-9a-f-]{36}@localhost>$/);
      const outbox = await ctx.db.models.Outbox.findOne({ where: { idempotencyKey: `send-email:${email.id}` } });
      expect(outbox!.status).to.equal('pending');
      const jobRowId = (outbox!.payload as { jobRowId: number }).jobRowId;
      // Nothing can run it: BullMQ holds no job for it (the relay never sent it), so the worker never
      // will; its status row is untouched and nothing was mailed.
      const queued = await ctx.queue.getJobs(['waiting', 'active', 'delayed', 'prioritized', 'completed', 'failed'], 0, -1);
      expect(queued.filter((j) => j && (j.id === `outbox-${outbox!.id}` || (j.data as { jobRowId?: number }).jobRowId === jobRowId)), 'BullMQ jobs of this outbox row').to.deep.equal([]);
      const untouched = await ctx.db.models.Job.findByPk(jobRowId);
      expect([untouched!.status, untouched!.attempts]).to.deep.equal([JobStatus.Pending, 0]);
      expect(await mailTo(to)).to.have.length(0); // nothing ran: the relay never sent it

      // The sweeper sends only rows older than OUTBOX_STALE_MS: sweep until it has sent this one.
      const swept = await until(async () => {
        const count = await ctx.relay.sweep();
        return (await ctx.db.models.Outbox.findByPk(outbox!.id))!.status === 'enqueued' ? { count } : null;
      }, { what: 'the sweeper to send the stale outbox row' });
      expect(swept.count).to.be.greaterThan(0);
      const mails = await waitForMail(to);
      expect(mails).to.have.length(1);
      expect(mails[0].subject).to.equal('Outbox test');
      expect(mails[0].messageId, 'sent under the Message-ID it was written with').to.equal(messageId);
      await outbox!.reload();
      expect(outbox!.status).to.equal('enqueued');
      const job = await jobSettled(ctx, jobRowId, { what: 'job Completed' });
      expect(job.status).to.equal(JobStatus.Completed);
      expect(job.progress).to.equal(100);

      // sweeping or relaying again does not send it twice: once whatever they put on BullMQ is over, still one email
      await ctx.relay.relay(outbox!.id);
      await ctx.relay.sweep();
      await jobSettled(ctx, jobRowId);
      expect(await mailTo(to)).to.have.length(1);
    } finally {
      await worker.close();
    }
  });

  it('a job Redis lost after it was sent (Redis restarted empty) runs once: the sweeper finds it missing and sends it again', async () => {
    const to = 'redis-lost@demo.test';
    const email = await emailTo(to);
    const outbox = await ctx.db.models.Outbox.findOne({ where: { idempotencyKey: `send-email:${email.id}` } });
    await until(async () => ((await outbox!.reload()).status === 'enqueued' ? true : null), { what: 'the relay to send the row' });
    const jobRowId = (outbox!.payload as { jobRowId: number }).jobRowId;
    await (await ctx.queue.getJob(outbox!.queueJobId))!.remove(); // what Redis forgets when it comes back without its data

    const worker = await startTestWorker();
    try {
      await until(async () => ((await ctx.relay.sweep()) > 0 || (await ctx.queue.getJob(outbox!.queueJobId)) ? true : null), { what: 'the sweeper to re-send the lost job' });
      const job = await jobSettled(ctx, jobRowId, { what: 'the re-sent job to finish' });
      expect(job.status).to.equal(JobStatus.Completed);
      expect(await waitForMail(to)).to.have.length(1);
      await ctx.relay.sweep(); // Completed: never sent again
      expect(await mailTo(to)).to.have.length(1);
    } finally {
      await worker.close();
    }
  });

  it('a worker killed (SIGKILL) in the middle of send-email leads to exactly one email', async () => {
    const to = 'killed-worker@demo.test';
    mailCatcher.setAcceptDelay(5_000); // the SMTP answer to DATA comes late: the kill lands mid-send
    let child: ChildProcess | null = spawn(process.execPath, ['--import', 'tsx', 'worker/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, WORKER_LOCK_MS: '2000' },
      stdio: 'ignore',
    });
    let replacement: RunningWorker | null = null;
    try {
      const email = await emailTo(to);
      const job = await until(async () => {
        const row = await ctx.db.models.Job.findOne({ where: { name: 'send-email', payload: { emailId: email.id } } as never });
        return (row?.attempts ?? 0) >= 1 ? row : null;
      }, { what: 'the first worker to start sending' });
      await new Promise((r) => setTimeout(r, 700));
      child.kill('SIGKILL');
      await new Promise((r) => child!.once('exit', r));
      child = null;
      const emailRow = () => ctx.db.models.Email.findByPk(email.id, { rejectOnEmpty: true });
      expect((await emailRow()).status).to.equal('Pending');
      mailCatcher.setAcceptDelay(0);

      replacement = await startTestWorker({ WORKER_LOCK_MS: '2000' });
      const mails = await waitForMail(to, 1, { timeoutMs: 30_000 });
      // Any duplicate would come from another run of the job: wait until none is left to start or to end.
      expect((await jobSettled(ctx, job!.id, { timeoutMs: 30_000 })).status).to.equal(JobStatus.Completed);
      expect(await mailTo(to)).to.have.length(1);
      const sent = await emailRow();
      expect(sent.status).to.equal('Sent');
      // Both runs sent it under the Message-ID kept on its row before the first send.
      expect(sent.messageId).to.match(/^<[0-9a-f-]{36}@localhost>$/);
      expect(mails[0].messageId).to.equal(sent.messageId);
    } finally {
      mailCatcher.setAcceptDelay(0);
      child?.kill('SIGKILL');
      await replacement?.close();
    }
  });

  it('an email written without a Message-ID (before emails were written with one) gets one at its first send, kept on its row', async () => {
    const worker = await startTestWorker();
    try {
      const to = 'no-message-id@demo.test';
      const { email, jobRowId } = await ctx.db.sequelize.transaction(async (transaction) => {
        const row = await ctx.db.models.Email.create({ toAddress: to, subject: 'Written before', textBody: 'Hello', template: 'test', status: 'Pending' }, { transaction });
        const job = await ctx.db.models.Job.create({ name: 'send-email', status: JobStatus.Pending, progress: 0, payload: { emailId: row.id } as object, attempts: 0 }, { transaction });
        return { email: row, jobRowId: job.id };
      });
      expect(email.messageId).to.equal(null);
      await ctx.queue.add('send-email', { jobRowId, payload: { emailId: email.id } }, { jobId: `no-message-id-${jobRowId}` });
      const [mail] = await waitForMail(to);
      expect((await jobSettled(ctx, jobRowId)).status).to.equal(JobStatus.Completed);
      await email.reload();
      expect(email.messageId).to.match(/^<[0-9a-f-]{36}@localhost>$/);
      expect(mail.messageId).to.equal(email.messageId);
    } finally {
      await worker.close();
    }
  });

  it('a bad payload fails at once, without retries, and the job row says Failed', async () => {
    const worker = await startTestWorker();
    try {
      const job = await ctx.db.models.Job.create({ name: 'send-email', status: JobStatus.Pending, progress: 0, payload: { emailId: -1 } as object, attempts: 0 });
      await ctx.queue.add('send-email', { jobRowId: job.id, payload: { emailId: -1 } }, { jobId: `bad-${job.id}` });
      const failed = await until(async () => {
        await job.reload();
        return job.status === JobStatus.Failed ? job : null;
      }, { what: 'job Failed' });
      expect(failed.error).to.match(/bad payload for send-email/);
      expect(failed.attempts).to.equal(0);
    } finally {
      await worker.close();
    }
  });
});
