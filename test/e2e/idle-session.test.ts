/**
 * The idle-session warning (DESIGN "idle timeout with warning"): SESSION_IDLE_MINUTES after the
 * last API request the session ends, so two minutes before, a modal counts down. Time is moved
 * with Playwright's clock (the page's clock only; the real server keeps real time, so its
 * session is still alive whenever the page decides).
 */
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { SESSION_IDLE_MINUTES } from '@platform/domain';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';
import {
  IDLE_WARNING_BEFORE_MS,
  IDLE_WARNING_TITLE,
  INACTIVITY_SIGN_OUT_MESSAGE,
  SIGNED_OUT_FOR_INACTIVITY,
  SIGNED_OUT_PARAM,
} from '../../web/src/session/idle-timeout';
import { expectAccessible, browserSuite, collectPageErrors, screenshot } from '../support/browser';
import { dialog, expectPath, fillSignIn, signIn, SIGN_IN_PAGES, storedUser } from './pages';

const MINUTE = 60_000;
/** The little of the page's DOM these tests read (the test project has no DOM types). */
interface InPage {
  document: { activeElement: unknown; querySelector(selector: string): { textContent: string | null } | null };
}
/** How long without an API request before the warning shows. */
const WARN_AFTER_MS = SESSION_IDLE_MINUTES * MINUTE - IDLE_WARNING_BEFORE_MS;

describe('e2e: idle-session warning', function () {
  this.timeout(60_000);
  const suite = browserSuite();
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeEach(async () => {
    ({ context, page } = await suite.newPage({ bypassCSP: true }));
    errors = collectPageErrors(page);
    await page.clock.install();
  });

  const warning = (p: Page) => dialog(p, IDLE_WARNING_TITLE);
  const warningShown = async (p: Page) => (await warning(p).count()) > 0 && (await warning(p).isVisible());
  /** Signs in and waits until the home page's requests are over: the idle time counts from the last one. */
  async function signInAndSettle(p: Page, portal: keyof typeof SIGN_IN_PAGES, email: string): Promise<void> {
    await signIn(p, portal, email);
    await p.waitForLoadState('networkidle');
  }
  const apiStatus = (p: Page, path: string) => p.evaluate((url) => fetch(url).then((r) => r.status), path);

  it(`warns ${SESSION_IDLE_MINUTES - 2} minutes after the last API request and not before, with a live countdown; axe finds nothing serious`, async () => {
    await signInAndSettle(page, 'provider', DEMO_USERS.physician.email);

    await page.clock.fastForward(WARN_AFTER_MS - 10_000);
    await page.waitForTimeout(300);
    expect(await warningShown(page), `no warning after ${WARN_AFTER_MS / MINUTE} minutes less 10 seconds`).to.equal(false);

    await page.clock.fastForward(15_000);
    const modal = warning(page);
    await modal.waitFor();
    const sentence = modal.getByText(/^For your patients' privacy you will be signed out in \d:\d\d because of inactivity\.$/);
    await sentence.waitFor();
    const countdown = modal.getByRole('timer');
    const first = await countdown.textContent();
    expect(first).to.match(/^1:5\d$/);
    await page.clock.fastForward(30_000);
    await page.waitForFunction((before) => (globalThis as unknown as InPage).document.querySelector('[role="timer"]')?.textContent !== before, first);
    expect(await countdown.textContent()).to.match(/^1:[12]\d$/);

    // Focus starts on the safe choice; both choices are named buttons.
    expect(await modal.getByRole('button', { name: 'Stay signed in' }).evaluate((el) => el === (globalThis as unknown as InPage).document.activeElement)).to.equal(true);
    await modal.getByRole('button', { name: 'Sign out' }).waitFor();

    await page.waitForTimeout(250); // let the modal's transition settle
    await screenshot(page, 'idle-warning-1280');
    await expectAccessible(page, 'the idle-session warning');
    expect(errors).to.deep.equal([]);
  });

  it('"Stay signed in" renews the session: the warning closes and the person is still signed in later', async () => {
    await signInAndSettle(page, 'provider', DEMO_USERS.staff.email);
    const home = new URL(page.url()).pathname;

    await page.clock.fastForward(WARN_AFTER_MS + 5_000);
    const modal = warning(page);
    await modal.waitFor();
    const renewed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/auth/me' && r.request().method() === 'GET');
    await modal.getByRole('button', { name: 'Stay signed in' }).click();
    expect((await renewed).status()).to.equal(200);
    await modal.waitFor({ state: 'hidden' });

    // Past the moment the session would have ended without it: nothing happens.
    await page.clock.fastForward(5 * MINUTE);
    await page.waitForTimeout(300);
    expect(await warningShown(page)).to.equal(false);
    await expectPath(page, home);
    expect(await storedUser(page)).to.include({ email: DEMO_USERS.staff.email });

    await page.reload();
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await expectPath(page, home);
    expect(await apiStatus(page, '/api/auth/me')).to.equal(200);
    expect(errors).to.deep.equal([]);
  });

  it('signs the person out when the countdown ends; the sign-in page says why and leads back', async () => {
    await signInAndSettle(page, 'lab', DEMO_USERS.lab1.email);
    const home = new URL(page.url()).pathname;

    await page.clock.fastForward(WARN_AFTER_MS + 5_000);
    await warning(page).waitFor();
    await page.clock.fastForward(IDLE_WARNING_BEFORE_MS);

    await expectPath(page, SIGN_IN_PAGES.lab);
    await page.waitForURL((url) => url.searchParams.get(SIGNED_OUT_PARAM) === SIGNED_OUT_FOR_INACTIVITY);
    expect(new URL(page.url()).searchParams.get('next')).to.equal(home);
    const notice = page.getByRole('status').filter({ hasText: INACTIVITY_SIGN_OUT_MESSAGE });
    await notice.waitFor();
    expect(await notice.textContent()).to.contain('Signed out after inactivity');
    expect(await warningShown(page)).to.equal(false);
    expect(await storedUser(page), 'stored user after the idle sign-out').to.equal(null);
    expect(await apiStatus(page, '/api/auth/me'), 'the server session is gone too').to.equal(401);

    await page.waitForTimeout(250);
    await screenshot(page, 'idle-signed-out-1280');
    await expectAccessible(page, 'the sign-in page after the idle sign-out');

    await fillSignIn(page, DEMO_USERS.lab1.email, DEMO_PASSWORD);
    await expectPath(page, home);
    expect(errors).to.deep.equal([]);
  });

  it('"Sign out" in the warning signs out at once, without the inactivity message', async () => {
    await signInAndSettle(page, 'admin', DEMO_USERS.admin.email);
    await page.clock.fastForward(WARN_AFTER_MS + 5_000);
    await warning(page).getByRole('button', { name: 'Sign out' }).click();
    await expectPath(page, SIGN_IN_PAGES.admin);
    expect(new URL(page.url()).searchParams.get(SIGNED_OUT_PARAM)).to.equal(null);
    expect(await storedUser(page)).to.equal(null);
    expect(await apiStatus(page, '/api/auth/me')).to.equal(401);
  });

  it('counts activity in another tab: two tabs agree on when to warn, and staying in one closes both warnings', async () => {
    await signInAndSettle(page, 'provider', DEMO_USERS.physician.email);
    const home = new URL(page.url()).pathname;

    await page.clock.fastForward(20 * MINUTE);
    const other = await context.newPage();
    await other.goto(home); // a page load and its API requests, in the second tab
    await other.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await other.waitForLoadState('networkidle');

    // The first tab alone would warn now; the second tab's requests moved the time on for both.
    await page.clock.fastForward(WARN_AFTER_MS - 20 * MINUTE + MINUTE);
    await page.waitForTimeout(300);
    expect(await warningShown(page), 'first tab').to.equal(false);
    expect(await warningShown(other), 'second tab').to.equal(false);

    await page.clock.fastForward(20 * MINUTE);
    await warning(page).waitFor();
    await warning(other).waitFor();

    await warning(other).getByRole('button', { name: 'Stay signed in' }).click();
    await warning(other).waitFor({ state: 'hidden' });
    await warning(page).waitFor({ state: 'hidden' });
    expect(await storedUser(page)).to.include({ email: DEMO_USERS.physician.email });
    expect(errors).to.deep.equal([]);
  });

  it('when one tab signs out for inactivity, the other goes to the sign-in page with the same message', async () => {
    await signInAndSettle(page, 'provider', DEMO_USERS.physician.email);
    const home = new URL(page.url()).pathname;
    const other = await context.newPage();
    await other.goto(home);
    await other.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await other.waitForLoadState('networkidle');

    await page.clock.fastForward(SESSION_IDLE_MINUTES * MINUTE + 5_000);
    for (const tab of [page, other]) {
      await expectPath(tab, SIGN_IN_PAGES.provider);
      await tab.getByRole('status').filter({ hasText: INACTIVITY_SIGN_OUT_MESSAGE }).waitFor();
      expect(await storedUser(tab)).to.equal(null);
    }
  });

  it('does not warn on sign-in pages or the patient result page', async () => {
    await signInAndSettle(page, 'provider', DEMO_USERS.physician.email);
    for (const path of ['/provider/login', '/reports/patient_result/00000000000000?token=x']) {
      await page.goto(path);
      await page.locator('main h1').first().waitFor();
      await page.clock.fastForward(SESSION_IDLE_MINUTES * MINUTE + MINUTE);
      await page.waitForTimeout(300);
      expect(await warningShown(page), path).to.equal(false);
      expect(new URL(page.url()).pathname, 'not sent anywhere').to.equal(path.split('?')[0]);
    }
    expect(await storedUser(page), 'still stored: nobody signed out').to.include({ email: DEMO_USERS.physician.email });
  });
});
