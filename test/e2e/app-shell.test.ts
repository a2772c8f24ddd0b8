/**
 * The application shell of SPEC §2 and §4: layouts by path, title and metadata, the 404 page
 * and catch-alls, the error modal for failing queries, the build check and the static files.
 */
import { expect } from 'chai';
import type { Page, Route } from 'playwright-core';
import { SIDEBAR_WIDTH_PX } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { platformTitleOf, resolveBrand } from '../../web/src/brand';
import { documentHref, STATIC_DOCUMENTS } from '../../web/src/documents';
import { browserSuite, collectPageErrors } from '../support/browser';
import { dialog, expectPath, sidebar, sidebarWidth, signIn } from './pages';

const TITLE = platformTitleOf(resolveBrand({ VITE_BRAND: process.env.VITE_BRAND }));

describe('e2e: application shell', function () {
  this.timeout(60_000);
  const suite = browserSuite();
  let page: Page;
  let errors: string[];

  beforeEach(async () => {
    ({ page } = await suite.newPage());
    errors = collectPageErrors(page);
  });

  const layoutOf = (p: Page) => p.locator('[data-layout]').first().getAttribute('data-layout');

  describe('layout by path', () => {
    for (const path of ['/provider-research/login', '/provider-research/forgot-password', '/provider-research/42/no-such-page', '/registry/study/prostox/1/survey/new']) {
      it(`renders ${path} in the plain layout, without a sidebar`, async () => {
        await page.goto(path);
        await page.locator('main h1').first().waitFor();
        expect(await layoutOf(page)).to.equal('plain');
        expect(await sidebar(page).count()).to.equal(0);
        expect(await page.getByRole('complementary').count()).to.equal(0);
      });
    }

    for (const path of ['/provider/login', '/provider-clinic/42/no-such-page', '/admin/login', '/lab_toolbox/login', '/404']) {
      it(`renders ${path} in the provider layout with a ${SIDEBAR_WIDTH_PX}px sidebar`, async () => {
        await page.goto(path);
        await page.locator('main h1').first().waitFor();
        expect(await layoutOf(page)).to.equal('provider');
        expect(await sidebarWidth(page)).to.equal(SIDEBAR_WIDTH_PX);
        const main = await page.locator('main').boundingBox();
        expect(main?.x, 'content starts right of the sidebar').to.equal(SIDEBAR_WIDTH_PX);
      });
    }

    it('turns the sidebar into a top bar on a phone, with no sideways scrolling', async () => {
      await page.setViewportSize({ width: 375, height: 812 });
      await page.goto('/provider/login');
      await page.locator('main h1').waitFor();
      const bar = await sidebar(page).boundingBox();
      expect(bar).to.include({ x: 0, y: 0, width: 375 });
      const scrollWidth = await page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
      expect(scrollWidth, 'no sideways scrolling').to.be.at.most(375);
    });
  });

  describe('document', () => {
    it(`is titled by its page, then the portal, then '${TITLE}', with a favicon and the site metadata`, async () => {
      await page.goto('/provider/login');
      await page.locator('main h1').waitFor();
      expect(await page.title()).to.equal(`Sign in · Clinical Portal · ${TITLE}`);
      const head = await page.evaluate(() => {
        const d = (globalThis as unknown as { document: { querySelector(s: string): { getAttribute(a: string): string | null } | null } }).document;
        return {
          icon: d.querySelector('link[rel="icon"]')?.getAttribute('href'),
          type: d.querySelector('meta[property="og:type"]')?.getAttribute('content'),
          locale: d.querySelector('meta[property="og:locale"]')?.getAttribute('content'),
          ogTitle: d.querySelector('meta[property="og:title"]')?.getAttribute('content'),
        };
      });
      expect(head).to.deep.equal({ icon: '/favicon.svg', type: 'website', locale: 'en_US', ogTitle: TITLE });
      const favicon = await page.request.get('/favicon.svg');
      expect(favicon.status()).to.equal(200);
      expect(favicon.headers()['content-type']).to.match(/^image\/svg\+xml/);
    });

    it('titles deep links served by the API by their page', async () => {
      await page.goto('/provider-clinic/7/some/deep/link');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await page.title()).to.equal(`Page not found · Clinical Portal · ${TITLE}`);
    });
  });

  describe('not found', () => {
    const cases: [string, 'provider' | 'plain'][] = [
      ['/404', 'provider'],
      ['/no/such/page', 'provider'],
      ['/provider-clinic/12/no-such-page', 'provider'],
      ['/provider-clinic/12/a/b/c', 'provider'],
      ['/provider-research/12/no-such-page', 'plain'],
    ];
    for (const [path, layout] of cases) {
      it(`renders the 404 page at ${path}`, async () => {
        const response = await page.goto(path);
        expect(response?.status()).to.equal(200);
        await page.getByRole('heading', { name: 'Page not found' }).waitFor();
        expect(await layoutOf(page)).to.equal(layout);
        await page.getByRole('link', { name: 'Go to sign-in' }).waitFor();
        expect(errors).to.deep.equal([]);
      });
    }

    it('treats a clinic account the person does not belong to as not found', async () => {
      await signIn(page, 'provider', DEMO_USERS.staff.email);
      await page.goto('/provider-clinic/999999');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      await page.getByRole('link', { name: 'Go to your home page' }).click();
      await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    });
  });

  describe('error modal', () => {
    const fail500 = (route: Route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Something went wrong on our side.' }, requestId: 'test' }) });

    it("shows 'Request failed with status code 500' under a friendly heading, beside the sidebar", async () => {
      await signIn(page, 'admin', DEMO_USERS.admin.email);
      await page.route('**/api/auth/me', fail500);
      await page.reload();
      const modal = dialog(page, 'Error retrieving accounts');
      await modal.waitFor();
      expect(await modal.getByText('Request failed with status code 500', { exact: true }).isVisible()).to.equal(true);
      // Placed beside the sidebar: the modal's positioning box starts where the sidebar ends.
      const inner = await page.locator('.mantine-Modal-inner').boundingBox();
      expect(inner?.x).to.equal(SIDEBAR_WIDTH_PX);
      await modal.getByRole('button', { name: 'Close' }).first().click();
      await modal.waitFor({ state: 'hidden' });
    });

    it('shows it at the default position in the plain layout', async () => {
      await signIn(page, 'research', DEMO_USERS.researcher.email);
      await page.route('**/api/auth/me', fail500);
      await page.reload();
      const modal = dialog(page, 'Error retrieving accounts');
      await modal.waitFor();
      expect(await modal.getByText('Request failed with status code 500', { exact: true }).isVisible()).to.equal(true);
      const inner = await page.locator('.mantine-Modal-inner').boundingBox();
      expect(inner?.x).to.equal(0);
    });
  });

  describe('build check', () => {
    /**
     * Answers get-build-id with whatever `answer` holds when the request comes (an id, or an HTTP
     * status to fail with): the test switches it, so the answers do not depend on how many checks
     * the SPA makes, or when. The page counts the checks it has handled (`handled()`): one counts
     * once the SPA's own code has read the answer and acted on it (see trackBuildChecks), and
     * `reloadAsked()` says whether the page asked for a reload since it was loaded.
     */
    async function serveBuildIds(first: string | number): Promise<{ answer: string | number; handled: () => Promise<number>; reloadAsked: () => Promise<boolean> }> {
      const served = { answer: first };
      await page.route('**/api/system/get-build-id', (route) =>
        typeof served.answer === 'number'
          ? route.fulfill({ status: served.answer, body: 'unavailable' })
          : route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ buildId: served.answer }) }),
      );
      await page.addInitScript(TRACK_BUILD_CHECKS);
      return Object.assign(served, {
        handled: () => page.evaluate(() => (globalThis as unknown as BuildCheckTracking).buildChecksHandled ?? 0),
        reloadAsked: () => page.evaluate(() => (globalThis as unknown as BuildCheckTracking).reloadAsked === true),
      });
    }
    const checksHandled = (n: number) => page.waitForFunction((count) => ((globalThis as unknown as BuildCheckTracking).buildChecksHandled ?? 0) >= count, n);

    const markPage = () => page.evaluate(() => Object.assign(globalThis, { beforeRouteChange: true }));
    const pageIsMarked = () => page.evaluate(() => (globalThis as unknown as { beforeRouteChange?: boolean }).beforeRouteChange === true);

    it('reloads the page when a later build id differs from the first', async () => {
      const ids = await serveBuildIds('build-1');
      await page.goto('/provider/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await checksHandled(1); // the check at start has read 'build-1'
      expect(await ids.reloadAsked()).to.equal(false);
      await markPage();
      const reloaded = page.waitForEvent('load');
      ids.answer = 'build-2'; // a new release is out
      await page.getByRole('link', { name: 'Forgot password?' }).click(); // a route change, no page load
      await reloaded;
      expect(await pageIsMarked(), 'the page was loaded afresh').to.equal(false);
      await expectPath(page, '/provider/forgot-password');
    });

    it('does not reload while the build id stays the same, or when the call fails', async () => {
      const ids = await serveBuildIds('build-1');
      await page.goto('/provider/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await checksHandled(1);
      await markPage();
      const before = await ids.handled();
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await page.getByRole('link', { name: 'Back to sign-in' }).waitFor();
      await checksHandled(before + 1); // the route change's check read 'build-1' again
      ids.answer = 503;
      await page.getByRole('link', { name: 'Back to sign-in' }).click();
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await checksHandled(before + 2); // and this one failed
      expect(await ids.reloadAsked(), 'no reload asked for').to.equal(false);
      expect(await pageIsMarked(), 'still the same page').to.equal(true);
    });

    it('asks the real API, which answers uncached', async () => {
      const response = await page.request.get('/api/system/get-build-id');
      expect(response.status()).to.equal(200);
      expect(response.headers()['cache-control']).to.contain('no-store');
      expect((await response.json()).buildId).to.be.a('string').that.is.not.empty;
    });
  });

  describe('static files', () => {
    for (const doc of STATIC_DOCUMENTS) {
      it(`serves ${documentHref(doc)} as a PDF`, async () => {
        const response = await page.request.get(documentHref(doc));
        expect(response.status()).to.equal(200);
        expect(response.headers()['content-type']).to.equal('application/pdf');
        expect((await response.body()).subarray(0, 5).toString()).to.equal('%PDF-');
      });
    }

    it('links the documents from the clinic home, and shows the partner logo of an EAP partner account', async () => {
      await signIn(page, 'provider', DEMO_USERS.staff.email); // staff belongs to Riverside Oncology, an EAP partner
      const links = page.getByRole('link', { name: /\(PDF\)$/ });
      expect(await links.count()).to.be.greaterThan(0);
      for (const href of await links.evaluateAll((as) => as.map((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('href')))) {
        expect(href).to.match(/^\/docs\/[a-z-]+\.pdf$/);
      }
      const logo = page.getByRole('img', { name: 'Early Access Program partner' });
      await logo.waitFor();
      expect(await logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).to.be.greaterThan(0);
    });
  });
});

/** What trackBuildChecks leaves on the page's global object. */
interface BuildCheckTracking {
  buildChecksHandled?: number;
  reloadAsked?: boolean;
}

/**
 * Runs in the page before its own scripts (a string: what tsx compiles may not run in a page).
 * Counts the build checks the SPA has handled: fetch is wrapped so that, once a get-build-id
 * answer has reached the SPA's code (and, for a 200, once the SPA has read its body), one more
 * task passes before the count goes up; the SPA's decision (to reload or not) runs in the
 * microtasks right after, so it has been taken by then. A reload asked for is seen at once through
 * the Navigation API's navigate event (the page may live on a moment before it goes).
 */
const TRACK_BUILD_CHECKS = `(() => {
  const w = globalThis;
  w.buildChecksHandled = 0;
  w.reloadAsked = false;
  if (w.navigation) w.navigation.addEventListener('navigate', (event) => { if (event.navigationType === 'reload') w.reloadAsked = true; });
  const handled = () => w.setTimeout(() => { w.buildChecksHandled += 1; }, 0);
  const original = w.fetch.bind(w);
  w.fetch = (input, init) => {
    const answer = original(input, init);
    if (!String(input).endsWith('/api/system/get-build-id')) return answer;
    return answer.then((response) => {
      if (!response.ok) { handled(); return response; }
      const json = response.json.bind(response);
      response.json = () => { const body = json(); body.then(handled, handled); return body; };
      return response;
    }, (error) => { handled(); throw error; });
  };
})();`;
