/**
 * Jobs run after their database is recreated (or restored from a backup) while Redis keeps the
 * finished jobs of the old one: each outbox row is sent under a random BullMQ id, never one made
 * from the row id (which the new database hands out again, and BullMQ ignores as a duplicate).
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { createDatabase, createMigrator, databaseUrl, dropDatabase, connect } from '@platform/db';
import { JobStatus } from '@platform/domain';
import { closeServerContext, createServerContext, queueEmail, type ServerContext } from '@platform/server';
import { startWorker, type RunningWorker } from '@platform/worker';
import { testConfig } from '../support/server';
import { until } from '../support/wait';
import { waitForMail } from '../support/mail';

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('job ids across databases', function () {
  this.timeout(120_000);
  const name = `platform_test_jobids_${randomBytes(4).toString('hex')}`;
  // Its own Redis prefix too, so the finished jobs it leaves are the only ones there. Read once the
  // root hooks have set the run's environment (the mail catcher's port).
  const config = () => testConfig({ DATABASE_URL: databaseUrl(ADMIN_URL, name), REDIS_PREFIX: `${process.env.REDIS_PREFIX}-jobids` });
  let worker: RunningWorker | null = null;
  let ctx: ServerContext | null = null;

  async function freshDatabase(): Promise<void> {
    await dropDatabase(ADMIN_URL, name);
    await createDatabase(ADMIN_URL, name);
    const db = connect(config().databaseUrl);
    try {
      await createMigrator(db.sequelize).up();
    } finally {
      await db.close();
    }
  }

  /** Queues one email in a new transaction and waits for its job's final state and the mail. */
  async function sendOne(to: string) {
    const email = await ctx!.db.sequelize.transaction((transaction) =>
      queueEmail(ctx!, transaction, { to, subject: 'Job id check', text: 'Hello', template: 'job-id-check' }),
    );
    const outbox = await ctx!.db.models.Outbox.findOne({ where: { idempotencyKey: `send-email:${email.id}` } });
    const job = await until(async () => {
      const row = await ctx!.db.models.Job.findOne({ where: { name: 'send-email' }, order: [['id', 'DESC']] });
      return row && row.status !== JobStatus.Pending ? row : null;
    }, { what: `the send-email job of ${to} to finish`, timeoutMs: 15_000 });
    return { outbox: outbox!, job };
  }

  async function start(): Promise<void> {
    ctx = createServerContext(config(), 'test');
    worker = await startWorker(config());
  }
  async function stop(): Promise<void> {
    await worker?.close();
    if (ctx) await closeServerContext(ctx);
    worker = null;
    ctx = null;
  }

  after(async () => {
    await ctx?.queue.obliterate({ force: true }); // the prefix is not the run's: its keys go here
    await stop();
    await dropDatabase(ADMIN_URL, name);
  });

  it('a recreated database numbers its outbox from 1 again, and its first job still runs', async () => {
    await freshDatabase();
    await start();
    const before = await sendOne(`jobids-before-${name}@example.test`);
    expect(before.job.status).to.equal(JobStatus.Completed);
    await stop();

    await freshDatabase(); // Redis keeps the finished job of the old database
    await start();
    const after = await sendOne(`jobids-after-${name}@example.test`);
    expect(after.outbox.id, 'the new database hands out the same outbox id').to.equal(before.outbox.id);
    expect(after.outbox.queueJobId).to.not.equal(before.outbox.queueJobId);
    expect(after.job.status).to.equal(JobStatus.Completed);
    expect(await waitForMail(`jobids-after-${name}@example.test`)).to.have.length(1);
  });
});
