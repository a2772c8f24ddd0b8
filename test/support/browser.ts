/**
 * Real-browser tests: Debian's Chromium driven by playwright-core (never a downloaded browser),
 * pages with a chosen user agent and viewport, screenshots kept under test-artifacts/, and
 * axe-core run inside the page (expectAccessible: WCAG 2.1 AA on every page a test visits).
 */
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import type { AxeResults, ImpactValue } from 'axe-core';
import type { RunningWorker } from '@platform/worker';
import { startServer, startTestWorker } from './server';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The flags that work on our machines (docs: STACK.md). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCREENSHOT_DIR = path.join(ROOT, 'test-artifacts', 'screenshots');

export const USER_AGENTS = {
  desktopChrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  desktopFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
  desktopSafari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  desktopEdge:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  androidFirefox: 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0',
} as const;

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  /** The commonest laptop screen: the lab's benches and the clinics' desks. */
  laptop: { width: 1366, height: 768 },
  phone: { width: 375, height: 812 },
} as const;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export type RunningServer = Awaited<ReturnType<typeof startServer>>;

export interface BrowserSuiteOptions {
  /** Also run a real worker (jobs: emails, PDFs, notifications, imports). */
  worker?: boolean;
  /** A failed test leaves a screenshot of each page it opened: test-artifacts/screenshots/<prefix>-failed-…png. */
  screenshotPrefix?: string;
  /** Configuration for the API and the worker beyond the run's (read when the suite starts, after the file's earlier hooks). */
  serverEnv?: () => Record<string, string>;
}

/** The parts a browser suite stands on, ready inside its tests and hooks. */
export interface BrowserSuite {
  readonly server: RunningServer;
  readonly baseUrl: string;
  readonly browser: Browser;
  /** A page in a context of its own (a fresh person) on this server; closed after the current test. */
  newPage(options?: Omit<PageOptions, 'baseURL'>): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * The one way a browser test file gets its server and browser. Called inside describe(): once per
 * file it starts the real API (serving the built SPA), the worker when asked, and one Chromium,
 * and closes them at the end; the pages a test opens (suite.newPage) are closed after it, with a
 * screenshot of each first when it failed.
 */
export function browserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  let server: RunningServer | undefined;
  let worker: RunningWorker | undefined;
  let browser: Browser | undefined;
  const opened: { context: BrowserContext; page: Page }[] = [];
  const ready = <T>(part: T | undefined, name: string): T => {
    if (!part) throw new Error(`the browser suite's ${name} is not running (use it inside tests and hooks)`);
    return part;
  };

  before(async function () {
    this.timeout(120_000);
    const env = options.serverEnv?.() ?? {};
    server = await startServer(env);
    // The worker is configured as the API is (a payment suite's worker calls the same Stripe stand-in).
    if (options.worker) worker = await startTestWorker(env);
    browser = await launchBrowser();
  });
  afterEach(async function () {
    const failed = this.currentTest?.state === 'failed';
    const title = (this.currentTest?.title ?? 'test').slice(0, 40).replace(/\W+/g, '-');
    for (const [i, { page }] of opened.entries()) {
      if (failed && !page.isClosed()) await screenshot(page, `${options.screenshotPrefix ?? 'e2e'}-failed-${title}-${i}`).catch(() => undefined);
    }
    for (const { context } of opened.splice(0)) await context.close().catch(() => undefined);
  });
  after(async function () {
    this.timeout(60_000);
    await browser?.close();
    await worker?.close();
    await server?.stop();
    browser = worker = server = undefined;
  });

  return {
    get server() {
      return ready(server, 'server');
    },
    get baseUrl() {
      return ready(server, 'server').baseUrl;
    },
    get browser() {
      return ready(browser, 'browser');
    },
    async newPage(pageOptions = {}) {
      const made = await newPage(ready(browser, 'browser'), { baseURL: ready(server, 'server').baseUrl, ...pageOptions });
      opened.push(made);
      return made;
    },
  };
}

export interface PageOptions {
  baseURL: string;
  userAgent?: string;
  viewport?: { width: number; height: number };
  isMobile?: boolean;
  /** Needed to inject axe-core into pages served with the API's Content-Security-Policy. */
  bypassCSP?: boolean;
  /** The browser's language (navigator.language); en-US when not given. */
  locale?: string;
}

/** A page in a context of its own (own cookies and storage: a fresh person). */
export async function newPage(browser: Browser, options: PageOptions): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    userAgent: options.userAgent ?? USER_AGENTS.desktopChrome,
    viewport: options.viewport ?? VIEWPORTS.desktop,
    isMobile: options.isMobile ?? false,
    hasTouch: options.isMobile ?? false,
    bypassCSP: options.bypassCSP ?? false,
    locale: options.locale ?? 'en-US',
    timezoneId: 'America/New_York',
  });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Errors the page threw or logged, so a test can assert there were none it did not expect.
 * Chromium's own "Failed to load resource" lines (every 4xx/5xx answer) are left out: tests
 * check those answers where they matter.
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** A full-page PNG under test-artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(path.join(path.dirname(require.resolve('axe-core')), 'axe.min.js'), 'utf8');

/** The rules of WCAG 2.1 levels A and AA. */
export const WCAG21_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] as const;
const ALL_IMPACTS: readonly ImpactValue[] = ['minor', 'moderate', 'serious', 'critical'];

export interface AxeViolationSummary {
  id: string;
  impact: ImpactValue | null | undefined;
  help: string;
  targets: string[];
  /** What axe found on each target (e.g. the contrast ratio and the two colours). */
  details: string[];
}

/**
 * Runs axe-core on the page as it is now: by default the WCAG 2.x A and AA rules and best
 * practices, serious and critical findings only. axe is evaluated through the DevTools protocol,
 * so the API's Content-Security-Policy does not stop it.
 */
export async function axeViolations(
  page: Page,
  impacts: readonly ImpactValue[] = ['serious', 'critical'],
  tags: readonly string[] = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
): Promise<AxeViolationSummary[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate((values) => {
    const inPage = globalThis as unknown as { axe: { run(context: unknown, options: object): Promise<AxeResults> }; document: unknown };
    return inPage.axe.run(inPage.document, { runOnly: { type: 'tag', values } });
  }, [...tags]);
  return results.violations
    .filter((v) => v.impact && impacts.includes(v.impact))
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => String(n.target.join(' '))),
      details: v.nodes.map((n) => [...n.any, ...n.all, ...n.none].map((check) => check.message).find(Boolean) ?? ''),
    }));
}

/**
 * Resolves once no CSS animation or transition runs (a toast fading in, a modal opening): colours
 * are checked as they end up, not half-way. Mantine starts a transition a frame after the state
 * changes, so "settled" is two frames in a row with nothing running.
 */
async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // No named inner functions: tsx would wrap them in a helper the page does not have.
    const inPage = globalThis as unknown as { document: { getAnimations(): { finished: Promise<unknown> }[] }; requestAnimationFrame(cb: () => void): void };
    for (let quiet = 0; quiet < 2; ) {
      const running = inPage.document.getAnimations();
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
      await new Promise<void>((resolve) => inPage.requestAnimationFrame(() => resolve()));
      quiet = running.length === 0 ? quiet + 1 : 0;
    }
  });
}

/**
 * Every axe check of the run, a JSON line each (page path, state, violations), in
 * test-artifacts/axe-checks.jsonl: scripts/test.sh prints how many states and pages were checked.
 */
export const AXE_CHECKS_FILE = path.join(ROOT, 'test-artifacts', 'axe-checks.jsonl');

function recordAxeCheck(page: Page, state: string, violations: number): void {
  mkdirSync(path.dirname(AXE_CHECKS_FILE), { recursive: true });
  appendFileSync(AXE_CHECKS_FILE, `${JSON.stringify({ path: new URL(page.url()).pathname, state, violations })}\n`);
}

/**
 * The check every browser test makes on each page it visits, in its normal and its error states:
 * no violation of WCAG 2.1 A/AA (any impact). A violation fails the test naming the rule, what it
 * asks and the elements, e.g. `color-contrast (serious): Elements must meet minimum color
 * contrast ratio thresholds: .mantine-InputWrapper-error`.
 */
export async function expectAccessible(page: Page, state: string): Promise<void> {
  await animationsSettled(page);
  const violations = await axeViolations(page, ALL_IMPACTS, WCAG21_AA_TAGS);
  recordAxeCheck(page, state, violations.length);
  if (violations.length === 0) return;
  const lines = violations.map((v) => `  ${v.id} (${v.impact}): ${v.help}: ${v.targets.map((t, i) => `${t}${v.details[i] ? ` [${v.details[i]}]` : ''}`).join(' | ')}`);
  expect.fail(`WCAG 2.1 AA violations on ${state} (${new URL(page.url()).pathname}):\n${lines.join('\n')}`);
}

/**
 * The words a user cannot read whole inside `scope`: every element that cuts its own content
 * (overflow hidden or clipped, or an ellipsis) while the content is wider than its box, and every
 * box that must be scrolled sideways to be seen. Visually hidden text (a 1px box) is not shown
 * anyway and is left out. Answers each as "its text (content px > box px)".
 */
export async function clippedTexts(scope: Locator): Promise<string[]> {
  return scope.evaluate((root) => {
    type Box = { scrollWidth: number; clientWidth: number; textContent: string | null };
    const view = (root as unknown as { ownerDocument: { defaultView: { getComputedStyle(el: unknown): { overflowX: string; textOverflow: string } } } }).ownerDocument.defaultView;
    const all = [root, ...Array.from((root as unknown as { querySelectorAll(s: string): ArrayLike<unknown> }).querySelectorAll('*'))] as Box[];
    return all
      .filter((el) => {
        if (el.clientWidth < 2 || el.scrollWidth <= el.clientWidth + 1) return false;
        const style = view.getComputedStyle(el);
        return ['hidden', 'clip', 'auto', 'scroll'].includes(style.overflowX) || style.textOverflow === 'ellipsis';
      })
      .map((el) => `${(el.textContent ?? '').trim().slice(0, 60)} (${el.scrollWidth}px > ${el.clientWidth}px)`);
  });
}
