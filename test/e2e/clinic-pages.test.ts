/**
 * The Clinical Portal's pages in a real browser (Debian's Chromium): a physician orders for a new
 * patient and downloads the requisition form, sees the order under pending and on the patient's
 * page, ships the kit; the lists and the error modal; the order page on a phone.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { SampleStatus } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { clippedTexts, expectAccessible, browserSuite, collectPageErrors, screenshot, VIEWPORTS } from '../support/browser';
import { buildTestApp, signIn as signInApi, type TestApp } from '../support/http';
import { ALL_ATTESTED, pdfText, uniquePatient } from '../support/fixtures/clinic';
import { signIn as signInPage } from './pages';

describe('clinic pages (browser)', function () {
  this.timeout(120_000);
  // A failed test leaves a picture of the pages it opened (clinic-failed-…).
  const suite = browserSuite({ worker: true, screenshotPrefix: 'clinic' });
  let t: TestApp;
  let riversideId: number;

  before(async () => {
    t = await buildTestApp();
    riversideId = (await t.ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
  });
  after(async () => {
    await t?.close();
  });

  /** How wide the page is laid out (wider than the viewport means sideways scrolling). */
  const pageWidth = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);

  /** Closes the success toasts (checked on their own: they belong to the layout, not to these pages). */
  async function dismissToasts(page: Page): Promise<void> {
    for (const close of await page.locator('.mantine-Notification-root button').all()) await close.click().catch(() => undefined);
    await page.locator('.mantine-Notification-root').first().waitFor({ state: 'detached' }).catch(() => undefined);
  }

  async function physicianPage(viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<{ page: Page; errors: string[] }> {
    const { page } = await suite.newPage({ viewport, bypassCSP: true, isMobile: viewport.width < 500 });
    const errors = collectPageErrors(page);
    await signInPage(page, 'provider', DEMO_USERS.physician.email);
    return { page, errors };
  }

  it('orders for a new patient, downloads the requisition form, finds the order under pending and on the patient page, ships the kit', async () => {
    const { page, errors } = await physicianPage();
    const last = `Brightwater${Date.now().toString(36).replace(/\d/g, '')}`;
    // The physician works in two clinics; this order is for Riverside.
    await page.goto(`/provider-clinic/${riversideId}/order`);
    await page.getByRole('heading', { name: 'Order a test' }).waitFor();
    await page.getByText('Riverside Oncology').first().waitFor();

    // A new patient.
    await page.getByLabel('Find the patient').fill(last);
    await page.getByText(`No patient of this account matches “${last}”.`).waitFor();
    await page.getByRole('button', { name: 'New patient' }).click();
    await page.getByLabel('First name').fill('Imogen');
    await expect(await page.getByLabel('Last name').inputValue()).to.equal(last);
    await page.getByLabel('Date of birth').fill('1959-10-03');
    await page.getByText('Female', { exact: true }).click();
    await page.getByLabel('Phone').fill('555-010-7788');
    await page.getByRole('button', { name: 'Add patient' }).click();
    await page.getByText(`Imogen ${last}`).waitFor();
    await page.getByText('Born 10/03/1959 · Female').waitFor();

    // Test, physician, sample type, attestations.
    await page.getByRole('checkbox', { name: 'PROSTOX ultra' }).check();
    await page.getByRole('textbox', { name: /Find a diagnosis/ }).fill('malignant prostate');
    await page.getByRole('button', { name: 'Add C61 Malignant neoplasm of prostate' }).click();
    await page.getByRole('combobox', { name: 'Ordering physician' }).click();
    await page.getByRole('option', { name: /Paula Grant/ }).click();
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.getByText(/Confirm every attestation/).waitFor();
    await expectAccessible(page, 'the order form refusing unconfirmed attestations');
    await screenshot(page, 'clinic-order-form');
    for (const box of await page.getByRole('checkbox', { name: /medically necessary|Informed consent|claim for reimbursement|documentation supporting/ }).all()) await box.check();
    await expectAccessible(page, 'the order form with its attestations');
    await page.getByRole('button', { name: 'Place order' }).click();

    await page.getByRole('heading', { name: 'Order placed' }).waitFor();
    const barcode = (await page.getByTestId('kit-barcode').innerText()).trim();
    expect(barcode).to.match(/^41\d{12}$/);
    await page.getByText(new RegExp(`Order RF_\\d{9} placed: kit ${barcode}`)).waitFor();
    await screenshot(page, 'clinic-order-placed');

    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: 'Download requisition form' }).click()]);
    expect(download.suggestedFilename()).to.equal(`test-requisition-${barcode}.pdf`);
    const text = pdfText(readFileSync((await download.path())!)).replace(/\s+/g, ' ');
    for (const expected of ['Test Requisition Form', barcode, `Imogen ${last}`, '10/03/1959', 'PROSTOX ultra', 'Paula Grant', 'Riverside Oncology']) {
      expect(text, expected).to.include(expected);
    }

    // Pending lists it; its row leads to the patient page with the timeline.
    await page.getByRole('link', { name: 'Pending', exact: true }).click();
    await page.getByRole('heading', { name: 'Pending tests' }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(barcode) });
    await row.waitFor();
    expect(await row.innerText()).to.include(`${last}, Imogen`);
    await screenshot(page, 'clinic-pending');
    expect(await clippedTexts(page.locator('main')), 'cut-off text on the pending list').to.deep.equal([]);
    await dismissToasts(page);
    await expectAccessible(page, 'clinic-pending');
    await row.getByRole('link', { name: `${last}, Imogen` }).click();
    await page.getByRole('heading', { name: `Imogen ${last}` }).waitFor();
    const sample = page.getByRole('article', { name: `Sample ${barcode}` });
    await sample.getByText(SampleStatus.OrderPlaced).first().waitFor();
    expect(await sample.innerText()).to.include('Paula Grant');
    await screenshot(page, 'clinic-patient');
    await dismissToasts(page);
    await expectAccessible(page, 'clinic-patient');

    // Ship it.
    await page.getByRole('link', { name: 'Shipments', exact: true }).click();
    await page.getByRole('heading', { name: 'Kits to ship' }).waitFor();
    await page.getByRole('checkbox', { name: `Ship kit ${barcode}` }).check();
    await page.getByRole('button', { name: 'Create shipment (1)' }).click();
    await page.getByText(/Shipment SHP-\d{8} created with 1 kit/).waitFor();
    const shipment = page.getByRole('article', { name: /Shipment SHP-/ }).filter({ hasText: barcode });
    await shipment.waitFor();
    expect(await shipment.innerText()).to.include('Ready to Ship');
    // The page refreshes its two lists each on its own: the shipment can show before the kit has
    // left the list of kits to ship. Wait until it has (this fails if it never does), then count.
    await page.getByRole('checkbox', { name: `Ship kit ${barcode}` }).waitFor({ state: 'detached' });
    expect(await page.getByRole('checkbox', { name: `Ship kit ${barcode}` }).count()).to.equal(0);
    await screenshot(page, 'clinic-shipments');
    expect(await clippedTexts(page.locator('main')), 'cut-off text on the shipments page').to.deep.equal([]);
    await dismissToasts(page);
    await expectAccessible(page, 'clinic-shipments');
    expect(errors).to.deep.equal([]);
  });

  it('puts no patient name or date of birth in any URL it requests while ordering for a new patient', async () => {
    const { page, errors } = await physicianPage();
    const first = 'Ottilie';
    const last = `Marchbank${Date.now().toString(36).replace(/\d/g, '')}`;
    const dob = '1947-02-21';
    const urls: string[] = [];
    const posts: { url: string; body: string }[] = [];
    page.on('request', (r) => {
      urls.push(r.url());
      if (r.method() === 'POST') posts.push({ url: r.url(), body: r.postData() ?? '' });
    });

    await page.goto(`/provider-clinic/${riversideId}/order`);
    await page.getByRole('heading', { name: 'Order a test' }).waitFor();
    // Search by name, then by date of birth (both ways people type it): no match.
    await page.getByLabel('Find the patient').fill(last);
    await page.getByText(`No patient of this account matches “${last}”.`).waitFor();
    const searchedByDob = page.waitForResponse((r) => r.url().endsWith('/patient/search') && (r.request().postData() ?? '').includes('02/21/1947'));
    await page.getByLabel('Find the patient').fill('02/21/1947');
    expect((await searchedByDob).status()).to.equal(200);
    await page.getByLabel('Find the patient').fill(last);
    await page.getByText(`No patient of this account matches “${last}”.`).waitFor();
    // The new patient: the exists-check runs as the details are typed.
    await page.getByRole('button', { name: 'New patient' }).click();
    const checked = page.waitForResponse((r) => r.url().endsWith('/patient/exists') && (r.request().postData() ?? '').includes(dob));
    await page.getByLabel('First name').fill(first);
    await page.getByLabel('Date of birth').fill(dob);
    await page.getByText('Male', { exact: true }).click();
    expect((await checked).status()).to.equal(200);
    await page.getByRole('button', { name: 'Add patient' }).click();
    await page.getByText(`${first} ${last}`).waitFor();
    // The order.
    await page.getByRole('checkbox', { name: 'PROSTOX ultra' }).check();
    await page.getByRole('textbox', { name: /Find a diagnosis/ }).fill('malignant prostate');
    await page.getByRole('button', { name: 'Add C61 Malignant neoplasm of prostate' }).click();
    await page.getByRole('combobox', { name: 'Ordering physician' }).click();
    await page.getByRole('option', { name: /Paula Grant/ }).click();
    for (const box of await page.getByRole('checkbox', { name: /medically necessary|Informed consent|claim for reimbursement|documentation supporting/ }).all()) await box.check();
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.getByRole('heading', { name: 'Order placed' }).waitFor();
    await page.getByRole('link', { name: 'Open the patient' }).click();
    await page.getByRole('heading', { name: `${first} ${last}` }).waitFor();

    // The terms did travel, in POST bodies.
    const postedTo = (path: string) => posts.filter((p) => new URL(p.url).pathname.endsWith(path)).map((p) => p.body);
    expect(postedTo('/patient/search').some((b) => b.includes(last)), 'a search by last name').to.equal(true);
    expect(postedTo('/patient/search').some((b) => b.includes('02/21/1947')), 'a search by date of birth').to.equal(true);
    expect(postedTo('/patient/exists').some((b) => b.includes(last) && b.includes(dob)), 'an exists-check').to.equal(true);
    expect(postedTo('/patient').some((b) => b.includes(last)), 'the new patient').to.equal(true);
    // And no URL carries them, plain or encoded, in any spelling of the date.
    const forbidden = [first, last, dob, '02/21/1947', '1947-02', '02-21-1947', '19470221'].map((x) => x.toLowerCase());
    expect(urls.length).to.be.greaterThan(10);
    for (const url of urls) {
      let plain = url;
      try {
        plain = decodeURIComponent(url.replace(/\+/g, ' '));
      } catch {
        // Not valid percent-encoding: checked as it is.
      }
      plain = `${url} ${plain}`.toLowerCase();
      for (const x of forbidden) expect(plain, `${url} carries ${x}`).to.not.include(x);
    }
    expect(errors).to.deep.equal([]);
  });

  it('shows the completed list and the spec’s error message when a list cannot be read', async () => {
    const { page } = await physicianPage();
    await page.goto(`/provider-clinic/${riversideId}/completed`);
    await page.getByRole('heading', { name: 'Completed tests' }).waitFor();
    // Other files add completed samples to this demo account: wait for the list, whatever its first rows are.
    await page.getByRole('table').getByRole('row').nth(1).or(page.getByText('No completed tests yet.')).first().waitFor();
    await screenshot(page, 'clinic-completed');
    await dismissToasts(page);
    await expectAccessible(page, 'clinic-completed');
    await page.route('**/api/provider-clinic/*/tests?*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"x"}}' }));
    await page.goto(`/provider-clinic/${riversideId}/pending`);
    const modal = page.getByRole('dialog', { name: 'Error retrieving pending tests' });
    await modal.waitFor();
    expect(await modal.innerText()).to.include('Request failed with status code 500');
  });

  it('says so when the patient check or the requisition download fails', async () => {
    const { page } = await physicianPage();
    await page.goto(`/provider-clinic/${riversideId}/order`);
    await page.getByRole('heading', { name: 'Order a test' }).waitFor();
    await page.route('**/api/provider-clinic/*/patient/exists', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"down","message":"x"}}' }));
    await page.getByRole('button', { name: 'New patient' }).click();
    await page.getByLabel('First name').fill('Nora');
    await page.getByLabel('Last name').fill('Quist');
    await page.getByLabel('Date of birth').fill('1970-07-07');
    const check = page.getByRole('dialog', { name: 'Error checking if patient exists' });
    await check.waitFor();
    expect(await check.innerText()).to.include('Request failed with status code 503');
    await check.getByRole('button').first().click();

    // A patient and order of this test's own.
    const api = await signInApi(t.app, 'physician', 'provider', '10.71.0.1');
    const patient = await api.post(`/api/provider-clinic/${riversideId}/patient`, uniquePatient()).expect(201);
    const doctors = await api.agent.get(`/api/provider-clinic/${riversideId}/physicians`).expect(200);
    const order = await api
      .post(`/api/provider-clinic/${riversideId}/order`, { patientId: patient.body.id, tests: ['KRAS'], physicianId: doctors.body[0].id, sampleType: 'Saliva', attestations: ALL_ATTESTED, diagnosisCodes: ['C61'] })
      .expect(201);
    await page.goto(`/provider-clinic/${riversideId}/patient/${patient.body.id}`);
    const sample = page.getByRole('article', { name: `Sample ${order.body.sample.barcode}` });
    await sample.waitFor();
    await page.route('**/api/sample/*/pdf_order', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":{"code":"internal","message":"x"}}' }));
    await sample.getByRole('button', { name: 'Download requisition form' }).click();
    const failed = page.getByRole('dialog', { name: 'Error downloading PDF' });
    await failed.waitFor();
    expect(await failed.innerText()).to.include('Request failed with status code 500');
  });

  it('works on a phone: the order page and the pending list as cards', async () => {
    const { page, errors } = await physicianPage(VIEWPORTS.phone);
    await page.goto(`/provider-clinic/${riversideId}/order`);
    await page.getByRole('heading', { name: 'Order a test' }).waitFor();
    await page.getByLabel('Find the patient').fill('Carter');
    await page.getByRole('listitem', { name: /Choose John Carter/ }).waitFor();
    const width = await pageWidth(page);
    expect(width).to.be.at.most(VIEWPORTS.phone.width);
    await screenshot(page, 'clinic-order-phone');
    await page.goto(`/provider-clinic/${riversideId}/pending`);
    await page.getByRole('article', { name: /Sample 41/ }).first().waitFor();
    expect(await pageWidth(page)).to.be.at.most(VIEWPORTS.phone.width);
    await screenshot(page, 'clinic-pending-phone');
    // Every status badge says its status whole ("Pending Shipment", never "Pending Shipm…").
    expect(await clippedTexts(page.locator('main')), 'cut-off text on the pending list, phone').to.deep.equal([]);
    expect(errors).to.deep.equal([]);
  });
});
