/**
 * The whole path of a sample, in a real browser against the real API, worker, database and SMTP
 * catcher: a physician orders for a new patient and downloads the requisition form; ships the kit;
 * the shipping service's signed webhook marks it In Transit; lab user A receives it, imports its
 * result and cannot approve it; lab user B approves; the physician finds it under completed and
 * downloads the report; the patient opens the emailed link, fails the date of birth once, passes,
 * and reads the result. The PDFs' text is checked with pdftotext.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { JobStatus, SampleStatus, TestResultStatus } from '@platform/domain';
import { signShippingPayload } from '@platform/server';
import { DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, screenshot, VIEWPORTS } from '../support/browser';
import { outboxJobSettled } from '../support/jobs';
import { buildTestApp, type TestApp } from '../support/http';
import { waitForMail } from '../support/mail';
import { pdfText } from '../support/pdf';
import { signIn, signWithPassword } from './pages';
import { freshPlateName } from '../support/fixtures/storage';

describe('e2e: one sample from order to the patient reading the result', function () {
  this.timeout(240_000);
  // A failed test leaves a picture of each page it opened (lifecycle-failed-…).
  const suite = browserSuite({ worker: true, screenshotPrefix: 'lifecycle' });
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  async function pageFor(viewport: { width: number; height: number } = VIEWPORTS.desktop, isMobile = false) {
    const { page } = await suite.newPage({ viewport, bypassCSP: true, isMobile });
    return { page, errors: collectPageErrors(page) };
  }

  const sampleStatus = async (barcode: string) => (await t.ctx.db.models.Sample.findOne({ where: { barcode } }))!.status;

  it('walks the whole lifecycle', async () => {
    const riverside = (await t.ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!;
    const last = `Lifecycle${Date.now().toString(36).replace(/\d/g, '')}`;
    const patientEmail = `${last.toLowerCase()}@patients.demo.test`;

    // 1. The physician orders for a new patient and downloads the requisition form.
    const physician = await pageFor();
    let page = physician.page;
    await signIn(page, 'provider', DEMO_USERS.physician.email);
    await page.goto(`/provider-clinic/${riverside.id}/order`);
    await page.getByRole('heading', { name: 'Order a test' }).waitFor();
    await page.getByLabel('Find the patient').fill(last);
    await page.getByRole('button', { name: 'New patient' }).click();
    await page.getByLabel('First name').fill('Harold');
    await page.getByLabel('Date of birth').fill('1952-06-17');
    await page.getByText('Male', { exact: true }).click();
    await page.getByLabel('Email').fill(patientEmail);
    await page.getByRole('button', { name: 'Add patient' }).click();
    await page.getByText(`Harold ${last}`).waitFor();
    await page.getByRole('checkbox', { name: 'PROSTOX CFRT' }).check();
    await page.getByRole('textbox', { name: /Find a diagnosis/ }).fill('malignant prostate');
    await page.getByRole('button', { name: 'Add C61 Malignant neoplasm of prostate' }).click();
    await page.getByRole('combobox', { name: 'Ordering physician' }).click();
    await page.getByRole('option', { name: /Paula Grant/ }).click();
    for (const box of await page.getByRole('checkbox', { name: /medically necessary|Informed consent|claim for reimbursement|documentation supporting/ }).all()) await box.check();
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.getByRole('heading', { name: 'Order placed' }).waitFor();
    const barcode = (await page.getByTestId('kit-barcode').innerText()).trim();
    expect(barcode).to.match(/^41\d{12}$/);
    const [requisition] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: 'Download requisition form' }).click()]);
    const requisitionText = pdfText(readFileSync((await requisition.path())!));
    for (const expected of ['Test Requisition Form', barcode, `Harold ${last}`, '06/17/1952', 'PROSTOX CFRT', 'Paula Grant']) expect(requisitionText, expected).to.include(expected);
    expect(await sampleStatus(barcode)).to.equal(SampleStatus.OrderPlaced);

    // 2. A shipment is created; the shipping service's signed webhook marks it In Transit.
    await page.getByTestId('sidebar').getByRole('link', { name: 'Shipments' }).click();
    await page.getByRole('checkbox', { name: `Ship kit ${barcode}` }).check();
    await page.getByRole('button', { name: 'Create shipment (1)' }).click();
    const created = await page.getByText(/Shipment SHP-\d{8} created with 1 kit/).innerText();
    const externalOrderId = /SHP-\d{8}/.exec(created)![0];
    expect(await sampleStatus(barcode)).to.equal(SampleStatus.PendingShipment);
    const event = JSON.stringify({ id: `evt-${externalOrderId}`, type: 'order.shipped', data: { externalOrderId, carrier: 'UPS', trackingNumber: '1Z999AA10123456784' } });
    const shipped = await fetch(`${suite.baseUrl}/api/webhooks/shipping-service/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shipping-signature': signShippingPayload(t.ctx.config.shippingWebhookSecret, event) },
      body: event,
    });
    expect(shipped.status).to.equal(200);
    expect(await sampleStatus(barcode)).to.equal(SampleStatus.InTransit);

    // 3. Lab user A receives the kit, imports its result, and cannot approve it.
    const labA = await pageFor();
    page = labA.page;
    await signIn(page, 'lab', DEMO_USERS.lab1.email);
    await page.goto('/lab_toolbox/intake_tool');
    const scan = page.getByRole('textbox', { name: 'Scan a kit to receive it' });
    await scan.fill(barcode);
    await scan.press('Enter');
    // The kit's check: acceptable, collected a minute ago (the browser's local time, as on the tube), the requisition's name and date of birth confirmed.
    const check = page.getByRole('region', { name: `Check kit ${barcode}` });
    await check.getByRole('radio', { name: 'Acceptable' }).check();
    // A string to evaluate: a function here would carry tsx's helpers the page does not have.
    const collected = await page.evaluate<string>(
      "(() => { const d = new Date(Date.now() - 60000); const p = (n) => String(n).padStart(2, '0'); return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`; })()",
    );
    await check.getByLabel(/^Collected at/).fill(collected);
    await check.getByRole('checkbox', { name: 'The name and date of birth on the tube match the requisition' }).check();
    await check.getByRole('button', { name: 'Receive' }).click();
    await page.getByRole('table', { name: 'Scan log' }).getByText(`Received ${barcode} (PROSTOX CFRT): now In Queue`).waitFor();
    expect(await sampleStatus(barcode)).to.equal(SampleStatus.InQueue);

    await page.goto('/lab_toolbox/cfrt_toxicity_import_tool');
    await page.locator('input[type=file]').setInputFiles({ name: 'plate-7.csv', mimeType: 'text/csv', buffer: Buffer.from(`barcode,risk_level\n${barcode},High Risk\n`) });
    await page.getByRole('button', { name: 'Check the file' }).click();
    await page.getByText('Every row can be imported').waitFor();
    await page.getByRole('button', { name: 'Commit 1 row' }).click();
    await page.getByText(/1 result written and waiting for review/).waitFor();
    expect(await sampleStatus(barcode)).to.equal(SampleStatus.InTesting);
    await page.getByRole('link', { name: 'Review this import' }).click();
    await page.getByRole('table', { name: 'Results in review' }).getByText(barcode).waitFor();
    const reviewUrl = page.url(); // what lab user A hands to the colleague who approves
    expect(reviewUrl).to.match(/\/lab_toolbox\/review\?/);
    await page.getByRole('checkbox', { name: `Choose ${barcode} PROSTOX CFRT` }).check();
    expect(await page.getByRole('button', { name: /^Approve/ }).isDisabled()).to.equal(true);
    await page.getByText('1 of the chosen cannot be approved by you').waitFor();

    // 4. Lab user B approves it.
    const labB = await pageFor();
    page = labB.page;
    await signIn(page, 'lab', DEMO_USERS.lab2.email);
    await page.goto(reviewUrl);
    await page.getByRole('checkbox', { name: `Choose ${barcode} PROSTOX CFRT` }).check();
    await page.getByRole('button', { name: 'Approve 1' }).click();
    await signWithPassword(page, 1);
    await page.getByText('1 result released').first().waitFor();
    // The approval queued the lab report and the notifications: wait until both jobs are over.
    const released = await t.ctx.db.models.TestResult.findOne({
      where: { status: TestResultStatus.Released },
      include: [{ model: t.ctx.db.models.Test, as: 'test', required: true, include: [{ model: t.ctx.db.models.Sample, as: 'sample', required: true, where: { barcode } }] }],
    });
    const jobs = await Promise.all([`lab-report:${released!.id}`, `notify-result:${released!.id}`].map((key) => outboxJobSettled(t.ctx, key, { timeoutMs: 60_000 })));
    expect(jobs.map((j) => [j.name, j.status])).to.deep.equal([['render-pdf', JobStatus.Completed], ['notify-result', JobStatus.Completed]]);
    expect(await sampleStatus(barcode)).to.equal(SampleStatus.Completed);

    // 5. The physician finds it under completed and downloads the report.
    page = physician.page;
    await page.goto(`/provider-clinic/${riverside.id}/completed`);
    await page.getByRole('heading', { name: 'Completed tests' }).waitFor();
    await page.getByRole('row', { name: new RegExp(barcode) }).waitFor();
    const [report] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByRole('button', { name: `Download report of ${barcode}` }).click()]);
    const reportText = pdfText(readFileSync((await report.path())!));
    for (const expected of [`Harold ${last}`, barcode, 'PROSTOX CFRT', 'High Risk', 'Lena Pipette']) expect(reportText, expected).to.include(expected);
    const downloads = await t.ctx.db.models.AuditEvent.count({ where: { action: 'report.downloaded', entityKind: 'sample' } });
    expect(downloads).to.be.greaterThan(0);

    // 6. The patient opens the emailed link on a phone, fails the date of birth once, passes, reads the result.
    const [mail] = await waitForMail(patientEmail);
    expect(mail.text).to.not.include('High Risk');
    const link = new URL(/https?:\/\/\S+\/reports\/patient_result\/\S+/.exec(mail.text)![0]);
    const patient = await pageFor(VIEWPORTS.phone, true);
    page = patient.page;
    await page.goto(link.pathname + link.search);
    await page.getByRole('heading', { name: `Hello Harold ${last[0]}.` }).waitFor();
    const answer = async (month: string, day: string, year: string) => {
      await page.getByRole('textbox', { name: 'Month' }).fill(month);
      await page.getByRole('textbox', { name: 'Day' }).fill(day);
      await page.getByRole('textbox', { name: 'Year' }).fill(year);
      await page.getByRole('button', { name: 'Show my result' }).click();
    };
    await answer('06', '18', '1952');
    await page.getByRole('alert').filter({ hasText: 'The date of birth does not match our records' }).waitFor();
    await answer('06', '17', '1952');
    await page.getByRole('heading', { name: 'Your result' }).waitFor();
    expect(await page.getByTestId('result-value').textContent()).to.equal('High Risk');
    await screenshot(page, 'lifecycle-patient-result');

    // 7. The lab stores the sample. The clinic still reads it as the lab's work left it (Completed), and its report stays there (issue 25, item 2).
    page = labA.page;
    await page.goto('/lab_toolbox/storage_plate_import_tool');
    await page.getByRole('heading', { name: 'Storage plates' }).waitFor();
    const plate = freshPlateName();
    await page.getByRole('textbox', { name: 'New plate' }).fill(plate);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Plate ${plate}` }).waitFor();
    await page.getByRole('textbox', { name: `Scan a sample id into ${plate}` }).fill(barcode);
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Scan log' }).getByText(`${barcode} is In Storage in ${plate} A1`).waitFor();
    expect(await sampleStatus(barcode)).to.equal(SampleStatus.InStorage);

    page = physician.page;
    await page.goto(`/provider-clinic/${riverside.id}/completed`);
    const completedRow = page.getByRole('row', { name: new RegExp(barcode) });
    await completedRow.getByText('Completed', { exact: true }).waitFor();
    expect(await completedRow.getByText('In Storage').count()).to.equal(0);
    await completedRow.getByRole('button', { name: `Download report of ${barcode}` }).waitFor();
    const stored = (await t.ctx.db.models.Sample.findOne({ where: { barcode } }))!;
    await page.goto(`/provider-clinic/${riverside.id}/patient/${stored.patientId}`);
    const card = page.getByRole('article', { name: `Sample ${barcode}` });
    await card.getByRole('button', { name: /^Download report/ }).waitFor();
    expect(await card.locator('.mantine-Badge-root').first().innerText(), "the sample's status badge").to.equal('Completed');
    const [again] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), card.getByRole('button', { name: /^Download report/ }).click()]);
    expect(pdfText(readFileSync((await again.path())!))).to.include('High Risk');
    await screenshot(page, 'lifecycle-stored-sample-patient-page');

    for (const p of [physician, labA, labB, patient]) expect(p.errors).to.deep.equal([]);
  });
});
