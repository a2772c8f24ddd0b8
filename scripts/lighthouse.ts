/**
 * `npm run lighthouse`: Lighthouse 12 (performance and accessibility) on the built SPA as the API
 * serves it (compressed, cached), on a database of its own (created, seeded, dropped), driving
 * Debian's Chromium. Phone profile (Lighthouse's default: a mid-range phone on a slow 4G) for the
 * sign-in page, the patient's result page and the patient's order page; desktop profile for the
 * clinic's lists and the lab's pages, signed in through the page in the same browser (Lighthouse
 * keeps the storage: the SPA keeps who is signed in there). Prints each page's scores and LCP
 * against issue 14's targets and writes them to test-artifacts/lighthouse/summary.json.
 * Build the SPA first: `NODE_ENV=production npm run build`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse, { desktopConfig, type Flags } from 'lighthouse';
import { chromium, type Page } from 'playwright-core';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase } from '@platform/db';
import { startApi } from '@platform/api';
import { issuePatientResultLink, loadConfig } from '@platform/server';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/browser';
import { DEMO_PASSWORD, DEMO_USERS, type DemoUserKey } from './demo-users';
import { seedDemoData } from './seed';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WEB_DIST = process.env.WEB_DIST ?? path.join(ROOT, 'web/dist');
const ADMIN_URL = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const OUT_DIR = path.join(ROOT, 'test-artifacts', 'lighthouse');

/** Issue 14's targets. */
const TARGETS = { phone: { performance: 0.9, lcpMs: 2500 }, desktop: { performance: 0.95 }, accessibility: 1 } as const;

type FormFactor = 'phone' | 'desktop';
interface Measured {
  page: string;
  formFactor: FormFactor;
  performance: number;
  accessibility: number;
  lcpMs: number;
  failedAccessibilityAudits: string[];
}

const runId = `${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
const dbName = `platform_lighthouse_${runId}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function signInThroughPage(page: Page, base: string, signInPath: string, who: DemoUserKey): Promise<void> {
  await page.goto(`${base}${signInPath}`);
  await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_USERS[who].email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
}

async function measure(port: number, name: string, url: string, formFactor: FormFactor, signedIn: boolean): Promise<Measured> {
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: signedIn };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}: ${lhr.runtimeError.message}`);
  const accessibilityAudits = lhr.categories.accessibility.auditRefs.map((ref) => lhr.audits[ref.id]);
  return {
    page: name,
    formFactor,
    performance: lhr.categories.performance.score ?? 0,
    accessibility: lhr.categories.accessibility.score ?? 0,
    lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue ?? 0),
    failedAccessibilityAudits: accessibilityAudits.filter((a) => a.score !== null && a.score < 1).map((a) => a.id),
  };
}

function meetsTargets(m: Measured): boolean {
  const performance = m.formFactor === 'phone' ? m.performance >= TARGETS.phone.performance && m.lcpMs <= TARGETS.phone.lcpMs : m.performance >= TARGETS.desktop.performance;
  return performance && m.accessibility >= TARGETS.accessibility;
}

async function main(): Promise<void> {
  if (!existsSync(path.join(WEB_DIST, 'index.html'))) throw new Error(`No SPA build at ${WEB_DIST}: run NODE_ENV=production npm run build first`);
  await createDatabase(ADMIN_URL, dbName);
  const url = databaseUrl(ADMIN_URL, dbName);
  const config = loadConfig({ ...process.env, DATABASE_URL: url, REDIS_PREFIX: `lighthouse-${runId}`, LOG_LEVEL: 'warn', PORT: '0', NODE_ENV: 'test' }, { webDist: WEB_DIST });
  const db = connect(url);
  let api: Awaited<ReturnType<typeof startApi>> | null = null;
  const profile = mkdtempSync(path.join(tmpdir(), 'lighthouse-chromium-'));
  let browser: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | null = null;
  try {
    await createMigrator(db.sequelize).up();
    await seedDemoData(db);
    const riverside = (await db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!;
    // A result link for one of the demo samples (the page's first view: the greeting and the date-of-birth question).
    const sample = (await db.models.Sample.findOne({ where: { accountId: riverside.id }, order: [['id', 'ASC']] }))!;
    const patient = (await db.models.Patient.findByPk(sample.patientId))!;
    const { token } = await db.sequelize.transaction((transaction) => issuePatientResultLink({ db }, transaction, sample, patient, { createdByUserId: null }));

    api = await startApi(config);
    const base = api.url;
    const port = await freePort();
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
    });
    const page = browser.pages()[0] ?? (await browser.newPage());

    const results: Measured[] = [];
    const run = async (name: string, pathname: string, formFactor: FormFactor, signedIn = false) => {
      const measured = await measure(port, name, `${base}${pathname}`, formFactor, signedIn);
      results.push(measured);
      console.log(
        `${meetsTargets(measured) ? 'ok  ' : 'MISS'} ${formFactor.padEnd(7)} ${name.padEnd(28)} performance ${measured.performance.toFixed(2)}  LCP ${(measured.lcpMs / 1000).toFixed(2)} s  accessibility ${measured.accessibility.toFixed(2)}` +
          (measured.failedAccessibilityAudits.length ? `  (failing: ${measured.failedAccessibilityAudits.join(', ')})` : ''),
      );
    };

    console.log(`Lighthouse 12 on ${base} (targets: phone performance ≥ ${TARGETS.phone.performance} and LCP ≤ ${TARGETS.phone.lcpMs / 1000} s, desktop ≥ ${TARGETS.desktop.performance}, accessibility ${TARGETS.accessibility.toFixed(1)})`);
    await run('sign-in', '/provider/login', 'phone');
    await run('patient result', `/reports/patient_result/${sample.barcode}?token=${token}`, 'phone');
    await run('patient order', '/patient-portal/order/prostox/new', 'phone');

    await signInThroughPage(page, base, '/provider/login', 'physician');
    await run('clinic pending tests', `/provider-clinic/${riverside.id}/pending`, 'desktop', true);
    await run('clinic completed tests', `/provider-clinic/${riverside.id}/completed`, 'desktop', true);

    await signInThroughPage(page, base, '/lab_toolbox/login', 'lab1');
    await run('lab sample intake', '/lab_toolbox/intake_tool', 'desktop', true);
    await run('lab review', '/lab_toolbox/review', 'desktop', true);

    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(path.join(OUT_DIR, 'summary.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), targets: TARGETS, results }, null, 2)}\n`);
    const missed = results.filter((m) => !meetsTargets(m));
    console.log(missed.length ? `${missed.length} of ${results.length} pages miss a target.` : `All ${results.length} pages meet the targets.`);
  } finally {
    await browser?.close();
    rmSync(profile, { recursive: true, force: true });
    await api?.stop();
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
