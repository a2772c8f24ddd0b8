/**
 * `npm run bench`: the lifecycle's speed targets, measured on a database of its own (created,
 * filled, dropped). Prints:
 *  - a 10,000-row result import, upload to Completed (dry run + commit), against a raw PostgreSQL
 *    COPY of the same rows in the same run (the ratio);
 *  - lab report PDFs per second;
 *  - the clinic's pending list p50 / p99 at 100,000 samples.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Redis } from 'ioredis';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase } from '@platform/db';
import { startApi } from '@platform/api';
import { startWorker } from '@platform/worker';
import { renderLabReport } from '@platform/worker/documents/lab-report';
import { createLogger, createMailer, loadConfig } from '@platform/server';
import { seedDemoData } from './seed';
import { DEMO_PASSWORD, DEMO_USERS, type DemoUserKey } from './demo-users';

const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LIST_SAMPLES = 100_000;
const IMPORT_ROWS = 10_000;
const LIST_REQUESTS = 300;
const PDF_COUNT = 200;

const runId = `${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
const dbName = `platform_bench_${runId}`;
const redisPrefix = `bench-${runId}`;

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** A tiny HTTP client with a cookie and the CSRF token, signed in as one demo user. */
async function signIn(base: string, who: DemoUserKey, portal: string) {
  let cookie = '';
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } });
    const set = res.headers.get('set-cookie');
    if (set) cookie = set.split(';')[0];
    return res;
  };
  const csrf = async () => ((await (await call('/api/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
  let token = await csrf();
  const login = await call('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': token },
    body: JSON.stringify({ email: DEMO_USERS[who].email, password: DEMO_PASSWORD, portal }),
  });
  if (!login.ok) throw new Error(`sign-in of ${who} failed: ${login.status}`);
  token = await csrf();
  return {
    get: (path: string) => call(path),
    post: (path: string, body: string, contentType = 'application/json') =>
      call(path, { method: 'POST', headers: { 'content-type': contentType, 'x-csrf-token': token }, body }),
  };
}

async function waitForJob(client: Awaited<ReturnType<typeof signIn>>, jobId: number) {
  for (;;) {
    const job = (await (await client.get(`/api/lab-toolbox/jobs/${jobId}`)).json()) as { status: string; error?: string; result?: { errors?: unknown[] } };
    if (job.status === 'Completed') return job;
    if (job.status === 'Failed') throw new Error(`import job failed: ${job.error}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** 100,000 clinic samples spread over statuses, plus 10,000 in the lab's queue for the import. */
async function fill(client: pg.Client, accountId: number, physicianId: number, userId: number) {
  await client.query(`
    INSERT INTO patients (account_id, first_name, last_name, date_of_birth, sex)
    SELECT $1, 'Bench' || g, 'Patient' || (g % 997), DATE '1950-01-01' + (g % 9000), 'M' FROM generate_series(1, $2) g`, [accountId, LIST_SAMPLES + IMPORT_ROWS]);
  await client.query(`
    INSERT INTO orders (order_number, account_id, patient_id, physician_id, origin, portal, created_by_user_id, created_at)
    SELECT 'RG_' || lpad(p.rn::text, 9, '0'), $1, p.id, $2, 'Provider Ordered', 'Clinical Portal', $3, now() - (p.rn || ' minutes')::interval
    FROM (SELECT id, row_number() OVER (ORDER BY id) rn FROM patients WHERE first_name LIKE 'Bench%') p`, [accountId, physicianId, userId]);
  await client.query(`
    INSERT INTO samples (barcode, sample_type, status, account_id, patient_id, order_id, created_at)
    SELECT '61' || lpad(o.rn::text, 12, '0'), 'Buccal Swab',
      CASE WHEN o.rn > $2 THEN 'In Queue' ELSE (ARRAY['Order Placed','Pending Shipment','In Transit','In Queue','In Testing','Completed'])[1 + o.rn % 6] END,
      $1, o.patient_id, o.id, o.created_at
    FROM (SELECT id, patient_id, created_at, row_number() OVER (ORDER BY id) rn FROM orders WHERE order_number LIKE 'RG_%') o`, [accountId, LIST_SAMPLES]);
  await client.query(`
    INSERT INTO tests (order_id, sample_id, name, parent_type)
    SELECT s.order_id, s.id, 'PROSTOX ultra', 'PROSTOX' FROM samples s WHERE s.barcode LIKE '61%'`);
  await client.query('ANALYZE');
  const { rows } = await client.query(`SELECT barcode FROM samples WHERE barcode LIKE '61%' ORDER BY barcode OFFSET $1`, [LIST_SAMPLES]);
  return rows.map((r) => r.barcode as string);
}

async function main() {
  await createDatabase(ADMIN_URL, dbName);
  const url = databaseUrl(ADMIN_URL, dbName);
  const env = { ...process.env, DATABASE_URL: url, REDIS_PREFIX: redisPrefix, LOG_LEVEL: 'warn', PORT: '0', NODE_ENV: 'test', WORKER_CONCURRENCY: '2' };
  const config = loadConfig(env);
  const db = connect(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let api: Awaited<ReturnType<typeof startApi>> | null = null;
  let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
  try {
    await createMigrator(db.sequelize).up();
    await seedDemoData(db);
    const riverside = (await db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!;
    const physician = (await db.models.Physician.findOne({ where: { accountId: riverside.id } }))!;
    const physicianUser = (await db.models.User.findOne({ where: { email: DEMO_USERS.physician.email } }))!;
    let t = process.hrtime.bigint();
    const importBarcodes = await fill(client, riverside.id, physician.id, physicianUser.id);
    console.log(`filled ${LIST_SAMPLES.toLocaleString()} + ${IMPORT_ROWS.toLocaleString()} samples in ${(ms(t) / 1000).toFixed(1)} s`);

    api = await startApi(config);
    worker = await startWorker(config);

    // Pending list at 100,000 samples.
    const provider = await signIn(api.url, 'physician', 'provider');
    const timings: number[] = [];
    for (let i = 0; i < LIST_REQUESTS; i++) {
      const page = 1 + (i % 20);
      const sort = ['', '&sort=barcode&order=asc', '&sort=status&order=desc'][i % 3];
      t = process.hrtime.bigint();
      const res = await provider.get(`/api/provider-clinic/${riverside.id}/tests?category=PENDING&page=${page}&pageSize=10${sort}`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`pending list answered ${res.status}`);
      timings.push(ms(t));
    }
    timings.sort((a, b) => a - b);
    const total = (await provider.get(`/api/provider-clinic/${riverside.id}/tests?category=PENDING&page=1&pageSize=10`)).headers.get('x-total-count');

    // 10,000-row import: upload → dry run Completed → commit → Completed.
    const csv = `barcode,risk_level\n${importBarcodes.map((b, i) => `${b},${['Low-Average Risk', 'Intermediate Risk', 'High Risk', 'Very High Risk'][i % 4]}`).join('\n')}\n`;
    const lab = await signIn(api.url, 'lab1', 'lab');
    t = process.hrtime.bigint();
    const upload = (await (await lab.post(`/api/lab-toolbox/import-files?kind=cancer-toxicity&filename=bench.csv`, csv, 'text/csv')).json()) as { jobId: number; fileId: number };
    const dry = await waitForJob(lab, upload.jobId);
    const dryMs = ms(t);
    if (dry.result?.errors?.length) throw new Error(`dry run found ${dry.result.errors.length} errors`);
    const t2 = process.hrtime.bigint();
    const commit = (await (await lab.post(`/api/lab-toolbox/import-files/${upload.fileId}/commit`, '{}')).json()) as { jobId: number };
    await waitForJob(lab, commit.jobId);
    const commitMs = ms(t2);
    const importMs = ms(t);

    // The same rows through a raw COPY, in the same run.
    await client.query('CREATE TEMP TABLE copy_baseline (barcode text, risk_level text)');
    t = process.hrtime.bigint();
    await pipeline(Readable.from([csv.split('\n').slice(1).join('\n')]), client.query(copyFrom('COPY copy_baseline FROM STDIN WITH (FORMAT csv)')));
    const copyMs = ms(t);

    await worker.close();
    worker = null;

    // Lab report PDFs per second (rendering only, on released results).
    const { rows } = await client.query(
      `SELECT tr.id AS result_id, t.sample_id FROM test_results tr JOIN tests t ON t.id = tr.test_id ORDER BY tr.id LIMIT $1`, [PDF_COUNT]);
    const lab2 = (await db.models.User.findOne({ where: { email: DEMO_USERS.lab2.email } }))!;
    await client.query(`UPDATE test_results SET status = 'Released', reviewed_by_user_id = $1, reviewed_at = now() WHERE id = ANY($2)`, [lab2.id, rows.map((r) => r.result_id)]);
    const deps = { config, db, logger: createLogger(config, 'bench'), mailer: createMailer(config), relay: { relay: async () => undefined, sweep: async () => 0, start() {}, stop() {} } };
    t = process.hrtime.bigint();
    for (const r of rows) await renderLabReport(deps, Number(r.sample_id), Number(r.result_id));
    const pdfPerSecond = rows.length / (ms(t) / 1000);

    console.log(`
Benchmark (${new Date().toISOString()}, ${(await import('node:os')).cpus().length} cores)
  10,000-row import, upload → Completed:  ${(importMs / 1000).toFixed(2)} s  (dry run ${(dryMs / 1000).toFixed(2)} s, commit ${(commitMs / 1000).toFixed(2)} s)
  raw COPY of the same rows:              ${(copyMs / 1000).toFixed(3)} s
  ratio import / COPY:                    ${(importMs / copyMs).toFixed(0)}×
  lab report PDFs:                        ${pdfPerSecond.toFixed(0)} per second (${rows.length} rendered)
  pending list at ${LIST_SAMPLES.toLocaleString()} samples (x-total-count ${total}), ${LIST_REQUESTS} requests:
                                          p50 ${percentile(timings, 50).toFixed(1)} ms, p99 ${percentile(timings, 99).toFixed(1)} ms`);
  } finally {
    await worker?.close();
    await api?.stop();
    await client.end();
    await db.close();
    await dropDatabase(ADMIN_URL, dbName);
    const redis = new Redis(config.redisUrl);
    const keys = await redis.keys(`${redisPrefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
