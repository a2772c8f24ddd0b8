/** What the browser tests do often: sign in through a portal's page, read the stored user, find the shell's parts. */
import { expect } from 'chai';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';
import { mustUseSecondFactor } from '@platform/domain';
import { rememberBrowser } from '../../scripts/second-step';
import { expectVisibleFocus, tabTo } from '../support/keyboard';
import { STORED_USER_KEY, type StoredSessionUser } from '../../web/src/session/stored-user-shape';

export const SIGN_IN_PAGES = {
  admin: '/admin/login',
  provider: '/provider/login',
  research: '/provider-research/login',
  lab: '/lab_toolbox/login',
} as const;
export type PortalKey = keyof typeof SIGN_IN_PAGES;

/** The demo users who must use a second factor (admins and lab users). */
const SECOND_FACTOR_USERS = new Set<string>(Object.values(DEMO_USERS).filter((u) => mustUseSecondFactor(u.kind, [])).map((u) => u.email));

/** Before a demo admin or lab user signs in with the right password: the browser is remembered (see rememberBrowser). */
async function rememberedIfNeeded(page: Page, email: string, password: string): Promise<void> {
  if (!SECOND_FACTOR_USERS.has(email) || password !== DEMO_PASSWORD) return;
  const portal = Object.values(DEMO_USERS).find((u) => u.email === email)!.kind;
  await rememberBrowser(page, process.env.DATABASE_URL!, { email, password, portal });
}

export async function fillSignIn(page: Page, email: string, password: string): Promise<void> {
  await rememberedIfNeeded(page, email, password);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Opens the portal's sign-in page and signs in; resolves once the home page greets the person. */
export async function signIn(page: Page, portal: PortalKey, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(SIGN_IN_PAGES[portal]);
  await fillSignIn(page, email, password);
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
}

/**
 * The same by keyboard alone: Tab to the email (its focus visible), type, Tab to the password,
 * type, Enter; resolves once the home page greets the person.
 */
export async function signInByKeyboard(page: Page, portal: PortalKey, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto(SIGN_IN_PAGES[portal]);
  await rememberedIfNeeded(page, email, password);
  const emailBox = page.getByRole('textbox', { name: 'Email' });
  await tabTo(page, emailBox);
  await expectVisibleFocus(emailBox);
  await page.keyboard.type(email);
  await tabTo(page, page.getByRole('textbox', { name: 'Password', exact: true }));
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
}

export async function storedUser(page: Page): Promise<StoredSessionUser | null> {
  const raw = await page.evaluate((key) => (globalThis as unknown as { localStorage: { getItem(k: string): string | null } }).localStorage.getItem(key), STORED_USER_KEY);
  return raw ? (JSON.parse(raw) as StoredSessionUser) : null;
}

/** The open dialog with this accessible name (Mantine modals are role=dialog, named by their title). */
export const dialog = (page: Page, name: string | RegExp) => page.getByRole('dialog', { name });

export const sidebar = (page: Page) => page.getByTestId('sidebar');

export async function sidebarWidth(page: Page): Promise<number | null> {
  const box = await sidebar(page).boundingBox();
  return box?.width ?? null;
}

export async function expectPath(page: Page, pathname: string | RegExp): Promise<void> {
  await page.waitForURL((url) => (typeof pathname === 'string' ? url.pathname === pathname : pathname.test(url.pathname)));
  const actual = new URL(page.url()).pathname;
  if (typeof pathname === 'string') expect(actual).to.equal(pathname);
  else expect(actual).to.match(pathname);
}

/** The Lab Toolbox's signing dialog of an approval (Approve on the review page opens it), for this many results. */
export const signingDialog = (page: Page, results: number) => dialog(page, `Sign to release ${results} ${results === 1 ? 'result' : 'results'}`);

/**
 * Signs in an open dialog (an electronic signature, 21 CFR 11.200): the approval's signing dialog
 * naming this many results, or another dialog that signs (a correction's): types the password (the
 * demo users' by default), presses its "Sign and …" button and resolves once the dialog has closed.
 */
export async function signWithPassword(page: Page, results: number | Locator, password = DEMO_PASSWORD): Promise<void> {
  const signing = typeof results === 'number' ? signingDialog(page, results) : results;
  await signing.getByLabel('Your password').fill(password);
  await signing.getByRole('button', { name: /^Sign and / }).click();
  await signing.waitFor({ state: 'detached' });
}
