/**
 * When a send-email job fails for good, the email log says so: after its last attempt at an SMTP
 * server that does not answer (a transient fault, retried until no attempt is left), not before.
 */
import net from 'node:net';
import { expect } from 'chai';
import { JobStatus } from '@platform/domain';
import { closeServerContext, createServerContext, type ServerContext } from '@platform/server';
import { startTestWorker, testConfig } from '../support/server';
import { jobSettled } from '../support/jobs';
import { until } from '../support/wait';

/** A local port nothing listens on (taken, then given back). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('send-email: a send that fails for good', function () {
  this.timeout(60_000);
  let ctx: ServerContext;
  before(() => {
    ctx = createServerContext(testConfig(), 'test');
  });
  after(() => closeServerContext(ctx));

  it('is retried while attempts are left (the email stays Pending), then the email is Failed with the reason', async () => {
    const worker = await startTestWorker({ SMTP_PORT: String(await closedPort()) });
    try {
      // Two attempts, a few seconds apart: between them the job waits in BullMQ's delayed set.
      const { email, jobRowId } = await ctx.db.sequelize.transaction(async (transaction) => {
        const row = await ctx.db.models.Email.create({ toAddress: 'unreachable@demo.test', subject: 'Unreachable', textBody: 'Hello', template: 'test', status: 'Pending' }, { transaction });
        const job = await ctx.db.models.Job.create({ name: 'send-email', status: JobStatus.Pending, progress: 0, payload: { emailId: row.id } as object, attempts: 0 }, { transaction });
        return { email: row, jobRowId: job.id };
      });
      const bullId = `unreachable-${jobRowId}`;
      await ctx.queue.add('send-email', { jobRowId, payload: { emailId: email.id } }, { jobId: bullId, attempts: 2, backoff: { type: 'fixed', delay: 4000 } });

      // The first attempt failed, the last is still to come: the email and the job row are Pending.
      await until(async () => (await ctx.queue.getJobState(bullId)) === 'delayed', { what: 'the first attempt to fail' });
      await email.reload();
      expect([email.status, email.error]).to.deep.equal(['Pending', null]);
      expect((await ctx.db.models.Job.findByPk(jobRowId))!.status).to.equal(JobStatus.Pending);

      const job = await jobSettled(ctx, jobRowId);
      expect([job.status, job.attempts]).to.deep.equal([JobStatus.Failed, 2]);
      expect(job.error).to.match(/ECONNREFUSED/);
      await email.reload();
      expect([email.status, email.sentAt]).to.deep.equal(['Failed', null]);
      expect(email.error).to.equal(job.error);
    } finally {
      await worker.close();
    }
  });
});
