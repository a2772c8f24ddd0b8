/**
 * Signing in and out of each portal with the demo users, a wrong password, account switching,
 * and what a 401 does (SPEC §2, §3 "Stored session user"; SPEC-NOTES on 401).
 */
import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors } from '../support/browser';
import { isFocused } from '../support/keyboard';
import { until } from '../support/wait';
import { expectPath, fillSignIn, signIn, SIGN_IN_PAGES, storedUser, type PortalKey } from './pages';

describe('e2e: signing in and out', function () {
  this.timeout(60_000);
  const suite = browserSuite();
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeEach(async () => {
    ({ context, page } = await suite.newPage());
    errors = collectPageErrors(page);
  });

  const portals: { portal: PortalKey; email: string; home: RegExp; portalName: string }[] = [
    { portal: 'admin', email: DEMO_USERS.admin.email, home: /^\/admin$/, portalName: 'Administration' },
    { portal: 'provider', email: DEMO_USERS.physician.email, home: /^\/provider-clinic\/\d+$/, portalName: 'Clinical Portal' },
    { portal: 'research', email: DEMO_USERS.researcher.email, home: /^\/provider-research\/\d+$/, portalName: 'Research Portal' },
    { portal: 'lab', email: DEMO_USERS.lab1.email, home: /^\/lab_toolbox$/, portalName: 'Lab Toolbox' },
  ];

  for (const { portal, email, home, portalName } of portals) {
    it(`signs in to and out of the ${portalName} as ${email}`, async () => {
      await page.goto(SIGN_IN_PAGES[portal]);
      await page.getByText(portalName, { exact: true }).first().waitFor();
      await signIn(page, portal, email);
      await expectPath(page, home);
      const homePath = new URL(page.url()).pathname;

      const user = await storedUser(page);
      expect(user, 'stored session user').to.include({ email, portal });
      const me = await page.evaluate(() => fetch('/api/auth/me').then((r) => r.status));
      expect(me).to.equal(200);

      await page.getByRole('button', { name: /^Account menu for / }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await expectPath(page, SIGN_IN_PAGES[portal]);
      expect(await storedUser(page), 'stored user after sign-out').to.equal(null);
      expect(await page.evaluate(() => fetch('/api/auth/me').then((r) => r.status))).to.equal(401);

      // The home page now asks to sign in first, then comes back.
      await page.goto(homePath);
      await expectPath(page, SIGN_IN_PAGES[portal]);
      expect(new URL(page.url()).searchParams.get('next')).to.equal(homePath);
      expect(errors).to.deep.equal([]);
    });
  }

  it('shows the error for a wrong password and stays on the sign-in page', async () => {
    await page.goto(SIGN_IN_PAGES.provider);
    await fillSignIn(page, DEMO_USERS.staff.email, 'not-the-password-1');
    const alert = page.getByRole('alert').filter({ hasText: 'Invalid email or password' });
    await alert.waitFor();
    expect(await alert.textContent()).to.contain('Could not sign you in');
    await expectPath(page, SIGN_IN_PAGES.provider);
    expect(await storedUser(page)).to.equal(null);
    expect(await page.getByRole('textbox', { name: 'Password', exact: true }).inputValue(), 'password cleared').to.equal('');
  });

  it('a refused sign-in sent from the keyboard leaves the focus on "Sign in" (the busy button lost it meanwhile)', async () => {
    await page.goto(SIGN_IN_PAGES.provider);
    await page.getByRole('textbox', { name: 'Email' }).fill(DEMO_USERS.staff.email);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password-2');
    const button = page.getByRole('button', { name: 'Sign in', exact: true });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
    // The same button, usable again, has the focus: Tab and Enter go on from where the person was.
    await until(async () => (await button.isEnabled()) && (await isFocused(button)), { what: 'the focus back on Sign in' });
    expect(errors).to.deep.equal([]);
  });

  it('switches a provider with two accounts between them, and the stored account fields follow', async () => {
    await signIn(page, 'provider', DEMO_USERS.physician.email);
    const before = await storedUser(page);
    expect(before?.currentAccountName).to.be.oneOf(['Riverside Oncology', 'Lakeside Urology']);
    const other = before?.currentAccountName === 'Riverside Oncology' ? 'Lakeside Urology' : 'Riverside Oncology';
    await expectPath(page, `/provider-clinic/${before?.currentAccountId}`);

    await page.getByRole('combobox', { name: 'Switch account' }).click();
    await page.getByRole('option', { name: other }).click();

    await page.getByTestId('current-account-name').filter({ hasText: other }).waitFor();
    const after = await storedUser(page);
    expect(after?.currentAccountName).to.equal(other);
    expect(after?.currentAccountId).to.be.a('number').and.not.equal(before?.currentAccountId);
    await expectPath(page, `/provider-clinic/${after?.currentAccountId}`);
    // The seeded accounts differ in their flags: Riverside is an EAP partner, Lakeside international.
    expect({ eapPartner: after?.eapPartner, international: after?.international }).to.deep.equal(
      other === 'Lakeside Urology' ? { eapPartner: false, international: true } : { eapPartner: true, international: false },
    );
    // Everything else about the person stays as it was.
    expect({ ...after, currentAccountId: 0, currentAccountName: '', eapPartner: false, international: false }).to.deep.equal({
      ...before,
      currentAccountId: 0,
      currentAccountName: '',
      eapPartner: false,
      international: false,
    });
    // The server agrees, and the success toast of the provider layout says so.
    const current = await page.evaluate(() => fetch('/api/auth/me').then((r) => r.json() as Promise<{ currentAccount: { name: string } }>).then((me) => me.currentAccount.name));
    expect(current).to.equal(other);
    await page.getByRole('alert').filter({ hasText: `You are now working in ${other}` }).waitFor();
    expect(errors).to.deep.equal([]);
  });

  it('on a 401, drops the stored user, asks to sign in and comes back to the page', async () => {
    await signIn(page, 'lab', DEMO_USERS.lab1.email);
    await context.clearCookies(); // the session ends on the server's side
    await page.reload();
    await expectPath(page, SIGN_IN_PAGES.lab);
    expect(new URL(page.url()).searchParams.get('next')).to.equal('/lab_toolbox');
    expect(await storedUser(page)).to.equal(null);

    await fillSignIn(page, DEMO_USERS.lab1.email, DEMO_PASSWORD);
    await expectPath(page, '/lab_toolbox');
    await page.getByRole('heading', { name: `Welcome, ${DEMO_USERS.lab1.firstName}` }).waitFor();
  });

  for (const next of ['//evil.example/phish', 'https://evil.example/', '/admin', '/provider/login']) {
    it(`ignores next=${next} after sign-in (only this portal's own pages)`, async () => {
      await page.goto(`${SIGN_IN_PAGES.provider}?next=${encodeURIComponent(next)}`);
      await fillSignIn(page, DEMO_USERS.superAdmin.email, DEMO_PASSWORD);
      await expectPath(page, /^\/provider-clinic\/\d+$/);
      expect(new URL(page.url()).origin).to.equal(suite.baseUrl);
    });
  }

  it('sends a signed-out visitor of a clinic page to the provider sign-in and back', async () => {
    await page.goto('/provider-clinic/1');
    await expectPath(page, SIGN_IN_PAGES.provider);
    expect(new URL(page.url()).searchParams.get('next')).to.equal('/provider-clinic/1');
  });
});
