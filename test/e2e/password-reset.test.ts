/**
 * Forgot password, the emailed link, the reset page and changing the password back from the
 * account menu: the whole path a person takes, in the browser, against the real API and worker.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, expectAccessible } from '../support/browser';
import { waitForFocus } from '../support/keyboard';
import { waitForMail } from '../support/mail';
import { dialog, expectPath, fillSignIn, signIn, SIGN_IN_PAGES } from './pages';

describe('e2e: password reset and change', function () {
  this.timeout(90_000);
  const suite = browserSuite({ worker: true });
  let page: Page;

  beforeEach(async () => {
    ({ page } = await suite.newPage());
  });

  it('resets a forgotten password from the emailed link, then changes it back from the account menu', async () => {
    const { email } = DEMO_USERS.superAdmin;
    const newPassword = 'fresh-password-77';

    await page.goto(SIGN_IN_PAGES.provider);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expectPath(page, '/provider/forgot-password');
    // The address changes before the new page is drawn (the router renders in a transition), and
    // the sign-in page has an Email box too: fill the one in the reset-link form.
    const request = page.getByRole('form', { name: 'Request a password reset link' });
    await request.getByRole('textbox', { name: 'Email' }).fill(email);
    const send = request.getByRole('button', { name: 'Send reset link' });
    await send.focus();
    await page.keyboard.press('Enter');
    const sent = dialog(page, 'Check your email');
    await sent.waitFor();
    expect(await sent.locator('[data-tone="success"]').innerText()).to.equal('If an account exists for that email, a reset link is on its way.');
    // The message's dialog loads its code when it first opens: closing it still gives the focus back.
    await page.keyboard.press('Escape');
    await sent.waitFor({ state: 'hidden' });
    await waitForFocus(page, send, 'the button that sent the form');
    await expectAccessible(page, 'forgot password, its message closed');

    const [mail] = await waitForMail(email);
    const link = /https?:\/\/[^/\s]+(\/provider\/reset-password\?token=[0-9a-f]{64})/.exec(mail.text);
    expect(link, mail.text).to.not.equal(null);

    await page.goto(link![1]);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword);
    await page.getByRole('textbox', { name: 'New password again' }).fill('not-the-same-77');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.getByText('The two passwords do not match').waitFor();
    await page.getByRole('textbox', { name: 'New password again' }).fill(newPassword);
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await page.getByRole('link', { name: 'Go to sign-in' }).click();

    await expectPath(page, SIGN_IN_PAGES.provider);
    await fillSignIn(page, email, newPassword);
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();

    // Back to the demo password, through the account menu.
    await page.getByRole('button', { name: /^Account menu for / }).click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    const form = dialog(page, 'Change password');
    await form.getByRole('textbox', { name: 'Current password' }).fill(newPassword);
    await form.getByRole('textbox', { name: 'New password', exact: true }).fill(DEMO_PASSWORD);
    await form.getByRole('textbox', { name: 'New password again' }).fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    const changed = dialog(page, 'Password changed');
    await changed.waitFor();
    expect(await changed.locator('[data-tone="success"]').innerText()).to.equal('Your password has been changed.');

    // The link was for one use only.
    await page.goto(link![1]);
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill('another-pass-88');
    await page.getByRole('textbox', { name: 'New password again' }).fill('another-pass-88');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.getByRole('alert').filter({ hasText: 'This reset link is invalid or has expired.' }).waitFor();
    await page.getByRole('link', { name: 'Request a new link' }).waitFor();
  });

  it("names a wrong current password on its field, and shows 'Change password failed' in red when the API fails", async () => {
    await signIn(page, 'admin', DEMO_USERS.admin.email);
    await page.getByRole('button', { name: /^Account menu for / }).click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    const form = dialog(page, 'Change password');
    await form.getByRole('textbox', { name: 'Current password' }).fill('wrong-password-9');
    await form.getByRole('textbox', { name: 'New password', exact: true }).fill('whatever-pass-12');
    await form.getByRole('textbox', { name: 'New password again' }).fill('whatever-pass-12');
    await form.getByRole('button', { name: 'Change password' }).click();
    // The API names the field, so the form shows it there and stays open.
    await form.getByText('The current password is not correct').waitFor();

    await page.route('**/api/auth/change-password', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'internal', message: 'Something went wrong on our side. Please try again.' }, requestId: 'test' }) }),
    );
    await form.getByRole('textbox', { name: 'Current password' }).fill(DEMO_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    const failed = dialog(page, 'Change password failed');
    await failed.waitFor();
    const message = failed.locator('[data-tone="error"]');
    expect(await message.innerText()).to.equal('Something went wrong on our side. Please try again.');
    expect(await message.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(el).color)).to.match(/^rgb\((1[5-9]\d|2\d\d), \d{1,2}, \d{1,2}\)$/);
  });

  it('says a link without a valid token cannot be used, and offers a new one', async () => {
    await page.goto('/lab_toolbox/reset-password?token=not-a-token');
    await page.getByRole('alert').filter({ hasText: 'This reset link is invalid or has expired.' }).waitFor();
    await page.getByRole('link', { name: 'Request a new link' }).click();
    await expectPath(page, '/lab_toolbox/forgot-password');
  });
});
