/**
 * Two-factor sign-in in the browser (issue 29, part 1's Must show): a lab user (who must) sets up an
 * authenticator app at the first sign-in (the code computed here from the secret the page shows) and is
 * asked for a code at the next sign-in; a recovery code works once; a passkey is created and used
 * through Chromium's virtual authenticator (CDP WebAuthn). axe on each new screen.
 * The server is reached as http://localhost:<port> = PUBLIC_URL: WebAuthn's RP ID must be a host name.
 */
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { connect, type Db } from '@platform/db';
import { hashPassword } from '@platform/server/auth/passwords';
import { browserSuite, expectAccessible } from '../support/browser';
import { dialog, fillSignIn, SIGN_IN_PAGES } from './pages';

const PASSWORD = 'Two-factor-e2e-1';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const codeAt = (secret: string, ms: number) => generateSync({ secret, epoch: Math.floor(ms / 1000) });

describe('e2e: two-factor sign-in', function () {
  this.timeout(120_000);
  let port = 0;
  let db: Db;
  before(async () => {
    port = await freePort();
    db = connect(process.env.DATABASE_URL!);
  });
  after(() => db?.close());
  const origin = () => `http://localhost:${port}`;
  const suite = browserSuite({ screenshotPrefix: 'two-factor', serverEnv: () => ({ PORT: String(port), PUBLIC_URL: origin() }) });

  async function newLabUser(): Promise<string> {
    const email = `tf-e2e-${randomBytes(4).toString('hex')}@lab.test`;
    await db.models.User.create({ kind: 'lab', email, firstName: 'Tara', lastName: 'Token', passwordHash: await hashPassword(PASSWORD), isActive: true } as never);
    return email;
  }

  async function openPage(): Promise<Page> {
    const { page } = await suite.newPage({ bypassCSP: true, baseURL: origin() } as never);
    return page;
  }

  const welcome = (page: Page) => page.getByRole('heading', { name: /^Welcome/ }).waitFor();

  async function signOut(page: Page) {
    await page.getByRole('button', { name: /^Account menu for / }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
  }

  async function openTwoFactor(page: Page) {
    await page.getByRole('button', { name: /^Account menu for / }).click();
    await page.getByRole('menuitem', { name: 'Two-factor sign-in' }).click();
    const modal = dialog(page, 'Two-factor sign-in');
    await modal.waitFor();
    return modal;
  }

  /** The codes of the recovery-codes panel, once it shows. */
  async function recoveryCodes(page: Page): Promise<string[]> {
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    return (await list.getByRole('listitem').allInnerTexts()).map((c) => c.trim());
  }

  it('a lab user must set up an authenticator app at the first sign-in, is asked for its code at the next one, and a recovery code works once', async () => {
    const email = await newLabUser();
    const page = await openPage();
    await page.goto(SIGN_IN_PAGES.lab);
    await fillSignIn(page, email, PASSWORD);

    // A lab user without a factor: the enrolment screen, before anything else.
    await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const secret = (await page.getByTestId('totp-secret').innerText()).replace(/\s+/g, '');
    expect(secret).to.match(/^[A-Z2-7]{16,}$/);
    await expectAccessible(page, 'setting up an authenticator app at sign-in');
    const codeBox = page.getByRole('textbox', { name: 'Code from your app' });
    expect(await codeBox.getAttribute('autocomplete')).to.equal('one-time-code');
    expect(await codeBox.getAttribute('inputmode')).to.equal('numeric');
    const enrolledAt = Date.now();
    await codeBox.fill(codeAt(secret, enrolledAt));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const codes = await recoveryCodes(page);
    expect(codes).to.have.length(10);
    await expectAccessible(page, 'the recovery codes');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await welcome(page);

    const modal = await openTwoFactor(page);
    await modal.getByRole('table', { name: 'Your second factors' }).getByText('Authenticator app').waitFor();
    await expectAccessible(page, 'two-factor settings with a factor');
    await page.keyboard.press('Escape');
    await signOut(page);

    // The next sign-in asks for the app's code (the next time step's: the enrolment's is spent).
    await fillSignIn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await expectAccessible(page, 'the second step of sign-in');
    const code = page.getByRole('textbox', { name: 'Authentication code' });
    expect(await code.getAttribute('autocomplete')).to.equal('one-time-code');
    expect(await code.getAttribute('inputmode')).to.equal('numeric');
    await code.fill(codeAt(secret, enrolledAt + 30_000));
    await page.getByRole('button', { name: 'Verify' }).click();
    await welcome(page);
    await signOut(page);

    // A recovery code, once.
    for (const [i, expected] of [[0, 'in'], [0, 'refused'], [1, 'in']] as const) {
      await fillSignIn(page, email, PASSWORD);
      await page.getByRole('button', { name: 'Use a recovery code' }).click();
      await page.getByRole('textbox', { name: 'Recovery code' }).fill(codes[i]);
      await page.getByRole('button', { name: 'Verify' }).click();
      if (expected === 'in') {
        await welcome(page);
        await signOut(page);
      } else {
        await page.getByText('That recovery code is not correct or was used already').first().waitFor();
        await expectAccessible(page, 'a used recovery code refused');
        await page.getByRole('button', { name: 'Cancel' }).click();
      }
    }
  });

  it('a passkey created through the virtual authenticator signs in as the second step', async () => {
    const email = await newLabUser();
    const page = await openPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await page.goto(SIGN_IN_PAGES.lab);
    await fillSignIn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Use a passkey or security key' }).click();
    expect(await recoveryCodes(page)).to.have.length(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await welcome(page);
    const modal = await openTwoFactor(page);
    await modal.getByRole('table', { name: 'Your second factors' }).getByText('Passkey').waitFor();
    await page.keyboard.press('Escape');
    await signOut(page);

    await fillSignIn(page, email, PASSWORD);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await welcome(page);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials.map((c) => c.rpId)).to.deep.equal(['localhost']);
    expect(credentials[0].signCount, 'used at registration and at sign-in').to.be.at.least(1);
  });
});
