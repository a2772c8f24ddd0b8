/**
 * Complete clinical orders in a real browser (docs/clinical-orders.md): a physician orders PROSTOX
 * ultra with an ICD-10-CM code found by words, and the requisition PDF prints it; on the patient
 * page the diagnosis shows, the patient's name is corrected (the old value kept in the history),
 * and the order is cancelled before the lab received the sample.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible, screenshot, VIEWPORTS } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { pdfText } from '../support/fixtures/clinic';
import { signIn as signInPage } from './pages';

describe('clinical orders (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'clinical-orders' });
  let t: TestApp;
  let riversideId: number;

  before(async () => {
    t = await buildTestApp();
    riversideId = (await t.ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
  });
  after(async () => {
    await t?.close();
  });

  it('orders with an ICD-10-CM code found by words, prints it on the requisition, corrects the patient and cancels the order', async () => {
    const { page } = await suite.newPage({ viewport: VIEWPORTS.desktop, bypassCSP: true });
    const errors = collectPageErrors(page);
    await signInPage(page, 'provider', DEMO_USERS.physician.email);
    const last = `Marlowe${Date.now().toString(36).replace(/\d/g, '')}`;

    await page.goto(`/provider-clinic/${riversideId}/order`);
    await page.getByRole('heading', { name: 'Order a test' }).waitFor();
    await page.getByLabel('Find the patient').fill(last);
    await page.getByRole('button', { name: 'New patient' }).click();
    await page.getByLabel('First name').fill('Dorian');
    await page.getByLabel('Date of birth').fill('1951-03-09');
    await page.getByText('Male', { exact: true }).click();
    await page.getByRole('button', { name: 'Add patient' }).click();
    await page.getByText(`Dorian ${last}`).waitFor();

    // A billed test without a diagnosis is refused on the picker.
    await page.getByRole('checkbox', { name: 'PROSTOX ultra' }).check();
    await page.getByRole('combobox', { name: 'Ordering physician' }).click();
    await page.getByRole('option', { name: /Paula Grant/ }).click();
    for (const box of await page.getByRole('checkbox', { name: /medically necessary|Informed consent|claim for reimbursement|documentation supporting/ }).all()) await box.check();
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.getByText(/Add at least one ICD-10-CM diagnosis code/).waitFor();
    await expectAccessible(page, 'the order form asking for a diagnosis');

    // Found by words: the code and CMS's description.
    await page.getByRole('textbox', { name: /Find a diagnosis/ }).fill('malignant prostate');
    const match = page.getByRole('button', { name: 'Add C61 Malignant neoplasm of prostate' });
    await match.waitFor();
    await expectAccessible(page, 'the diagnosis search with its matches');
    await match.click();
    await page.getByRole('list', { name: 'Diagnosis codes of this order' }).getByText('Malignant neoplasm of prostate').waitFor();
    await screenshot(page, 'clinical-orders-diagnosis');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.getByRole('heading', { name: 'Order placed' }).waitFor();
    const barcode = (await page.getByTestId('kit-barcode').innerText()).trim();

    // The requisition PDF prints the code and its description.
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: 'Download requisition form' }).click()]);
    const text = pdfText(readFileSync((await download.path())!)).replace(/\s+/g, ' ');
    expect(text).to.include(barcode);
    expect(text).to.include('Diagnosis (ICD-10-CM) C61 Malignant neoplasm of prostate');

    // The patient page: the diagnosis on the sample.
    await page.getByRole('link', { name: 'Open the patient' }).click();
    await page.getByRole('heading', { name: `Dorian ${last}` }).waitFor();
    const sample = page.getByRole('article', { name: `Sample ${barcode}` });
    await sample.getByRole('group', { name: `Diagnosis codes of sample ${barcode}` }).getByText('Malignant neoplasm of prostate').waitFor();

    // Correcting the first name: the history keeps the old one.
    await page.getByRole('button', { name: 'Correct details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Correct the patient’s details' });
    await dialog.getByLabel('First name').fill('Dorien');
    await dialog.getByLabel('Reason for the correction').fill('Spelling on the patient’s ID');
    await expectAccessible(page, 'the correction form');
    await dialog.getByRole('button', { name: 'Save the correction' }).click();
    await page.getByRole('heading', { name: `Dorien ${last}` }).waitFor();
    const history = page.getByRole('region', { name: 'Corrections history' });
    await history.getByText(/Spelling on the patient’s ID/).waitFor();
    await history.getByText('Dorian', { exact: true }).waitFor();

    // Cancelling the order before the lab received the sample.
    await sample.getByRole('button', { name: /^Cancel order RF_/ }).click();
    const cancel = page.getByRole('dialog', { name: /^Cancel order RF_/ });
    await cancel.getByLabel('Reason').fill('Treatment plan changed');
    await expectAccessible(page, 'the cancel dialog');
    await cancel.getByRole('button', { name: 'Cancel the order' }).click();
    await sample.getByText(/Order cancelled on .*: Treatment plan changed/).waitFor();
    await sample.getByText('Discarded').first().waitFor();
    expect(await sample.getByRole('button', { name: /^Cancel order RF_/ }).count()).to.equal(0);
    await expectAccessible(page, 'the patient page after the correction and the cancel');
    expect(errors).to.deep.equal([]);
  });
});
