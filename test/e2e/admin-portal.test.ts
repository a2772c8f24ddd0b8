/**
 * The admin portal and an account's user management, in a real browser against the real API and
 * worker: onboarding a clinic (account, registered physician, set-password email, first sign-in),
 * a provider asking for access and the admin approving it; a Super Admin removing a staff member's
 * access to the account and giving it back, and the admin deactivating a user and activating them
 * again, each seen from the other person's live session; the admin deactivating a lab toolbox user
 * and reactivating them.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { hashPassword } from '@platform/server/auth/passwords';
import { ADMIN_TOASTS, AccessStatus, AccountRole, AccountType, ProviderTitle, Specialty, UserKind, fullName, listName } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, expectAccessible } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { waitForMail } from '../support/mail';
import { dialog, expectPath, fillSignIn, signIn, SIGN_IN_PAGES, storedUser } from './pages';
import { freshNpi } from '../support/fixtures/npi';

/** Valid NPIs (Luhn over 80840 + the first nine digits), each used once in this file. */
// NPIs of this run only (one NPI, one person: another test's contacts may hold the usual test NPIs).
const NPI = { accountPhysician: freshNpi(), registeredPhysician: freshNpi(), approvedPhysician: freshNpi() } as const;

/** Letters only (names and emails no other test uses). */
const tag = () => randomBytes(4).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]);

/** A success toast of the provider layout (Mantine notifications are alerts). */
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();

/** Chooses an option of a Mantine Select by its visible label (the list opens in a portal). */
async function choose(page: Page, combobox: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Finds an account by typing its name into an account picker (the server searches) and chooses it. */
async function chooseAccount(page: Page, combobox: string, name: string): Promise<void> {
  await page.getByRole('combobox', { name: combobox, exact: true }).fill(name);
  await page.getByRole('option', { name, exact: true }).click();
}

/** The labels the open combobox list offers. */
async function optionsOf(page: Page, combobox: string): Promise<string[]> {
  await page.getByRole('combobox', { name: combobox, exact: true }).click();
  const options = page.getByRole('listbox').getByRole('option');
  await options.first().waitFor();
  const labels = (await options.allInnerTexts()).map((t) => t.trim());
  await page.keyboard.press('Escape');
  return labels;
}

describe('e2e: admin portal and account users', function () {
  this.timeout(120_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'admin-portal' });
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  /**
   * Opens the set-password link of the email to `email` in a page of its own (the person's own
   * browser), chooses a password and signs in at the provider portal; resolves on their home page.
   */
  async function firstSignIn(email: string): Promise<Page> {
    const [mail] = await waitForMail(email, 1, { matching: (m) => /reset-password\?token=/.test(m.text) });
    const link = /https?:\/\/[^/\s]+(\/provider\/reset-password\?token=[0-9a-f]{64})/.exec(mail.text);
    expect(link, mail.text).to.not.equal(null);
    const { page } = await suite.newPage();
    const password = `first-password-${tag()}7`;
    await page.goto(link![1]);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByRole('textbox', { name: 'New password', exact: true }).fill(password);
    await page.getByRole('textbox', { name: 'New password again' }).fill(password);
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.getByRole('heading', { name: 'Password changed' }).waitFor();
    await page.getByRole('link', { name: 'Go to sign-in' }).click();
    await expectPath(page, SIGN_IN_PAGES.provider);
    await fillSignIn(page, email, password);
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    return page;
  }

  // Two journeys, each its own test (each had to fit the minute-long budget with the other).
  it('the admin creates an account, registers a physician who sets a password from the email and signs in to that account', async () => {
    const accountName = `Harbor Oncology ${tag()}`;
    const physician = { firstName: 'Iris', lastName: `Vance${tag()}`, email: `dr-${tag()}@harbor.test` };

    // The admin creates the account.
    const { page: admin } = await suite.newPage();
    await signIn(admin, 'admin', DEMO_USERS.admin.email);
    await admin.goto('/admin/provider/account/new');
    await admin.getByRole('heading', { name: 'New account' }).waitFor();
    await expectAccessible(admin, 'the new account page');
    const accountForm = admin.getByRole('form', { name: 'New account' });
    await accountForm.getByRole('textbox', { name: 'Account name' }).fill(accountName);
    await accountForm.getByRole('checkbox', { name: 'Clinic access' }).check();
    expect(await accountForm.getByRole('checkbox', { name: 'Research access' }).isChecked()).to.equal(false);
    await accountForm.getByRole('button', { name: 'Add department' }).click();
    await accountForm.getByRole('textbox', { name: 'Department 1' }).fill('Radiation Oncology');
    await accountForm.getByRole('button', { name: 'Add physician' }).click();
    await accountForm.getByRole('textbox', { name: 'Physician 1 first name' }).fill('Nadia');
    await accountForm.getByRole('textbox', { name: 'Physician 1 last name' }).fill('Ortiz');
    await accountForm.getByRole('textbox', { name: 'Physician 1 NPI' }).fill(NPI.accountPhysician);
    await choose(admin, 'Physician 1 specialty', Specialty.RadiationOncology);
    await accountForm.getByRole('button', { name: 'Create account' }).click();
    await toast(admin, ADMIN_TOASTS.accountCreated).waitFor();
    await admin.getByText(`${accountName} (${AccountType.General}) has no users yet.`).waitFor();

    // … and registers a physician in it.
    await admin.goto('/admin/provider/register');
    await admin.getByRole('heading', { name: 'Register a provider' }).waitFor();
    await expectAccessible(admin, 'the register a provider page');
    const registration = admin.getByRole('form', { name: 'Register a provider' });
    await registration.getByRole('textbox', { name: 'First name' }).fill(physician.firstName);
    await registration.getByRole('textbox', { name: 'Last name' }).fill(physician.lastName);
    await registration.getByRole('textbox', { name: 'Email' }).fill(physician.email);
    await choose(admin, 'Title', ProviderTitle.Physician);
    await choose(admin, 'Specialty', Specialty.RadiationOncology);
    await registration.getByRole('textbox', { name: 'NPI' }).fill(NPI.registeredPhysician);
    await chooseAccount(admin, 'Account 1', accountName);
    await choose(admin, 'Role 1', AccountRole.Physician);
    await registration.getByRole('button', { name: 'Register provider' }).click();
    await toast(admin, ADMIN_TOASTS.userCreated).waitFor();
    await admin.getByText(`${physician.firstName} ${physician.lastName} (${physician.email}) is registered`).waitFor();

    // The physician sets a password from the email, signs in, and works in that account.
    const doctor = await firstSignIn(physician.email);
    expect(await doctor.getByTestId('current-account-name').innerText()).to.equal(accountName);
    await doctor.getByRole('link', { name: 'Order', exact: true }).click();
    await doctor.getByRole('heading', { name: 'Order a test' }).waitFor();
    // A physician orders under their own name only: the picker offers them, not the account's other physician.
    expect(await optionsOf(doctor, 'Ordering physician')).to.deep.equal([`${physician.firstName} ${physician.lastName} (NPI ${NPI.registeredPhysician})`]);
  });

  it('a provider requests access, the admin approves them into an account, and the provider signs in to it', async () => {
    const accountName = `Hilltop Urology ${tag()}`;
    await t.ctx.db.models.Account.create({ name: accountName, type: AccountType.General, clinicAccess: true, researchAccess: false, isActive: true });
    const asker = { firstName: 'Quinn', lastName: `Asker${tag()}`, email: `asker-${tag()}@hilltop.test` };

    // A provider without an account asks for one from the sign-in page.
    const { page: newcomer } = await suite.newPage();
    await newcomer.goto(SIGN_IN_PAGES.provider);
    await newcomer.getByRole('link', { name: 'Request access' }).click();
    await expectPath(newcomer, '/provider/request-access');
    const request = newcomer.getByRole('form', { name: 'Request access' });
    await request.getByRole('textbox', { name: 'First name' }).fill(asker.firstName);
    await request.getByRole('textbox', { name: 'Last name' }).fill(asker.lastName);
    await request.getByRole('textbox', { name: 'Email' }).fill(asker.email);
    await request.getByRole('textbox', { name: 'Phone' }).fill('555-010-4242');
    // They ask as "Other" (no NPI asked); the admin approves them as a Physician, who orders under an NPI (issue 25, item 5).
    await choose(newcomer, 'Title', ProviderTitle.Other);
    await choose(newcomer, 'Specialty', Specialty.Urology);
    await request.getByRole('textbox', { name: 'Practice name' }).fill('Hilltop Urology');
    await request.getByRole('textbox', { name: 'Note' }).fill('We treat prostate cancer patients.');
    await request.getByRole('button', { name: 'Send request' }).click();
    const sent = newcomer.getByRole('alert').filter({ hasText: 'Request sent' });
    await sent.waitFor();
    expect(await sent.innerText()).to.include('Thank you. Your request has been received: the lab reviews it and emails you when your access is ready.');

    // The admin approves the request with the new account and a role.
    const { page: admin } = await suite.newPage();
    await signIn(admin, 'admin', DEMO_USERS.admin.email);
    await admin.goto('/admin/provider/approve');
    await admin.getByRole('heading', { name: 'Provider approvals' }).waitFor();
    const card = admin.getByRole('listitem', { name: `${asker.firstName} ${asker.lastName}` });
    await card.waitFor();
    expect(await card.innerText()).to.include('Hilltop Urology').and.include('We treat prostate cancer patients.');
    await card.getByRole('button', { name: 'Approve' }).click();
    const approve = dialog(admin, `Approve ${asker.firstName} ${asker.lastName}`);
    await approve.waitFor();
    await expectAccessible(admin, 'the provider approvals page with a request');
    await chooseAccount(admin, 'Account 1', accountName);
    await choose(admin, 'Role 1', AccountRole.Physician);
    // The Physician role asks for the NPI the request did not give (before: "A physician needs an NPI to order", and no field).
    await approve.getByRole('button', { name: 'Approve access' }).click();
    await approve.getByText('Enter the NPI: a Physician orders under it').waitFor();
    await approve.getByRole('textbox', { name: 'NPI' }).fill(NPI.approvedPhysician);
    await expectAccessible(admin, 'the approval of a physician, asking for the NPI');
    await approve.getByRole('button', { name: 'Approve access' }).click();
    await toast(admin, `Access approved for ${asker.firstName} ${asker.lastName}`).waitFor();
    await approve.waitFor({ state: 'detached' });
    await card.waitFor({ state: 'detached' });

    // The approved provider sets a password from the email and signs in to that account.
    const approved = await firstSignIn(asker.email);
    expect(await approved.getByTestId('current-account-name').innerText()).to.equal(accountName);
    expect(await approved.getByText(`General account · your role: ${AccountRole.Physician}`).isVisible()).to.equal(true);
    await approved.getByRole('link', { name: 'Order', exact: true }).click();
    await approved.getByRole('heading', { name: 'Order a test' }).waitFor();
    expect(await optionsOf(approved, 'Ordering physician')).to.deep.equal([`${asker.firstName} ${asker.lastName} (NPI ${NPI.approvedPhysician})`]);
  });

  describe('a Super Admin removes access and gives it back; an admin deactivates and activates', () => {
    // A password of this run only (the people are made by the test itself).
    const PASSWORD = `e2e-${randomBytes(8).toString('hex')}-1`;
    const accounts = { main: { id: 0, name: '' }, second: { id: 0, name: '' }, third: { id: 0, name: '' } };
    const people = {
      boss: { email: '', firstName: 'Bea', lastName: '', contactId: 0 },
      staffA: { email: '', firstName: 'Ana', lastName: '', contactId: 0 },
      staffB: { email: '', firstName: 'Ben', lastName: '', contactId: 0 },
    };

    before(async () => {
      const m = t.ctx.db.models;
      const passwordHash = await hashPassword(PASSWORD);
      const id = tag();
      await t.ctx.db.sequelize.transaction(async (transaction) => {
        const opts = { transaction };
        // Names that sort in this order: staff member A's first account at sign-in is the main one.
        for (const [key, label] of [['main', 'Aspen'], ['second', 'Birch'], ['third', 'Cedar']] as const) {
          const account = await m.Account.create({ name: `${label} Clinic ${id}`, type: AccountType.General, clinicAccess: true, researchAccess: false, isActive: true }, opts);
          accounts[key] = { id: account.id, name: account.name };
        }
        const person = async (p: (typeof people)[keyof typeof people], last: string, grants: [number, AccountRole][]) => {
          p.lastName = `${last}${id}`;
          p.email = `${last.toLowerCase()}-${id}@account-users.test`;
          const user = await m.User.create({ kind: 'provider', email: p.email, passwordHash, firstName: p.firstName, lastName: p.lastName, isActive: true }, opts);
          const contact = await m.Contact.create(
            { userId: user.id, firstName: p.firstName, lastName: p.lastName, email: p.email, title: ProviderTitle.Nurse, specialty: null, accessStatus: AccessStatus.Approved },
            opts,
          );
          p.contactId = contact.id;
          for (const [accountId, role] of grants) await m.AccountMembership.create({ accountId, contactId: contact.id, role, isActive: true }, opts);
        };
        await person(people.boss, 'Boss', [[accounts.main.id, AccountRole.SuperAdmin]]);
        // A works in three accounts, so after losing one the switcher still has two to offer.
        await person(people.staffA, 'Staffa', [[accounts.main.id, AccountRole.SupportStaff], [accounts.second.id, AccountRole.SupportStaff], [accounts.third.id, AccountRole.SupportStaff]]);
        await person(people.staffB, 'Staffb', [[accounts.main.id, AccountRole.SupportStaff]]);
      });
    });

    async function signedIn(email: string): Promise<Page> {
      const { page } = await suite.newPage();
      await page.goto(SIGN_IN_PAGES.provider);
      await fillSignIn(page, email, PASSWORD);
      await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
      return page;
    }

    it("a Super Admin removes a staff member's access: the staff member's next request is refused and the account leaves their switcher, until access is given again", async () => {
      const { main, second, third } = accounts;
      const { boss, staffA } = people;
      const nameA = fullName(staffA);

      // Staff member A works in the main account, with the two others in the switcher.
      const a = await signedIn(staffA.email);
      expect(await a.getByTestId('current-account-name').innerText()).to.equal(main.name);
      expect(await optionsOf(a, 'Switch account')).to.deep.equal([main.name, second.name, third.name]);
      await a.getByRole('link', { name: 'Pending', exact: true }).click();
      await a.getByRole('heading', { name: 'Pending tests' }).waitFor();
      await a.getByText('No pending tests.', { exact: false }).waitFor();

      // The super admin removes A's access to the main account.
      const sa = await signedIn(boss.email);
      await sa.goto(`/provider-clinic/${main.id}/users`);
      await sa.getByRole('heading', { name: 'Account users' }).waitFor();
      const users = sa.getByRole('table', { name: 'Users of this account' });
      await users.getByRole('button', { name: listName(staffA) }).click();
      const panel = dialog(sa, nameA);
      await panel.getByRole('heading', { name: `Role and access in ${main.name}` }).waitFor();
      await expectAccessible(sa, "the clinic's account users page with a user open");
      await panel.getByRole('button', { name: 'Remove access' }).click();
      const confirm = dialog(sa, `Remove ${nameA} from ${main.name}?`);
      await confirm.getByRole('button', { name: 'Remove access' }).click();
      await toast(sa, `${nameA} no longer has access to ${main.name}`).waitFor();
      await panel.getByRole('heading', { name: `No access to ${main.name}` }).waitFor();

      // A's next page in that account: the API refuses it (as for any account not theirs), and the
      // page says it is not found, with no error modal; the account leaves their switcher.
      const refused = a.waitForResponse((r) => new URL(r.url()).pathname === `/api/provider-clinic/${main.id}/tests`);
      await a.getByRole('link', { name: 'Completed', exact: true }).click();
      expect((await refused).status()).to.equal(404);
      await a.getByRole('heading', { name: 'Page not found' }).waitFor();
      expect(await a.getByRole('dialog').count(), 'no error modal').to.equal(0);
      expect((await storedUser(a))?.currentAccountId, 'the stored current account moved on').to.equal(second.id);
      await a.getByRole('link', { name: 'Go to your home page' }).click();
      await a.getByRole('heading', { name: /^Welcome/ }).waitFor();
      expect(await a.getByTestId('current-account-name').innerText()).to.equal(second.name);
      expect(await optionsOf(a, 'Switch account')).to.deep.equal([second.name, third.name]);

      // The super admin gives A access again, with a role: A's accounts have the main one back.
      await expectAccessible(sa, "the clinic's account users page with a removed user open");
      await choose(sa, 'Role', AccountRole.SupportStaff);
      await panel.getByRole('button', { name: 'Give access again' }).click();
      await toast(sa, `${nameA} has access to ${main.name} again`).waitFor();
      await panel.getByRole('heading', { name: `Role and access in ${main.name}` }).waitFor();
      await a.reload();
      await a.getByRole('heading', { name: /^Welcome/ }).waitFor();
      expect(await optionsOf(a, 'Switch account')).to.deep.equal([main.name, second.name, third.name]);
      const allowed = a.waitForResponse((r) => new URL(r.url()).pathname === `/api/provider-clinic/${main.id}/tests`);
      await a.goto(`/provider-clinic/${main.id}/pending`);
      expect((await allowed).status()).to.equal(200);
      await a.getByRole('heading', { name: 'Pending tests' }).waitFor();
    });

    it('deactivation by the admin ends a live session and refuses sign-in; activation lets them sign in again', async () => {
      const { main } = accounts;
      const { staffB } = people;

      // Staff member B is signed in; the admin deactivates B as a whole.
      const b = await signedIn(staffB.email);
      expect(await b.getByTestId('current-account-name').innerText()).to.equal(main.name);
      const { page: admin } = await suite.newPage();
      await signIn(admin, 'admin', DEMO_USERS.admin.email);
      await admin.goto('/admin/provider/users');
      await admin.getByRole('heading', { name: 'Provider users' }).waitFor();
      await admin.getByRole('textbox', { name: 'Search users' }).fill(staffB.email);
      await admin.getByRole('table', { name: 'Provider users' }).getByRole('link', { name: listName(staffB) }).click();
      await admin.getByRole('heading', { name: fullName(staffB) }).waitFor();
      await expectAccessible(admin, 'the provider users page with a user open');
      await admin.getByRole('button', { name: 'Deactivate user' }).click();
      await dialog(admin, `Deactivate ${fullName(staffB)}?`).getByRole('button', { name: 'Deactivate user' }).click();
      await toast(admin, `${fullName(staffB)} was deactivated`).waitFor();
      await admin.getByRole('button', { name: 'Activate user' }).waitFor();

      // B's next request meets the ended session: to the sign-in page, the stored user dropped.
      const ended = b.waitForResponse((r) => new URL(r.url()).pathname === `/api/provider-clinic/${main.id}/tests`);
      await b.getByRole('link', { name: 'Pending', exact: true }).click();
      expect((await ended).status()).to.equal(401);
      await expectPath(b, SIGN_IN_PAGES.provider);
      expect(new URL(b.url()).searchParams.get('next')).to.equal(`/provider-clinic/${main.id}/pending`);
      await b.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
      expect(await storedUser(b)).to.equal(null);
      // And B cannot sign in again.
      await fillSignIn(b, staffB.email, PASSWORD);
      await b.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();
      await expectAccessible(b, 'the sign-in page refusing a deactivated user');

      // The admin activates B again: B signs in.
      await admin.getByRole('button', { name: 'Activate user' }).click();
      await toast(admin, `${fullName(staffB)} can sign in again`).waitFor();
      await admin.getByRole('button', { name: 'Deactivate user' }).waitFor();
      // B signs in (the sign-in page still carries ?next=: back to where they were).
      const served = b.waitForResponse((r) => new URL(r.url()).pathname === `/api/provider-clinic/${main.id}/tests`);
      await fillSignIn(b, staffB.email, PASSWORD);
      expect((await served).status()).to.equal(200);
      await expectPath(b, `/provider-clinic/${main.id}/pending`);
      await b.getByRole('heading', { name: 'Pending tests' }).waitFor();
    });
  });

  it('the admin deactivates a lab toolbox user, who can no longer sign in, and reactivates them, who signs in again', async () => {
    const password = `e2e-lab-${randomBytes(8).toString('hex')}-1`;
    const tech = { firstName: 'Lina', lastName: `Pipette${tag()}`, email: `lina-${tag()}@lab-users.test` };
    await t.ctx.db.sequelize.transaction(async (transaction) => {
      const user = await t.ctx.db.models.User.create({ kind: UserKind.Lab, ...tech, passwordHash: await hashPassword(password), isActive: true }, { transaction });
      await t.ctx.db.models.Technician.create({ userId: user.id, ...tech }, { transaction });
    });
    const name = fullName(tech);

    const { page: admin } = await suite.newPage();
    await signIn(admin, 'admin', DEMO_USERS.admin.email);
    await admin.goto('/admin/provider/lab-toolbox');
    const users = admin.getByRole('table', { name: 'Lab toolbox users' });
    await users.getByRole('button', { name: `Deactivate ${name}` }).click();
    await dialog(admin, `Deactivate ${name}?`).getByRole('button', { name: 'Deactivate' }).click();
    await toast(admin, `${name} was deactivated`).waitFor();
    const reactivate = users.getByRole('button', { name: `Reactivate ${name}` });
    await reactivate.waitFor();
    await expectAccessible(admin, 'the lab toolbox users page with an inactive user');

    const { page: lab } = await suite.newPage();
    await lab.goto(SIGN_IN_PAGES.lab);
    await fillSignIn(lab, tech.email, password);
    await lab.getByRole('alert').filter({ hasText: 'Invalid email or password' }).waitFor();

    await reactivate.click();
    const confirm = dialog(admin, `Reactivate ${name}?`);
    await confirm.waitFor();
    await expectAccessible(admin, 'the lab toolbox users page asking to reactivate');
    await confirm.getByRole('button', { name: 'Reactivate' }).click();
    await toast(admin, `${name} was reactivated`).waitFor();
    await users.getByRole('button', { name: `Deactivate ${name}` }).waitFor();

    // The password is taken again; a lab user without a second factor sets one up before anything else.
    await fillSignIn(lab, tech.email, password);
    await lab.getByRole('heading', { name: 'Set up two-factor sign-in' }).waitFor();
  });
});
