/**
 * `npm run lighthouse`: issue 14's Lighthouse measurements (scripts/lighthouse/measure.ts) on the
 * built SPA as the API serves it (compressed, cached), the API in a process of its own as in
 * production and in the bench (in this process it would wait on Lighthouse's own work, and
 * Lighthouse reads that wait as a slow server), on a database of its own (created, seeded,
 * dropped). Prints each page's median scores and LCP against the targets, writes them to
 * test-artifacts/lighthouse/summary.json and every run's full report beside it.
 * `-- --runs 1` for a single run per page (3 by default); `-- --only phone|desktop` for one profile.
 * Build the SPA first: `NODE_ENV=production npm run build -w web`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase } from '@platform/db';
import { LIGHTHOUSE_TARGETS, measureLighthouse, meetsLighthouseTargets, prepareLighthousePages, type FormFactor } from './lighthouse/measure';
import { freePort, startProcess, type ProductProcess } from './product-process';
import { seedDemoData } from './seed';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_DIST = process.env.WEB_DIST ?? path.join(ROOT, 'web/dist');
const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const OUT_DIR = path.join(ROOT, 'test-artifacts', 'lighthouse');

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at < 0 ? undefined : process.argv[at + 1];
}
const RUNS = Number(argument('runs') ?? 3);
const ONLY = argument('only') as FormFactor | undefined;
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs takes a whole number ≥ 1');
if (ONLY !== undefined && ONLY !== 'phone' && ONLY !== 'desktop') throw new Error('--only takes phone or desktop');

const runId = `${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
const dbName = `platform_lighthouse_${runId}`;

async function main(): Promise<void> {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error(`No SPA build at ${WEB_DIST}: run NODE_ENV=production npm run build -w web first`);
  await createDatabase(ADMIN_URL, dbName);
  const url = databaseUrl(ADMIN_URL, dbName);
  const db = connect(url);
  let api: ProductProcess | null = null;
  try {
    await createMigrator(db.sequelize).up();
    await seedDemoData(db);
    const pages = await prepareLighthousePages(db);
    const port = await freePort();
    // As the bench starts it (scripts/bench.ts).
    api = await startProcess('api', {
      ...process.env, NODE_ENV: 'development', DATABASE_URL: url, REDIS_PREFIX: `lighthouse-${runId}`, LOG_LEVEL: 'warn',
      PORT: String(port), HOST: '127.0.0.1', WEB_DIST, BUILD_ID: `lighthouse-${runId}`,
    });
    const base = `http://127.0.0.1:${port}`;
    const { phone, desktop, accessibility } = LIGHTHOUSE_TARGETS;
    console.log(`Lighthouse 12 on ${base}, median of ${RUNS} run(s) per page (targets: phone performance ≥ ${phone.performance} and LCP ≤ ${phone.lcpMs / 1000} s, desktop ≥ ${desktop.performance}, accessibility ${accessibility.toFixed(1)})`);
    const results = await measureLighthouse(base, pages, { runs: RUNS, only: ONLY, reportDir: OUT_DIR, log: (line) => console.log(line) });
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(path.join(OUT_DIR, 'summary.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), targets: LIGHTHOUSE_TARGETS, runsPerPage: RUNS, results }, null, 2)}\n`);
    const missed = results.filter((m) => !meetsLighthouseTargets(m));
    console.log(missed.length ? `${missed.length} of ${results.length} pages miss a target.` : `All ${results.length} pages meet the targets.`);
  } finally {
    await api?.terminate();
    await db.close();
    await dropDatabase(ADMIN_URL, dbName);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
