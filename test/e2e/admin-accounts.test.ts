/**
 * Accounts the admin runs, in Chromium (issue 31, part 2): the admin finds an account on the
 * Accounts page, opens it, is told which address field is wrong, then saves a shipping address
 * and two access flags; after a reload the page shows what was kept, and so does the database
 * (with the audit's old and new values). axe on the list, the account page and its error state.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { AccountType } from '@platform/domain';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { accountShippingAddress } from '@platform/server';
import { DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible } from '../support/browser';
import { testConfig } from '../support/server';
import { signIn } from './pages';

describe('Accounts: the admin edits an account\'s address and access flags (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ screenshotPrefix: 'admin-accounts' });
  let ctx: AppContext;
  let accountId: number;
  const name = `Seabright Oncology ${randomBytes(3).toString('hex')}`;

  before(async () => {
    ctx = await createContext(testConfig(), 'test');
    const account = await ctx.db.models.Account.create({ name, type: AccountType.General, clinicAccess: true, researchAccess: false, eapPartner: false, international: false, isActive: true });
    accountId = account.id;
  });
  after(async () => {
    if (ctx) await closeContext(ctx);
  });

  it('finds the account, fixes a wrong ZIP code it is told about, saves the address and flags and sees them kept', async () => {
    const { page } = await suite.newPage();
    const errors = collectPageErrors(page);
    await signIn(page, 'admin', DEMO_USERS.admin.email);
    await page.goto('/admin');
    await page.getByRole('link', { name: /^Accounts/ }).click();
    await page.getByRole('heading', { name: 'Accounts', level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Search accounts' }).fill('Seabright');
    const link = page.getByRole('table', { name: 'Accounts' }).getByRole('link', { name });
    await link.waitFor();
    await expectAccessible(page, 'accounts: the list');
    await link.click();

    await page.getByRole('heading', { name, level: 1 }).waitFor();
    await expectAccessible(page, 'account page');
    await page.getByRole('textbox', { name: 'Shipping address line 1' }).fill('200 Pier Road');
    await page.getByRole('textbox', { name: 'Shipping address city' }).fill('Seabright');
    await page.getByRole('textbox', { name: /^Shipping address state or region/ }).fill('NJ');
    const zip = page.getByRole('textbox', { name: /^Shipping address postal code/ });
    await zip.fill('0776');
    await page.getByRole('checkbox', { name: /Research access/ }).check();
    await page.getByRole('checkbox', { name: /EAP partner/ }).check();
    await page.getByRole('button', { name: 'Save account' }).click();
    await page.getByText('Shipping address ZIP code must be 5 digits, or 5+4 digits like 94110-1234').waitFor();
    await expectAccessible(page, 'account page: a wrong ZIP code');
    expect(await accountShippingAddress(ctx.db, accountId), 'nothing saved yet').to.equal(null);

    await zip.fill('07760');
    await page.getByRole('button', { name: 'Save account' }).click();
    await page.getByRole('alert').filter({ hasText: 'Account Updated Successfully' }).first().waitFor();

    await page.reload();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Shipping address line 1' }).inputValue()).to.equal('200 Pier Road');
    expect(await page.getByRole('textbox', { name: /^Shipping address postal code/ }).inputValue()).to.equal('07760');
    expect(await page.getByRole('checkbox', { name: /Research access/ }).isChecked()).to.equal(true);
    expect(await page.getByRole('checkbox', { name: /EAP partner/ }).isChecked()).to.equal(true);
    expect(await page.getByRole('checkbox', { name: /International/ }).isChecked()).to.equal(false);

    expect(await accountShippingAddress(ctx.db, accountId)).to.deep.equal({
      addressLine1: '200 Pier Road', addressLine2: null, city: 'Seabright', state: 'NJ', postalCode: '07760', country: 'US',
    });
    const audit = await ctx.db.models.AuditEvent.findOne({ where: { action: 'account.updated', entityId: String(accountId) } });
    expect(audit!.details).to.deep.include({ before: { eapPartner: false, researchAccess: false, shippingAddress: null } });
    expect(errors).to.deep.equal([]);
  });
});
