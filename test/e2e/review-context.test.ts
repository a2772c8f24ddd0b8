/**
 * The review list's context in a real browser (issue 30, item 3, Must show): a reviewer sees a
 * flagged extraction and an earlier result on the row and cannot approve it. lab1 entered a
 * PROSTOX ultra result for a patient whose earlier sample was released as another risk, on a
 * sample whose DNA extraction is outside the acceptance range; lab2 opens the row's details from
 * the keyboard (axe on the expanded row), and on a phone the details stay on the screen.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { DEMO_USERS } from '../../scripts/demo-users';
import { signIn } from './pages';
import { browserSuite, collectPageErrors, expectAccessible, screenshot, VIEWPORTS } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { makeResult, makeSample, SampleStatus, TestName, TestResultStatus, userId } from '../support/fixtures/lab';

const LOW = 'Concentration 6.5 ng/µL is below 10 ng/µL';

describe('review with the context to decide (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ screenshotPrefix: 'review-context' });
  let t: TestApp;
  let barcode = '';
  let earlierBarcode = '';

  before(async () => {
    t = await buildTestApp();
    const db = t.ctx.db;
    const lab1Id = await userId(db, 'lab1');
    const lab2Id = await userId(db, 'lab2');
    const before = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    await makeResult(db, before.testIds[0], 'Low-Average Risk', lab1Id, { status: TestResultStatus.Released, reviewedBy: lab2Id });
    const now = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra, TestName.DnaExtraction] });
    await db.sequelize.query(`UPDATE samples SET patient_id = :p, collected_at = now() - interval '5 days', condition = 'insufficient', condition_note = 'Half the swab' WHERE id = :s`, { replacements: { p: before.patientId, s: now.id } });
    const job = await db.models.Job.create({ name: 'lab-import', status: 'Completed', payload: { kind: 'dna-extraction', mode: 'commit' } as object, createdByUserId: lab1Id, finishedAt: new Date() });
    const exResult = await makeResult(db, now.testIds[1], 'Concentration 6.5 ng/µL; A260/280 1.8; volume 40 µL (EX-52 C1)', lab1Id);
    await db.models.DnaExtraction.create({
      sampleId: now.id, label: now.barcode, testResultId: exResult.id, importJobId: job.id, fileRow: 3,
      concentrationNgPerUl: 6.5, a260280: 1.8, volumeUl: 40, plate: 'EX-52', well: 'C1', flags: [LOW],
    });
    await makeResult(db, now.testIds[0], 'High Risk', lab1Id);
    barcode = now.barcode;
    earlierBarcode = before.barcode;
  });
  after(async () => {
    await t?.close();
  });

  async function reviewer(viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<{ page: Page; errors: string[] }> {
    const { page } = await suite.newPage({ bypassCSP: true, viewport });
    const errors = collectPageErrors(page);
    await signIn(page, 'lab', DEMO_USERS.lab2.email);
    await page.goto(`/lab_toolbox/review?barcode=${barcode}`);
    return { page, errors };
  }

  it('the row shows the flagged extraction and the earlier result it changed from, and offers no Approve', async () => {
    const { page, errors } = await reviewer();
    const table = page.getByRole('table', { name: 'Results in review' });
    const row = table.getByRole('row').filter({ hasText: 'PROSTOX ultra' }).filter({ has: page.getByRole('button', { name: /^Details/ }) });
    await row.getByText('Changed from Low-Average Risk').waitFor();
    await row.getByText('Cannot approve').waitFor();

    // From the keyboard: focus the row's Details and press Enter.
    const toggle = row.getByRole('button', { name: `Details: ${barcode} PROSTOX ultra` });
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).to.equal('true');
    const detail = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await detail.waitFor();

    const extraction = detail.getByTestId('review-extraction');
    expect(await extraction.innerText()).to.include(`DNA extraction ${barcode}: DNA extraction flagged`);
    expect(await extraction.innerText()).to.include('Concentration 6.5 ng/µL · A260/280 1.8 · volume 40 µL');
    expect(await extraction.innerText()).to.include('Extraction plate EX-52, well C1');
    await detail.getByRole('list', { name: 'Outside the acceptance range' }).getByText(LOW).waitFor();

    expect(await detail.getByTestId('review-changed').innerText()).to.equal('Changed: last released Low-Average Risk, now High Risk');
    const last = detail.getByTestId('review-earlier-last');
    expect(await last.innerText()).to.equal('Low-Average Risk');
    // Highlighted: bold on a tinted background, not colour alone (the badge says it in words).
    const style = await last.evaluate((el) => ({ weight: getComputedStyle(el).fontWeight, background: getComputedStyle(el).backgroundColor }));
    expect(Number(style.weight)).to.be.at.least(700);
    expect(style.background).to.not.equal('rgba(0, 0, 0, 0)');
    await detail.getByRole('list', { name: 'Earlier released results' }).getByText(earlierBarcode).waitFor();
    expect(await detail.getByRole('region', { name: 'Specimen' }).innerText()).to.match(/Age at testing\s*:?\s*\d+ days?/);
    expect(await detail.getByRole('region', { name: 'Specimen' }).innerText()).to.include('Condition: Insufficient (Half the swab)');

    expect(await detail.getByTestId('review-cannot-approve').innerText()).to.equal(
      `Cannot be approved: The PROSTOX ultra result of sample ${barcode} cannot be released: its DNA extraction ${barcode} is outside the acceptance range (${LOW}) and waits for a decision`,
    );
    expect(await detail.getByRole('button', { name: /^Approve/ }).count()).to.equal(0);
    // Chosen, it is still not approvable: the page's Approve stays disabled.
    await row.getByRole('checkbox', { name: `Choose ${barcode} PROSTOX ultra` }).check();
    expect(await page.getByRole('button', { name: /^Approve/ }).isDisabled()).to.equal(true);
    expect(await page.getByRole('button', { name: /^Choose all you may approve/ }).isDisabled()).to.equal(true);

    await expectAccessible(page, 'review with a row expanded: flagged extraction and an earlier result');
    await screenshot(page, 'review-context-expanded');

    // Back on the toggle, Enter closes the details; the focus stays on it.
    await toggle.focus();
    await page.keyboard.press('Enter');
    await detail.waitFor({ state: 'detached' });
    expect(await toggle.evaluate((el) => el === document.activeElement)).to.equal(true);
    expect(errors).to.deep.equal([]);
  });

  it('on a phone the details read within the screen', async () => {
    const { page, errors } = await reviewer(VIEWPORTS.phone);
    const toggle = page.getByRole('button', { name: `Details: ${barcode} PROSTOX ultra` });
    await toggle.click();
    const detail = page.locator(`#${await toggle.getAttribute('aria-controls')}`);
    await detail.getByTestId('review-extraction').waitFor();
    // Within the list's visible part (the table itself scrolls sideways), nothing in it wider than it.
    const fit = await detail.evaluate((el) => {
      const shown = el.closest('.mantine-ScrollArea-viewport')!.getBoundingClientRect();
      const box = el.getBoundingClientRect();
      const overflowing = [...el.querySelectorAll('*')].filter((c) => c.getBoundingClientRect().right > shown.right + 0.5).map((c) => c.textContent?.slice(0, 40));
      return { left: box.left >= shown.left, right: box.right <= shown.right, overflowing };
    });
    expect(fit).to.deep.equal({ left: true, right: true, overflowing: [] });
    await expectAccessible(page, 'review with a row expanded, on a phone');
    await screenshot(page, 'review-context-phone');
    expect(errors).to.deep.equal([]);
  });
});
