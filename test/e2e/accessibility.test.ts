/**
 * axe-core on the sign-in pages, the invitation page and the 404 page (no WCAG 2.1 AA violation, also with the form's
 * errors shown), the signed-in homes, and
 * screenshots of the sign-in pages at desktop (1280px) and phone (375px) width, kept under
 * test-artifacts/screenshots/ for people to look at.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { DEMO_USERS } from '../../scripts/demo-users';
import { expectAccessible, browserSuite, screenshot, VIEWPORTS } from '../support/browser';
import { signIn, SIGN_IN_PAGES } from './pages';

/** Its error state: the form sent empty, every required field says so. */
const sentEmpty = (button: string) => async (page: Page) => {
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.locator('.mantine-InputWrapper-error').first().waitFor(); // a field's error message
};

const PAGES: { name: string; path: string; ready: (page: Page) => Promise<void>; error?: (page: Page) => Promise<void> }[] = [
  ...Object.entries(SIGN_IN_PAGES).map(([portal, path]) => ({
    name: `sign-in-${portal}`,
    path,
    ready: (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true }).waitFor(),
    error: sentEmpty('Sign in'),
  })),
  { name: 'forgot-password-provider', path: '/provider/forgot-password', ready: (page) => page.getByRole('button', { name: 'Send reset link' }).waitFor(), error: sentEmpty('Send reset link') },
  { name: 'reset-password-research', path: `/provider-research/reset-password?token=${'ab'.repeat(32)}`, ready: (page) => page.getByRole('button', { name: 'Save password' }).waitFor(), error: sentEmpty('Save password') },
  {
    name: 'accept-invitation-provider', path: '/provider/accept-invitation?token=not-a-token',
    ready: (page) => page.getByText('This invitation link is not valid. Ask the person who invited you for a new one.').waitFor(),
  },
  { name: 'not-found', path: '/404', ready: (page) => page.getByRole('heading', { name: 'Page not found' }).waitFor() },
];

describe('e2e: accessibility and screenshots', function () {
  this.timeout(60_000);
  const suite = browserSuite();

  for (const { name, path, ready, error } of PAGES) {
    for (const [width, viewport] of [['1280', VIEWPORTS.desktop], ['375', VIEWPORTS.phone]] as const) {
      it(`${path} at ${width}px: no WCAG 2.1 AA violation${error ? ', nor with its errors shown' : ''}, screenshot kept`, async () => {
        const { context, page } = await suite.newPage({ viewport, isMobile: width === '375', bypassCSP: true });
        try {
          await page.goto(path);
          await ready(page);
          await page.waitForTimeout(250); // let transitions settle before the picture
          await screenshot(page, `${name}-${width}`);
          await expectAccessible(page, `${name} at ${width}px`);
          if (error) {
            await error(page);
            await expectAccessible(page, `${name} at ${width}px with its errors shown`);
          }
        } finally {
          await context.close();
        }
      });
    }
  }

  // One test per home: each signs in twice (desktop, phone) and checks both pages with axe.
  const homes: [string, keyof typeof SIGN_IN_PAGES, string][] = [
    ['home-admin', 'admin', DEMO_USERS.admin.email],
    ['home-clinic', 'provider', DEMO_USERS.physician.email],
    ['home-research', 'research', DEMO_USERS.researcher.email],
    ['home-lab', 'lab', DEMO_USERS.lab1.email],
  ];
  for (const [name, portal, email] of homes) {
    it(`keeps screenshots of the signed-in ${portal} home, for review`, async () => {
      for (const [width, viewport] of [['1280', VIEWPORTS.desktop], ['375', VIEWPORTS.phone]] as const) {
        const { context, page } = await suite.newPage({ viewport, isMobile: width === '375', bypassCSP: true });
        try {
          await signIn(page, portal, email);
          await page.waitForTimeout(250);
          await screenshot(page, `${name}-${width}`);
          await expectAccessible(page, `${name} at ${width}px`);
        } finally {
          await context.close();
        }
      }
    });
  }
});
