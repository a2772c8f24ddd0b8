/**
 * A bulk campaign to 500 providers survives its worker being killed (SIGKILL) half-way through
 * writing the emails: another worker resumes the same job, and every person gets exactly one
 * logged email and one message, no more.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { Op, QueryTypes } from 'sequelize';
import { EmailCampaign, JobStatus } from '@platform/domain';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { startCampaign } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { CAMPAIGN_BATCH_SIZE } from '@platform/worker/processors/email-campaign';
import { startTestWorker, testConfig } from '../support/server';
import { emailJobRowIds, emailJobsSettled, jobSettled } from '../support/jobs';
import { until } from '../support/wait';
import { adminCaller, createProvidersInBulk } from '../support/fixtures/campaigns';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RECIPIENTS = 500;
const LOCK_MS = '2000';

describe('email campaign: a worker killed mid-campaign', function () {
  this.timeout(180_000);
  let ctx: AppContext;
  let child: ChildProcess | null = null;
  let replacement: RunningWorker | null = null;

  before(async () => {
    ctx = await createContext(testConfig(), 'test');
    ctx.relay.start(); // as the api does: what a killed worker committed but never relayed is swept
  });
  after(async () => {
    child?.kill('SIGKILL');
    await replacement?.close();
    await closeContext(ctx);
  });

  /** Recipients of the campaign whose email is written, and the emails written to its addresses. */
  async function written(campaignId: number, addresses: string[]) {
    const [{ queued }] = await ctx.db.sequelize.query<{ queued: number }>(
      'SELECT count(email_id) AS queued FROM email_campaign_recipients WHERE campaign_id = :campaignId',
      { replacements: { campaignId }, type: QueryTypes.SELECT },
    );
    const emails = await ctx.db.models.Email.count({ where: { toAddress: { [Op.in]: addresses } } });
    return { queued, emails };
  }

  it('500 recipients: the job resumes after SIGKILL, each gets exactly one email, progress shows on the way', async () => {
    const { accountId, addresses } = await createProvidersInBulk(ctx.db, RECIPIENTS);
    child = spawn(process.execPath, ['--import', 'tsx', 'worker/src/main.ts'], { cwd: ROOT, env: { ...process.env, WORKER_LOCK_MS: LOCK_MS }, stdio: 'ignore' });

    const started = await startCampaign(ctx, await adminCaller(ctx.db), EmailCampaign.PortalSignupReminder, { accountIds: [accountId], roles: [], neverSignedIn: false });
    expect([started.recipientCount, started.queued, started.jobStatus]).to.deep.equal([RECIPIENTS, 0, JobStatus.Pending]);
    const jobId = started.jobId!;

    // Sample the job row's progress for the whole run.
    const progressSeen: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const row = await ctx.db.models.Job.findByPk(jobId, { attributes: ['progress'] });
        progressSeen.push(row!.progress);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    try {
      // Kill the first worker once it has written some, not all, of the emails.
      const midway = await until(async () => {
        const row = await ctx.db.models.Job.findByPk(jobId);
        if (row!.status !== JobStatus.Pending) throw new Error(`the campaign job finished (${row!.status}) before it could be killed`);
        return row!.progress > 0 && row!.progress < 100 ? row!.progress : null;
      }, { what: 'the campaign job to be part-way', timeoutMs: 60_000, intervalMs: 10 });
      child.kill('SIGKILL');
      await new Promise((r) => child!.once('exit', r));
      child = null;

      // What the killed worker left: whole batches only (a batch is one transaction), each recipient's email with its row.
      const atKill = await written(started.id, addresses);
      expect(midway).to.be.greaterThan(0).and.lessThan(100);
      expect(atKill.queued, 'recipients with an email at the kill').to.be.greaterThan(0).and.lessThan(RECIPIENTS);
      expect(atKill.queued % CAMPAIGN_BATCH_SIZE, 'a batch half-written').to.equal(0);
      expect(atKill.emails, 'emails without a recipient row pointing to them').to.equal(atKill.queued);
      expect((await ctx.db.models.Job.findByPk(jobId))!.status).to.equal(JobStatus.Pending);

      replacement = await startTestWorker({ WORKER_LOCK_MS: LOCK_MS, WORKER_CONCURRENCY: '20' });
      const job = await jobSettled(ctx, jobId, { what: 'the campaign job to finish after the restart', timeoutMs: 60_000 });
      expect(job.status, job.error ?? '').to.equal(JobStatus.Completed);
      expect(job.result).to.deep.equal({ recipients: RECIPIENTS, queuedNow: RECIPIENTS - atKill.queued, queuedBefore: atKill.queued });

      // Every batch's send-email-batch job over (none left to start or to end): the catcher holds all it will ever get.
      const recipients = await ctx.db.models.EmailCampaignRecipient.findAll({ where: { campaignId: started.id } });
      const emailIds = recipients.map((r) => r.emailId).filter((id): id is number => id !== null);
      const batches = await ctx.db.models.Job.findAll({ where: { name: 'send-email-batch', id: { [Op.in]: await emailJobRowIds(ctx, emailIds) } } });
      expect(batches, 'a send-email-batch job per batch written').to.have.length(RECIPIENTS / CAMPAIGN_BATCH_SIZE);
      const batched = batches.flatMap((b) => (b.payload as { emailIds: number[] }).emailIds);
      expect([...batched].sort((x, y) => x - y), 'each email in one batch').to.deep.equal([...emailIds].sort((x, y) => x - y));
      await emailJobsSettled(ctx, emailIds, { what: 'the 500 emails to be sent', timeoutMs: 90_000 });
    } finally {
      sampling = false;
      await sampler;
    }

    const recipients = await ctx.db.models.EmailCampaignRecipient.findAll({ where: { campaignId: started.id } });
    expect(recipients).to.have.length(RECIPIENTS);
    expect(new Set(recipients.map((r) => r.emailId)).size, 'distinct emails of the recipients').to.equal(RECIPIENTS);
    expect(recipients.filter((r) => r.emailId === null)).to.deep.equal([]);

    const emails = await ctx.db.models.Email.findAll({ where: { toAddress: { [Op.in]: addresses } }, attributes: ['id', 'status', 'toAddress', 'template'] });
    expect(emails, 'emails written for the campaign').to.have.length(RECIPIENTS);
    expect(emails.filter((e) => e.status !== 'Sent').map((e) => [e.id, e.status])).to.deep.equal([]);
    expect(new Set(emails.map((e) => e.template))).to.deep.equal(new Set([EmailCampaign.PortalSignupReminder]));

    const caught = await ctx.db.sequelize.query<{ message_id: string; to_addresses: string[] }>(
      'SELECT message_id, to_addresses FROM caught_mail WHERE to_addresses && ARRAY[:addresses]::text[]',
      { replacements: { addresses }, type: QueryTypes.SELECT },
    );
    expect(caught, 'messages caught').to.have.length(RECIPIENTS);
    expect(new Set(caught.map((c) => c.message_id)).size, 'distinct Message-IDs').to.equal(RECIPIENTS);
    expect(caught.flatMap((c) => c.to_addresses).sort(), 'one message per recipient').to.deep.equal([...addresses].sort());

    const progress = (await ctx.db.models.EmailCampaignRun.findByPk(started.id))!;
    expect(progress.jobId).to.equal(jobId);
    expect(progressSeen.some((p) => p > 0 && p < 100), `progress seen: ${[...new Set(progressSeen)].join(', ')}`).to.equal(true);
    expect(progressSeen.at(-1)).to.equal(100);
  });
});
