/**
 * Issue 14's Lighthouse measurements, shared by `npm run lighthouse` (scripts/lighthouse.ts) and
 * the bench's `lighthouse` part (scripts/bench.ts): Lighthouse 12 (performance and accessibility)
 * on the SPA as a running API serves it, driving Debian's Chromium. Phone profile (Lighthouse's
 * default: a mid-range phone on a slow 4G, 4× CPU throttling) for the sign-in page, the patient's
 * result page and the patient's order page; desktop profile for the clinic's lists and the lab's
 * pages, signed in through the page in the same browser (Lighthouse keeps the storage: the SPA
 * keeps who is signed in there). Each page is measured several times and the median run kept:
 * Lighthouse's simulated timings move with the load of a shared machine.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import lighthouse, { desktopConfig, type Flags } from 'lighthouse';
import { chromium, type Page } from 'playwright-core';
import type { connect } from '@platform/db';
import { issuePatientResultLink } from '@platform/server';
import { mustUseSecondFactor } from '@platform/domain';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../test/support/browser';
import { DEMO_PASSWORD, DEMO_USERS, type DemoUserKey } from '../demo-users';
import { freePort } from '../product-process';
import { rememberBrowser } from '../second-step';

/** Issue 14's targets. */
export const LIGHTHOUSE_TARGETS = { phone: { performance: 0.9, lcpMs: 2500 }, desktop: { performance: 0.95 }, accessibility: 1 } as const;

export type FormFactor = 'phone' | 'desktop';

export interface LighthouseMeasured {
  page: string;
  formFactor: FormFactor;
  /** The median run's figures (runs ordered by performance score). */
  performance: number;
  accessibility: number;
  lcpMs: number;
  failedAccessibilityAudits: string[];
  /** Every run's performance score and LCP, in the order measured. */
  runs: { performance: number; lcpMs: number }[];
}

/** What the pages need from the seeded demo data. */
export interface LighthousePages {
  /** Riverside Oncology, the demo clinic whose lists are measured. */
  clinicAccountId: number;
  /** A patient result link (path and token) for one of its samples: the page's first view. */
  patientResultPath: string;
  /** The database the API reads: the key under which scripts/second-step.ts keeps a user's remembered device. */
  database: string;
}

type Db = ReturnType<typeof connect>;

/** Issues a result link for the demo clinic's first sample (the greeting and the date-of-birth question). */
export async function prepareLighthousePages(db: Db): Promise<LighthousePages> {
  const riverside = await db.models.Account.findOne({ where: { name: 'Riverside Oncology' } });
  if (!riverside) throw new Error('The demo data has no Riverside Oncology: seed it first');
  const sample = await db.models.Sample.findOne({ where: { accountId: riverside.id }, order: [['id', 'ASC']] });
  if (!sample) throw new Error('Riverside Oncology has no sample');
  const patient = (await db.models.Patient.findByPk(sample.patientId))!;
  const { token } = await db.sequelize.transaction((transaction) => issuePatientResultLink({ db }, transaction, sample, patient, { createdByUserId: null }));
  return { clinicAccountId: riverside.id, patientResultPath: `/reports/patient_result/${sample.barcode}?token=${token}`, database: db.sequelize.getDatabaseName() };
}

async function signInThroughPage(page: Page, base: string, database: string, signInPath: string, who: DemoUserKey): Promise<void> {
  await page.goto(`${base}${signInPath}`);
  // An admin or lab user must use a second factor: this browser is remembered first, as after a first
  // sign-in (with the device this process already remembers for the user in that database, if any).
  const { email, kind } = DEMO_USERS[who];
  if (mustUseSecondFactor(kind, [])) await rememberBrowser(page, database, { email, password: DEMO_PASSWORD, portal: kind });
  await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_USERS[who].email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
}

interface OneRun {
  performance: number;
  accessibility: number;
  lcpMs: number;
  failedAccessibilityAudits: string[];
  report: string;
}

/** Lighthouse's own trace recording sometimes fails on a loaded machine (NO_NAVSTART, NO_FCP): such a run is retried. */
const RETRIES = 2;

async function runOnce(port: number, url: string, formFactor: FormFactor, signedIn: boolean, attempt = 0): Promise<OneRun> {
  const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'], disableStorageReset: signedIn };
  const result = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError && attempt < RETRIES) return runOnce(port, url, formFactor, signedIn, attempt + 1);
  if (lhr.runtimeError) throw new Error(`Lighthouse could not measure ${url}: ${lhr.runtimeError.message}`);
  const accessibilityAudits = lhr.categories.accessibility.auditRefs.map((ref) => lhr.audits[ref.id]);
  return {
    performance: lhr.categories.performance.score ?? 0,
    accessibility: lhr.categories.accessibility.score ?? 0,
    lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue ?? 0),
    failedAccessibilityAudits: accessibilityAudits.filter((a) => a.score !== null && a.score < 1).map((a) => a.id),
    report: typeof result.report === 'string' ? result.report : result.report.join('\n'),
  };
}

export function meetsLighthouseTargets(m: LighthouseMeasured): boolean {
  const { phone, desktop, accessibility } = LIGHTHOUSE_TARGETS;
  const performance = m.formFactor === 'phone' ? m.performance >= phone.performance && m.lcpMs <= phone.lcpMs : m.performance >= desktop.performance;
  return performance && m.accessibility >= accessibility;
}

/** The page's goal in words, for the report line. */
function goalOf(formFactor: FormFactor): string {
  const { phone, desktop, accessibility } = LIGHTHOUSE_TARGETS;
  return formFactor === 'phone'
    ? `performance ≥ ${phone.performance.toFixed(2)}, LCP ≤ ${phone.lcpMs} ms, accessibility ${accessibility.toFixed(2)}`
    : `performance ≥ ${desktop.performance.toFixed(2)}, accessibility ${accessibility.toFixed(2)}`;
}

/** One line per page: `lighthouse <page> (<phone|desktop>): performance 0.93 | accessibility 1.00 | LCP 2100 ms | goal … | MET or SHORT`. */
export function lighthouseLine(m: LighthouseMeasured): string {
  const runs = m.runs.length > 1 ? ` | median of ${m.runs.length} (performance ${m.runs.map((r) => r.performance.toFixed(2)).join(', ')})` : '';
  const failing = m.failedAccessibilityAudits.length ? ` | failing ${m.failedAccessibilityAudits.join(', ')}` : '';
  return `lighthouse ${m.page} (${m.formFactor}): performance ${m.performance.toFixed(2)} | accessibility ${m.accessibility.toFixed(2)} | LCP ${m.lcpMs} ms${runs}${failing} | goal ${goalOf(m.formFactor)} | ${meetsLighthouseTargets(m) ? 'MET' : 'SHORT'}`;
}

/** The median run by performance score (the lower middle one for an even count). */
function medianRun(runs: OneRun[]): OneRun {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance || b.lcpMs - a.lcpMs);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export interface LighthouseOptions {
  /** Runs per page; the median is reported. */
  runs: number;
  /** Where each run's full Lighthouse report (JSON) is written: <slug>-<n>.json. */
  reportDir?: string;
  /** Only the pages of one profile. */
  only?: FormFactor;
  log?: (line: string) => void;
}

/** Measures every page against the API at `base` in a Chromium of its own; returns the median runs. */
export async function measureLighthouse(base: string, pages: LighthousePages, options: LighthouseOptions): Promise<LighthouseMeasured[]> {
  const log = options.log ?? (() => undefined);
  const profile = mkdtempSync(path.join(tmpdir(), 'lighthouse-chromium-'));
  const port = await freePort();
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
  });
  if (options.reportDir) mkdirSync(options.reportDir, { recursive: true });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    const results: LighthouseMeasured[] = [];
    const measure = async (name: string, pathname: string, formFactor: FormFactor, signedIn = false) => {
      const runs: OneRun[] = [];
      for (let i = 0; i < options.runs; i++) {
        const run = await runOnce(port, `${base}${pathname}`, formFactor, signedIn);
        if (options.reportDir) writeFileSync(path.join(options.reportDir, `${name.replaceAll(' ', '-')}-${i + 1}.json`), run.report);
        runs.push(run);
      }
      const { report: _report, ...median } = medianRun(runs);
      const measured: LighthouseMeasured = { page: name, formFactor, ...median, runs: runs.map((r) => ({ performance: r.performance, lcpMs: r.lcpMs })) };
      results.push(measured);
      log(lighthouseLine(measured));
    };

    if (options.only !== 'desktop') {
      await measure('sign-in', '/provider/login', 'phone');
      await measure('patient result', pages.patientResultPath, 'phone');
      await measure('patient order', '/patient-portal/order/prostox/new', 'phone');
    }
    if (options.only !== 'phone') {
      await signInThroughPage(page, base, pages.database, '/provider/login', 'physician');
      await measure('clinic pending tests', `/provider-clinic/${pages.clinicAccountId}/pending`, 'desktop', true);
      await measure('clinic completed tests', `/provider-clinic/${pages.clinicAccountId}/completed`, 'desktop', true);
      await signInThroughPage(page, base, pages.database, '/lab_toolbox/login', 'lab1');
      await measure('lab sample intake', '/lab_toolbox/intake_tool', 'desktop', true);
      await measure('lab review', '/lab_toolbox/review', 'desktop', true);
    }
    return results;
  } finally {
    await browser.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
