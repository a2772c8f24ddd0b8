/**
 * A campaign's batch of emails is one send-email-batch job: each email is sent once, through the
 * pool, with its own Message-ID. A recipient refused for good (5xx) is Failed at once with its own
 * reason and the others are Sent; a fault that may pass (4xx) fails the attempt and the retry sends
 * only the emails still Pending; the job monitor's retry of a refused batch sends the refused ones.
 */
import { expect } from 'chai';
import { Op } from 'sequelize';
import { EmailCampaign, EmailStatus, JobStatus } from '@platform/domain';
import { closeServerContext, createServerContext, retryJob, startCampaign, type ServerContext } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { startTestWorker, testConfig } from '../support/server';
import { emailJobRowIds, emailJobsSettled, jobSettled } from '../support/jobs';
import { adminCaller, createProvidersInBulk, startStandInSmtp, type RecipientAnswer } from '../support/fixtures/campaigns';

const RECIPIENTS = 6;
const accept: RecipientAnswer = () => null;

describe('send-email-batch: a campaign batch sent as one job', function () {
  this.timeout(60_000);
  let ctx: ServerContext;
  let smtp: Awaited<ReturnType<typeof startStandInSmtp>>;
  let worker: RunningWorker | null = null;

  before(async () => {
    ctx = createServerContext(testConfig(), 'test');
    smtp = await startStandInSmtp(accept);
    worker = await startTestWorker({ SMTP_PORT: String(smtp.port) });
  });
  after(async () => {
    await worker?.close();
    await smtp?.close();
    await closeServerContext(ctx);
  });

  /**
   * A campaign to RECIPIENTS new providers (the server's answers set first, knowing their
   * addresses), its emails written; answers their addresses, emails and the one batch job sending them.
   */
  async function campaignBatch(answer: (addresses: string[]) => RecipientAnswer = () => accept) {
    const { accountId, addresses } = await createProvidersInBulk(ctx.db, RECIPIENTS);
    smtp.setAnswer(answer(addresses));
    const started = await startCampaign(ctx, await adminCaller(ctx.db), EmailCampaign.PortalSignupReminder, { accountIds: [accountId], roles: [], neverSignedIn: false });
    expect((await jobSettled(ctx, started.jobId!)).status).to.equal(JobStatus.Completed);
    const emails = await ctx.db.models.Email.findAll({ where: { toAddress: { [Op.in]: addresses } }, order: [['id', 'ASC']] });
    expect(emails).to.have.length(RECIPIENTS);
    const jobIds = await emailJobRowIds(ctx, emails.map((e) => e.id));
    expect(jobIds, 'one job for the batch').to.have.length(1);
    return { addresses, emails, jobId: jobIds[0] };
  }
  const acceptedFor = (addresses: string[]) => smtp.accepted.filter((a) => addresses.includes(a));

  it('sends every email of the batch once, each with its own Message-ID, and marks each Sent', async () => {
    const { addresses, emails, jobId } = await campaignBatch();
    const settled = await emailJobsSettled(ctx, emails.map((e) => e.id));
    const job = (await ctx.db.models.Job.findByPk(jobId))!;
    expect([job.name, job.status, job.attempts]).to.deep.equal(['send-email-batch', JobStatus.Completed, 1]);
    expect(job.result).to.deep.equal({ sent: RECIPIENTS, skipped: 0 });
    expect(settled.map((e) => e.status)).to.deep.equal(Array(RECIPIENTS).fill(EmailStatus.Sent));
    expect(new Set(settled.map((e) => e.messageId)).size, 'distinct Message-IDs').to.equal(RECIPIENTS);
    // A campaign's email carries no link token: the log keeps its text as written.
    expect(settled.filter((e) => !e.textBody.includes('/provider/login')).map((e) => e.id), 'emails whose logged text was lost').to.deep.equal([]);
    expect(acceptedFor(addresses).sort()).to.deep.equal([...addresses].sort());
  });

  it('a recipient refused for good is Failed with its reason, the others Sent; the job fails naming the count; the monitor\'s retry sends only the refused one', async () => {
    let refusedAddress = '';
    const { addresses, emails, jobId } = await campaignBatch((all) => {
      refusedAddress = all[2];
      return (address) => (address === refusedAddress ? { code: 550, message: 'Mailbox unavailable' } : null);
    });
    const job = await jobSettled(ctx, jobId);
    expect([job.status, job.attempts]).to.deep.equal([JobStatus.Failed, 1]);
    expect(job.error).to.match(/^1 of 6 emails refused: .*550 Mailbox unavailable/);
    const after = await ctx.db.models.Email.findAll({ where: { id: { [Op.in]: emails.map((e) => e.id) } } });
    const refused = after.filter((e) => e.toAddress === refusedAddress);
    expect(refused.map((e) => [e.status, e.sentAt])).to.deep.equal([[EmailStatus.Failed, null]]);
    expect(refused[0].error).to.match(/550 Mailbox unavailable/).and.not.match(/of 6 emails/);
    expect(after.filter((e) => e.toAddress !== refusedAddress).map((e) => e.status)).to.deep.equal(Array(RECIPIENTS - 1).fill(EmailStatus.Sent));
    expect(acceptedFor(addresses).sort()).to.deep.equal(addresses.filter((a) => a !== refusedAddress).sort());

    smtp.setAnswer(accept);
    expect(await retryJob(ctx, await adminCaller(ctx.db), jobId)).to.deep.equal({ retried: 1 });
    const retried = await jobSettled(ctx, jobId);
    expect([retried.status, retried.result]).to.deep.equal([JobStatus.Completed, { sent: 1, skipped: RECIPIENTS - 1 }]);
    const sentAgain = await ctx.db.models.Email.findAll({ where: { id: { [Op.in]: emails.map((e) => e.id) } } });
    expect(sentAgain.map((e) => e.status)).to.deep.equal(Array(RECIPIENTS).fill(EmailStatus.Sent));
    expect(acceptedFor(addresses).sort(), 'each recipient once').to.deep.equal([...addresses].sort());
  });

  it('a fault that may pass (4xx) fails only the attempt: the retry sends the emails still Pending, none twice', async () => {
    let asked = 0;
    // One recipient is turned away the first time it is asked about, as a busy server does; every later ask is accepted.
    const { addresses, emails, jobId } = await campaignBatch((all) => (address) => (address === all[4] && asked++ === 0 ? { code: 451, message: 'Try again later' } : null));
    const job = await jobSettled(ctx, jobId);
    expect([job.status, job.attempts]).to.deep.equal([JobStatus.Completed, 2]);
    expect(job.result).to.deep.equal({ sent: 1, skipped: RECIPIENTS - 1 });
    expect(asked, 'times the busy recipient was asked about').to.equal(2);
    const settled = await ctx.db.models.Email.findAll({ where: { id: { [Op.in]: emails.map((e) => e.id) } } });
    expect(settled.map((e) => [e.status, e.error])).to.deep.equal(Array(RECIPIENTS).fill([EmailStatus.Sent, null]));
    expect(acceptedFor(addresses).sort(), 'each recipient once').to.deep.equal([...addresses].sort());
  });

  it('refused and busy in one attempt: the retry sends the busy one; the job still fails for good for the refused one, which stays Failed', async () => {
    let asked = 0;
    let refusedAddress = '';
    const { addresses, emails, jobId } = await campaignBatch((all) => {
      refusedAddress = all[1];
      return (address) => {
        if (address === refusedAddress) return { code: 550, message: 'Mailbox unavailable' };
        return address === all[3] && asked++ === 0 ? { code: 451, message: 'Try again later' } : null;
      };
    });
    const job = await jobSettled(ctx, jobId);
    expect([job.status, job.attempts]).to.deep.equal([JobStatus.Failed, 2]);
    expect(job.error).to.match(/^1 of 6 emails refused: in an earlier attempt/);
    const settled = await ctx.db.models.Email.findAll({ where: { id: { [Op.in]: emails.map((e) => e.id) } } });
    expect(settled.filter((e) => e.toAddress === refusedAddress).map((e) => e.status)).to.deep.equal([EmailStatus.Failed]);
    expect(settled.filter((e) => e.toAddress !== refusedAddress).map((e) => e.status)).to.deep.equal(Array(RECIPIENTS - 1).fill(EmailStatus.Sent));
    expect(acceptedFor(addresses).sort(), 'each accepted recipient once').to.deep.equal(addresses.filter((a) => a !== refusedAddress).sort());
  });
});
