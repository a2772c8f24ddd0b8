/**
 * The storage plate page in a real browser (Debian's Chromium) on the real API: a new plate,
 * samples scanned onto it from the keyboard alone, the plate map, a Completed sample discarded
 * from its well, and where a sample is.
 */
import { expect } from 'chai';
import { DEMO_USERS } from '../../scripts/demo-users';
import { signIn } from './pages';
import { clippedTexts, expectAccessible, browserSuite, collectPageErrors, screenshot, VIEWPORTS } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { makeSample, SampleStatus, statusOf, timeline } from '../support/fixtures/lab';
import { freshPlateName, makeCompletedSample } from '../support/fixtures/storage';

describe('lab toolbox: storage plates (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ screenshotPrefix: 'lab-storage' });
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  it('a new plate, three scans without the mouse, the map by status, a Completed sample discarded, a sample found', async () => {
    const queued = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
    const testing = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
    const completed = await makeCompletedSample(t.ctx.db);
    const name = freshPlateName();
    const { page } = await suite.newPage({ bypassCSP: true });
    const errors = collectPageErrors(page);
    await signIn(page, 'lab', DEMO_USERS.lab1.email);
    await page.goto('/lab_toolbox/storage_plate_import_tool');
    await page.getByRole('heading', { name: 'Storage plates' }).waitFor();

    await page.getByRole('textbox', { name: 'New plate' }).fill(name);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Plate ${name}` }).waitFor();
    const box = page.getByRole('textbox', { name: `Scan a sample id into ${name}` });
    await page.waitForFunction(() => (globalThis as unknown as { document: { activeElement: { getAttribute(n: string): string | null } | null } }).document.activeElement?.getAttribute('placeholder') === 'Sample id, then Enter');
    for (const id of [queued.barcode, testing.barcode, completed.barcode, `${queued.barcode} `]) {
      await page.keyboard.type(id);
      await page.keyboard.press('Enter');
    }
    const log = page.getByRole('table', { name: 'Scan log' });
    await log.getByText(`${completed.barcode} is In Storage in ${name} C1`).waitFor();
    await log.getByText('Sample id must not start or end with a space').waitFor();
    expect(await box.evaluate((el) => (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === el)).to.equal(true);
    expect(await statusOf(t.ctx.db, queued.id)).to.equal('In Storage');
    expect(await statusOf(t.ctx.db, testing.id)).to.equal('In Storage');

    const map = page.getByRole('table', { name: `Plate ${name}` });
    await map.getByRole('button', { name: `Well B1: ${testing.barcode}, In Storage (In Testing when taken out)` }).waitFor();
    await map.getByRole('button', { name: `Well C1: ${completed.barcode}, In Storage (Completed when taken out)` }).hover();
    await page.getByRole('tooltip').getByText(`C1: ${completed.barcode} · In Storage (Completed when taken out)`).waitFor();
    await expectAccessible(page, 'a storage plate with its tooltip open');
    await screenshot(page, 'lab-storage-map');
    // On a laptop the plate's name reads whole on one line in the list (never "PLT-" over a second line), and nothing is cut off.
    await page.setViewportSize(VIEWPORTS.laptop);
    const listed = page.getByRole('table', { name: 'Storage plates' }).getByRole('button', { name });
    expect(await listed.evaluate((el) => {
      const range = (el as unknown as { ownerDocument: { createRange(): { selectNodeContents(n: unknown): void; getClientRects(): ArrayLike<unknown> } } }).ownerDocument.createRange();
      range.selectNodeContents(el);
      return range.getClientRects().length;
    }), 'lines the plate name takes').to.equal(1);
    expect(await clippedTexts(page.locator('main')), 'cut-off text on the storage page at 1366 px').to.deep.equal([]);

    await map.getByRole('button', { name: `Well C1: ${completed.barcode}, In Storage (Completed when taken out)` }).click();
    const detail = page.getByRole('region', { name: 'Well C1' });
    await detail.getByRole('button', { name: 'Discard…' }).click();
    await detail.getByRole('button', { name: 'Discard', exact: true }).click();
    await page.getByText(`${completed.barcode} discarded (taken out of ${name} C1)`).waitFor();
    await map.getByRole('button', { name: 'Well C1, empty' }).waitFor();
    expect((await timeline(t.ctx.db, completed.id)).slice(-4)).to.deep.equal(['Completed', 'In Storage', 'Completed', 'Discarded']);

    await page.getByRole('textbox', { name: 'Find a sample' }).fill(testing.barcode);
    await page.keyboard.press('Enter');
    await page.getByText(`plate ${name}, well B1`).waitFor();
    expect(errors).to.deep.equal([]);
  });
});
