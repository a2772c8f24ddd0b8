/**
 * The unsupported-browser modal (SPEC §2): desktop browsers other than Chrome see it until they
 * press OK; desktop Chrome and mobile browsers never do.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { UNSUPPORTED_BROWSER_MESSAGE } from '../../web/src/shell/browser-support';
import { browserSuite, USER_AGENTS, VIEWPORTS } from '../support/browser';
import { dialog, expectPath } from './pages';

const SPEC_TEXT =
  'It appears you are on an unsupported browser. This application requires Chrome to provide the best and most stable experience. Please re-open this link in a Chrome browser';

describe('e2e: unsupported-browser modal', function () {
  this.timeout(60_000);
  const suite = browserSuite();

  async function open(userAgent: string, mobile = false): Promise<Page> {
    const made = await suite.newPage({
      userAgent,
      viewport: mobile ? VIEWPORTS.phone : VIEWPORTS.desktop,
      isMobile: mobile,
    });
    await made.page.goto('/provider/login');
    await made.page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    return made.page;
  }

  const modal = (page: Page) => dialog(page, 'Unsupported browser');

  it('carries the spec text word for word', () => {
    expect(UNSUPPORTED_BROWSER_MESSAGE).to.equal(SPEC_TEXT);
  });

  it('appears for desktop Firefox and stays until OK is pressed', async () => {
    const page = await open(USER_AGENTS.desktopFirefox);
    await modal(page).waitFor();
    expect(await modal(page).innerText()).to.contain(SPEC_TEXT);
    expect(await modal(page).getByRole('button').allInnerTexts(), 'only an OK button').to.deep.equal(['OK']);

    // Escape, a click outside, time and a route change leave it open.
    await page.keyboard.press('Escape');
    await page.mouse.click(20, 780);
    await page.waitForTimeout(400);
    expect(await modal(page).isVisible()).to.equal(true);
    await page.evaluate(() => {
      const w = globalThis as unknown as { history: { pushState(s: unknown, t: string, u: string): void }; dispatchEvent(e: unknown): void; PopStateEvent: new (type: string) => unknown };
      w.history.pushState(null, '', '/provider/forgot-password');
      w.dispatchEvent(new w.PopStateEvent('popstate'));
    });
    await expectPath(page, '/provider/forgot-password');
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await modal(page).isVisible()).to.equal(true);

    await modal(page).getByRole('button', { name: 'OK' }).click();
    await modal(page).waitFor({ state: 'hidden' });
    // Acknowledged for this tab: a reload does not bring it back.
    await page.reload();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.waitForTimeout(300);
    expect(await modal(page).count()).to.equal(0);
  });

  for (const [name, userAgent] of [
    ['desktop Safari', USER_AGENTS.desktopSafari],
    ['desktop Edge', USER_AGENTS.desktopEdge],
  ] as const) {
    it(`appears for ${name}`, async () => {
      const page = await open(userAgent);
      await modal(page).waitFor();
    });
  }

  for (const [name, userAgent, mobile] of [
    ['desktop Chrome', USER_AGENTS.desktopChrome, false],
    ['Chromium as it ships (headless)', '', false],
    ['Safari on an iPhone', USER_AGENTS.iphoneSafari, true],
    ['Firefox on Android', USER_AGENTS.androidFirefox, true],
  ] as const) {
    it(`does not appear for ${name}`, async () => {
      const page = await open(userAgent || (await browserUserAgent(suite.browser)), mobile);
      await page.waitForTimeout(400);
      expect(await modal(page).count()).to.equal(0);
    });
  }
});

async function browserUserAgent(browser: Browser): Promise<string> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(() => (globalThis as unknown as { navigator: { userAgent: string } }).navigator.userAgent);
  } finally {
    await page.close();
  }
}
