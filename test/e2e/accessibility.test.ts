/**
 * axe-core on the sign-in pages and the 404 page (no serious or critical violation), and
 * screenshots of the sign-in pages at desktop (1280px) and phone (375px) width, kept under
 * test-artifacts/screenshots/ for people to look at.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { DEMO_USERS } from '../../scripts/demo-users';
import { axeViolations, browserSuite, screenshot, VIEWPORTS } from '../support/browser';
import { signIn, SIGN_IN_PAGES } from './pages';

const PAGES: { name: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  ...Object.entries(SIGN_IN_PAGES).map(([portal, path]) => ({
    name: `sign-in-${portal}`,
    path,
    ready: (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true }).waitFor(),
  })),
  { name: 'forgot-password-provider', path: '/provider/forgot-password', ready: (page) => page.getByRole('button', { name: 'Send reset link' }).waitFor() },
  { name: 'reset-password-research', path: `/provider-research/reset-password?token=${'ab'.repeat(32)}`, ready: (page) => page.getByRole('button', { name: 'Save password' }).waitFor() },
  { name: 'not-found', path: '/404', ready: (page) => page.getByRole('heading', { name: 'Page not found' }).waitFor() },
];

describe('e2e: accessibility and screenshots', function () {
  this.timeout(60_000);
  const suite = browserSuite();

  for (const { name, path, ready } of PAGES) {
    for (const [width, viewport] of [['1280', VIEWPORTS.desktop], ['375', VIEWPORTS.phone]] as const) {
      it(`${path} at ${width}px: no serious or critical axe violation, screenshot kept`, async () => {
        const { context, page } = await suite.newPage({ viewport, isMobile: width === '375', bypassCSP: true });
        try {
          await page.goto(path);
          await ready(page);
          await page.waitForTimeout(250); // let transitions settle before the picture
          await screenshot(page, `${name}-${width}`);
          expect(await axeViolations(page)).to.deep.equal([]);
        } finally {
          await context.close();
        }
      });
    }
  }

  it('keeps screenshots of the signed-in homes, for review', async () => {
    const homes: [string, keyof typeof SIGN_IN_PAGES, string][] = [
      ['home-admin', 'admin', DEMO_USERS.admin.email],
      ['home-clinic', 'provider', DEMO_USERS.physician.email],
      ['home-research', 'research', DEMO_USERS.researcher.email],
      ['home-lab', 'lab', DEMO_USERS.lab1.email],
    ];
    for (const [name, portal, email] of homes) {
      for (const [width, viewport] of [['1280', VIEWPORTS.desktop], ['375', VIEWPORTS.phone]] as const) {
        const { context, page } = await suite.newPage({ viewport, isMobile: width === '375', bypassCSP: true });
        try {
          await signIn(page, portal, email);
          await page.waitForTimeout(250);
          await screenshot(page, `${name}-${width}`);
          expect(await axeViolations(page), `${name} at ${width}px`).to.deep.equal([]);
        } finally {
          await context.close();
        }
      }
    }
  });
});
