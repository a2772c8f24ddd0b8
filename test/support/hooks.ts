/**
 * The run's fixtures. Once per run, in mocha's main process (mochaGlobalSetup): a database migrated
 * and seeded with the demo data, kept as a template. Once per test process (the main one, or each of
 * `--parallel`'s workers): a copy of that template, a Redis key prefix and an SMTP catcher of its own,
 * so files running side by side share nothing. At the end (mochaGlobalTeardown) every database and
 * Redis key of the run is dropped.
 * Everything a test needs reaches it through process.env, as it would reach the product.
 */
import { randomBytes } from 'node:crypto';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase } from '@platform/db';
import { startMailCatcher, type MailCatcher } from '../../scripts/mail-catcher';
import { startTwilioStandIn, type TwilioStandIn } from '../../scripts/twilio-stand-in';
import { loadConfig } from '@platform/server';
import { seedDemoData } from '../../scripts/seed';
import { deleteRedisKeys } from '../../scripts/redis-keys';
import pg from 'pg';

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** Set by the main process before any worker starts: workers inherit it and name their copies after it. */
const RUN_ID_VAR = 'TEST_RUN_ID';
const templateOf = (runId: string) => `platform_test_${runId}`;

export let mailCatcher: MailCatcher;
/** This process's Twilio stand-in: every text the product sends in a test is recorded here (docs/sms.md). */
export let smsStandIn: TwilioStandIn;
let processReady: Promise<void> | undefined;

/** This process's own database (a copy of the run's template), Redis prefix and mail catcher. */
async function prepareProcess(): Promise<void> {
  const runId = process.env[RUN_ID_VAR]!;
  const worker = process.env.MOCHA_WORKER_ID ?? 'main';
  const name = `${templateOf(runId)}_${worker}`;
  await createDatabase(ADMIN_URL, name, { template: templateOf(runId) });
  const url = databaseUrl(ADMIN_URL, name);
  Object.assign(process.env, { DATABASE_URL: url, REDIS_PREFIX: `test-${runId}-${worker}`, BUILD_ID: `test-${runId}` });
  mailCatcher = await startMailCatcher({ databaseUrl: url });
  process.env.SMTP_PORT = String(mailCatcher.port);
  const { sms } = loadConfig(process.env);
  smsStandIn = await startTwilioStandIn({ accountSid: sms.accountSid, authToken: sms.authToken, ourNumber: sms.from });
  process.env.TWILIO_API_URL = smsStandIn.url;
}

export async function mochaGlobalSetup(this: unknown) {
  const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  Object.assign(process.env, {
    [RUN_ID_VAR]: runId,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    OUTBOX_SWEEP_MS: '500',
    OUTBOX_STALE_MS: '1000',
    WORKER_LOCK_MS: '3000',
    // The tests stand behind a proxy on loopback: the X-Forwarded-For they send names each client.
    TRUST_PROXY: 'loopback',
  });
  await createDatabase(ADMIN_URL, templateOf(runId));
  const db = connect(databaseUrl(ADMIN_URL, templateOf(runId)));
  try {
    await createMigrator(db.sequelize).up();
    await seedDemoData(db);
  } finally {
    await db.close();
  }
}

export async function mochaGlobalTeardown() {
  const runId = process.env[RUN_ID_VAR]!;
  if (!process.env.KEEP_TEST_DB) {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${templateOf(runId)}%`]);
      // The copies first: the template cannot go while a copy is being made from it.
      for (const { datname } of rows.sort((a, b) => b.datname.length - a.datname.length)) await dropDatabase(ADMIN_URL, datname);
    } finally {
      await client.end();
    }
  }
  await deleteRedisKeys(process.env.REDIS_URL, `test-${runId}`);
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    // In --parallel this runs before every file of a worker: the worker prepares itself once.
    processReady ??= prepareProcess();
    await processReady;
  },
  async afterAll(this: Mocha.Context) {
    // A worker of --parallel runs more files after this one: its catcher lives as long as it does.
    if (process.env.MOCHA_WORKER_ID === undefined) {
      await mailCatcher?.close();
      await smsStandIn?.close();
    }
  },
};
