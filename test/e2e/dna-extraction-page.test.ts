/**
 * The DNA extraction import page in a real browser (Debian's Chromium), on the real API and
 * worker: lab1 checks an extraction run with one sample out of range (flagged with why), commits
 * it, sends the flagged sample to re-extraction; lab2 approves the rest from the review page.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { DEMO_USERS } from '../../scripts/demo-users';
import { dialog, signIn, signWithPassword } from './pages';
import { expectAccessible, browserSuite, collectPageErrors, screenshot } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { makeResult, makeSample, SampleStatus, statusOf, TestName, TestResultStatus, timeline, userId } from '../support/fixtures/lab';

describe('DNA extraction import page (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'dna-extraction' });
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  async function labPage(who: 'lab1' | 'lab2'): Promise<{ page: Page; errors: string[]; close: () => Promise<void> }> {
    const { context, page } = await suite.newPage({ bypassCSP: true });
    const errors = collectPageErrors(page);
    await signIn(page, 'lab', DEMO_USERS[who].email);
    return { page, errors, close: () => context.close() };
  }

  it('lab1 imports a run with one sample out of range and sends it to re-extraction; lab2 approves the rest', async () => {
    const db = t.ctx.db;
    const [a, b, low, qns] = [
      await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] }),
      await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.Kras] }),
      await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] }),
      await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.Previotox] }),
    ];
    // The low sample's risk result was imported before its extraction came back (issue 25, item 1).
    const risk = await makeResult(db, low.testIds[0], 'Intermediate Risk', await userId(db, 'lab1'));
    const csv = [
      'Sample ID,Concentration (ng/µL),A260/280,Volume (µL),Plate,Well',
      `${a.barcode},52.4,1.86,40,EX-50,A1`, `${b.barcode},31,1.9,35,EX-50,B1`, `${low.barcode},6.5,1.8,40,EX-50,C1`, `${qns.barcode},12,1.8,8,EX-50,D1`,
    ].join('\n');
    let reviewUrl = '';
    const lab1 = await labPage('lab1');
    try {
      const page = lab1.page;
      await page.goto('/lab_toolbox/dna_extraction_import_tool');
      await page.getByRole('heading', { name: 'DNA extraction import' }).waitFor();
      await page.locator('input[type=file]').setInputFiles({ name: 'run-50.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByRole('button', { name: 'Check the file' }).click();
      await page.getByText('Every row can be imported').waitFor();
      const checked = page.getByRole('table', { name: 'Flagged rows of the check' });
      await checked.getByText('Concentration 6.5 ng/µL is below 10 ng/µL').waitFor();
      await checked.getByText('Volume 8 µL is below 20 µL').waitFor();
      expect(await checked.locator('tbody tr').count()).to.equal(2);
      expect(await checked.locator('tbody tr td').first().textContent()).to.equal('4');
      await expectAccessible(page, 'the DNA extraction check');
      await screenshot(page, 'dna-extraction-check');

      await page.getByRole('button', { name: 'Commit 4 rows' }).click();
      await page.getByText(/4 DNA extractions written and waiting for review; 4 samples moved to In Testing/).waitFor();
      const flagged = page.getByRole('table', { name: 'Flagged DNA extractions' });
      await flagged.getByRole('button', { name: `Re-extract ${low.barcode}` }).click();
      await dialog(page, `Send ${low.barcode} to re-extraction`).getByRole('button', { name: 'Send to re-extraction' }).click();
      await flagged.getByText(`${low.barcode}.reex`).waitFor();
      expect(await statusOf(db, low.id)).to.equal('In Testing');
      expect((await t.ctx.db.models.DnaExtraction.findOne({ where: { sampleId: low.id } }))!.reextractionId).to.equal(`${low.barcode}.reex`);
      await expectAccessible(page, 'the DNA extraction flagged samples, decided');
      await screenshot(page, 'dna-extraction-decided');
      await page.getByRole('link', { name: 'Review this import' }).click();
      await page.getByRole('table', { name: 'Results in review' }).getByText(a.barcode).waitFor();
      reviewUrl = page.url();
      expect(lab1.errors).to.deep.equal([]);
    } finally {
      await lab1.close();
    }

    const lab2 = await labPage('lab2');
    try {
      const page = lab2.page;
      await page.goto(reviewUrl);
      const table = page.getByRole('table', { name: 'Results in review' });
      await table.getByText(a.barcode).waitFor();
      expect(await table.getByText(low.barcode).count()).to.equal(0); // withdrawn when sent to re-extraction
      // The sample lab1 left undecided waits above the list, flagged in it, and cannot be approved.
      const flagged = page.getByRole('table', { name: 'Flagged DNA extractions' });
      await flagged.getByText(qns.barcode).waitFor();
      await table.getByText('Outside the acceptance range: decide above').waitFor();
      await expectAccessible(page, 'review with a flagged DNA extraction');
      await screenshot(page, 'dna-extraction-review');
      await page.getByRole('checkbox', { name: `Choose ${a.barcode} DNA Extraction` }).check();
      await page.getByRole('checkbox', { name: `Choose ${b.barcode} DNA Extraction` }).check();
      await page.getByRole('checkbox', { name: `Choose ${qns.barcode} DNA Extraction` }).check();
      await page.getByRole('button', { name: 'Approve 2' }).click();
      await signWithPassword(page, 2);
      await page.getByText('2 results released').first().waitFor();
      for (const s of [a, b]) expect(await statusOf(db, s.id)).to.equal('In Testing');

      // lab2 rejects the other flagged sample from the review page.
      await flagged.getByRole('button', { name: `Reject ${qns.barcode}: quantity not sufficient` }).click();
      await dialog(page, `Reject sample ${qns.barcode}`).getByRole('button', { name: 'Reject: quantity not sufficient' }).click();
      await page.getByText(`Sample ${qns.barcode} rejected: Rejected - quantity not sufficient`).first().waitFor();
      expect(await statusOf(db, qns.id)).to.equal('Rejected');

      // The risk result of the sample sent to re-extraction: shown held, and "Choose all you may approve" leaves it out.
      await page.goto(`/lab_toolbox/review?barcode=${low.barcode}`);
      const row = table.getByRole('row').filter({ hasText: 'PROSTOX ultra' });
      await row.getByText(`Awaiting re-extraction: ${low.barcode}`).waitFor();
      expect(await page.getByRole('button', { name: /^Choose all you may approve/ }).isDisabled()).to.equal(true);
      await expectAccessible(page, 'review of a result whose DNA awaits re-extraction');
      await screenshot(page, 'dna-extraction-held-risk');
      expect((await db.models.TestResult.findByPk(risk.id))!.status).to.equal(TestResultStatus.InReview);
      expect(lab2.errors).to.deep.equal([]);
    } finally {
      await lab2.close();
    }
    expect((await timeline(db, low.id)).slice(-2)).to.deep.equal(['In Testing', 'In Testing']);
  });
});
