/**
 * Root hooks: once per run, a database of its own (created, migrated, seeded with the demo data,
 * dropped at the end), a Redis key prefix of its own (its keys, and those of the prefixes tests derive
 * from it, deleted at the end) and an SMTP catcher.
 * Everything a test needs reaches it through process.env, as it would reach the product.
 */
import { randomBytes } from 'node:crypto';
import { connect, createDatabase, createMigrator, dropDatabase } from '@platform/db';
import { startMailCatcher, type MailCatcher } from '../../scripts/mail-catcher';
import { seedDemoData } from '../../scripts/seed';
import { deleteRedisKeys } from '../../scripts/redis-keys';

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const dbName = `platform_test_${runId}`;

export let mailCatcher: MailCatcher;

function databaseUrlFor(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}


export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    await createDatabase(ADMIN_URL, dbName);
    const databaseUrl = databaseUrlFor(dbName);
    Object.assign(process.env, {
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: `test-${runId}`,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      OUTBOX_SWEEP_MS: '500',
      OUTBOX_STALE_MS: '1000',
      WORKER_LOCK_MS: '3000',
      BUILD_ID: `test-${runId}`,
    });
    const db = connect(databaseUrl);
    try {
      await createMigrator(db.sequelize).up();
      await seedDemoData(db);
    } finally {
      await db.close();
    }
    mailCatcher = await startMailCatcher({ databaseUrl });
    process.env.SMTP_PORT = String(mailCatcher.port);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await mailCatcher?.close();
    if (!process.env.KEEP_TEST_DB) await dropDatabase(ADMIN_URL, dbName);
    await deleteRedisKeys(process.env.REDIS_URL, `test-${runId}`);
  },
};
