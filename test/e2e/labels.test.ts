/**
 * Barcode labels in a real browser (Debian's Chromium) on the real API (issue 30's "Must show"):
 * three kits scanned at intake, each checked (issue 30 item 2): one recorded as leaked and
 * rejected with the reason its condition calls for, the others received with their condition,
 * collection time and name and date of birth confirmed against the requisition; the session's
 * labels printed; the label PDF the browser saves is rendered with pdftoppm and read with zbarimg:
 * its barcodes are the three kits. Then one scan's own label, on the same part-used sheet.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { CONDITION_RULES } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { signIn } from './pages';
import { expectAccessible, browserSuite, collectPageErrors, screenshot } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { makeSample, SampleStatus, statusOf, TestName } from '../support/fixtures/lab';
import { pdfBarcodes, pdfText, pdfWords } from '../support/pdf';

describe('lab toolbox: barcode labels at intake (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ screenshotPrefix: 'labels' });
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  it("scans three kits, rejects one, prints the session's labels: the PDF's barcodes scan as the three kits", async () => {
    const kits = [
      await makeSample(t.ctx.db, { status: SampleStatus.InTransit, tests: [TestName.ProstoxUltra] }),
      await makeSample(t.ctx.db, { status: SampleStatus.InTransit, tests: [TestName.Kras] }),
      await makeSample(t.ctx.db, { status: SampleStatus.InTransit, tests: [TestName.Previotox] }),
    ];
    const [first, second, leaked] = kits;
    const reason = CONDITION_RULES.leaked.rejectionReason!;
    const { page } = await suite.newPage({ bypassCSP: true });
    const errors = collectPageErrors(page);
    await page.addInitScript(() => globalThis.localStorage.removeItem('labelPrinter'));
    await signIn(page, 'lab', DEMO_USERS.lab1.email);
    await page.goto('/lab_toolbox/intake_tool');
    await page.getByRole('heading', { name: 'Sample intake', level: 1 }).waitFor();
    const printSession = page.getByRole('button', { name: /^Print this session's labels/ });
    expect(await printSession.isDisabled(), 'nothing to print before a scan').to.equal(true);

    const log = page.getByRole('table', { name: 'Scan log' });
    // Collected yesterday, as written on the tube (the orders gave no time): the datetime-local input's local value.
    const pad = (n: number) => String(n).padStart(2, '0');
    const yesterday = new Date(Date.now() - 24 * 3_600_000);
    const collectedInput = `${yesterday.getFullYear()}-${pad(yesterday.getMonth() + 1)}-${pad(yesterday.getDate())}T${pad(yesterday.getHours())}:${pad(yesterday.getMinutes())}`;
    for (const kit of kits) {
      await page.getByRole('textbox', { name: 'Scan a kit to receive it' }).fill(kit.barcode);
      await page.keyboard.press('Enter');
      const check = page.getByRole('region', { name: `Check kit ${kit.barcode}` });
      await check.waitFor();
      await check.getByText('Testy Labson', { exact: false }).first().waitFor();
      if (kit === leaked) {
        // Leaked: Receive goes off, the rejection its condition calls for is offered.
        await check.getByRole('radio', { name: 'Leaked' }).check();
        expect(await check.getByRole('button', { name: 'Receive' }).isDisabled()).to.equal(true);
        expect(await check.getByRole('combobox', { name: 'Rejection reason' }).inputValue()).to.equal(reason);
        await check.getByRole('button', { name: 'Reject' }).click();
        await log.getByText(`Rejected ${leaked.barcode}: ${reason}`).waitFor();
        continue;
      }
      if (kit === first) {
        // Receive with nothing answered: each field says what it needs (checked with axe).
        await check.getByRole('button', { name: 'Receive' }).click();
        await check.getByText('Choose the specimen’s condition').waitFor();
        await check.getByText('Type the collection date and time written on the tube').waitFor();
        await expectAccessible(page, 'intake check with its errors shown');
        await screenshot(page, 'labels-intake-check-errors');
      }
      await check.getByRole('radio', { name: 'Acceptable' }).check();
      await check.getByLabel(/^Collected at/).fill(collectedInput);
      await check.getByRole('checkbox', { name: 'The name and date of birth on the tube match the requisition' }).check();
      await check.getByRole('button', { name: 'Receive' }).click();
      await log.getByText(new RegExp(`^Received ${kit.barcode}`)).waitFor();
    }
    expect(await statusOf(t.ctx.db, leaked.id)).to.equal(SampleStatus.Rejected);
    const m = t.ctx.db.models;
    expect((await m.Sample.findByPk(leaked.id))!.condition).to.equal('leaked');
    // The typed local time, read in the browser's own time zone.
    const collectedAt = await page.evaluate((value) => new Date(value).getTime(), collectedInput);
    for (const kit of [first, second]) {
      const sample = (await m.Sample.findByPk(kit.id))!;
      expect([sample.status, sample.condition, sample.collectedAt?.getTime()]).to.deep.equal(['In Queue', 'acceptable', collectedAt]);
      expect(sample.identityConfirmedByUserId).to.be.a('number');
    }

    // Each scanned row prints its own label; the session prints all three.
    for (const kit of kits) await log.getByRole('button', { name: `Print label for ${kit.barcode}` }).waitFor();
    await printSession.filter({ hasText: "Print this session's labels (3)" }).waitFor();
    await expectAccessible(page, 'intake with its print actions');
    await screenshot(page, 'labels-intake');

    // The sheet (the default paper), from its first label.
    expect(await page.getByRole('textbox', { name: 'First free label on the sheet' }).inputValue()).to.equal('1');
    const [session] = await Promise.all([page.waitForEvent('download'), printSession.click()]);
    expect(session.suggestedFilename()).to.equal('labels-3-samples.pdf');
    const pdf = readFileSync((await session.path())!);
    expect(pdfBarcodes(pdf).map((p) => [...p].sort())).to.deep.equal([kits.map((k) => `CODE-128:${k.barcode}`).sort()]);
    const text = pdfText(pdf);
    expect(text).to.contain('PROSTOX ultra').and.contain('KRAS').and.contain('DOB 02/03/1960').and.contain('PREVIOTOX');
    // In scan order on the sheet: the first kit top left, the rejected one (a kit label: not received) third.
    const words = pdfWords(pdf);
    const at = (barcode: string) => words.find((w) => w.text === barcode)!;
    expect(at(first.barcode).x).to.be.below(at(second.barcode).x);
    expect(at(second.barcode).x).to.be.below(at(leaked.barcode).x);

    // The sheet's next free label is now the fourth: one row's label prints there (the second row, left).
    const start = page.getByRole('textbox', { name: 'First free label on the sheet' });
    await start.and(page.locator('[value="4"]')).waitFor();
    const [one] = await Promise.all([page.waitForEvent('download'), log.getByRole('button', { name: `Print label for ${second.barcode}` }).click()]);
    expect(one.suggestedFilename()).to.equal(`labels-${second.barcode}.pdf`);
    const single = readFileSync((await one.path())!);
    expect(pdfBarcodes(single)).to.deep.equal([[`CODE-128:${second.barcode}`]]);
    const placed = pdfWords(single).find((w) => w.text === second.barcode)!;
    expect(placed.y).to.be.within(1.5 * 72, 2.5 * 72);
    expect(placed.x).to.be.below(2.8125 * 72);
    expect(errors).to.deep.equal([]);
  });
});
