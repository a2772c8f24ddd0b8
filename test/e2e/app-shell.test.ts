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
    it(`is titled '${TITLE}', with a favicon and the site metadata`, async () => {
      await page.goto('/provider/login');
      await page.locator('main h1').waitFor();
      expect(await page.title()).to.equal(TITLE);
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

    it('keeps the title on deep links served by the API', async () => {
      await page.goto('/provider-clinic/7/some/deep/link');
      await page.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await page.title()).to.equal(TITLE);
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
    /** Answers get-build-id from a list, one answer per call (the last one repeats); counts the calls. */
    async function serveBuildIds(answers: (string | number)[]): Promise<{ calls: () => number }> {
      let calls = 0;
      await page.route('**/api/system/get-build-id', (route) => {
        const answer = answers[Math.min(calls, answers.length - 1)];
        calls += 1;
        return typeof answer === 'number'
          ? route.fulfill({ status: answer, body: 'unavailable' })
          : route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ buildId: answer }) });
      });
      return { calls: () => calls };
    }

    const markPage = () => page.evaluate(() => Object.assign(globalThis, { beforeRouteChange: true }));
    const pageIsMarked = () => page.evaluate(() => (globalThis as unknown as { beforeRouteChange?: boolean }).beforeRouteChange === true);

    it('reloads the page when a later build id differs from the first', async () => {
      const ids = await serveBuildIds(['build-1', 'build-2']);
      await page.goto('/provider/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await expectCalls(ids.calls, 1);
      await markPage();
      const reloaded = page.waitForEvent('load');
      await page.getByRole('link', { name: 'Forgot password?' }).click(); // a route change, no page load
      await reloaded;
      expect(await pageIsMarked(), 'the page was loaded afresh').to.equal(false);
      await expectPath(page, '/provider/forgot-password');
    });

    it('does not reload while the build id stays the same, or when the call fails', async () => {
      const ids = await serveBuildIds(['build-1', 'build-1', 503]);
      await page.goto('/provider/login');
      await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      await expectCalls(ids.calls, 1);
      await markPage();
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await expectCalls(ids.calls, 2);
      await page.getByRole('link', { name: 'Back to sign-in' }).click();
      await expectCalls(ids.calls, 3);
      await page.waitForTimeout(300);
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

async function expectCalls(calls: () => number, atLeast: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (calls() < atLeast && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(calls(), 'build id requests').to.be.at.least(atLeast);
}
