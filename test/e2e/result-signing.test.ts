/**
 * Electronic signatures in the Lab Toolbox, in a real browser on the real API (issue 29, part 2;
 * 21 CFR 11.50, 11.200): approving a result opens the signing dialog (what is signed, the meaning,
 * the signer, the password); a wrong password is refused on the password field with the dialog
 * open, nothing released and nothing signed; the right one releases the result and records one
 * signature with its meaning and the signer's printed name. A correction is signed where it is
 * entered, with its own meaning and its reason. WCAG 2.1 AA (axe) on the open dialogs.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { QueryTypes } from 'sequelize';
import { SignatureMeaning } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible, screenshot } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { makeResult, makeSample, SampleStatus, TestName, TestResultStatus, userId } from '../support/fixtures/lab';
import { dialog, signIn, signingDialog, signWithPassword } from './pages';

const WRONG_PASSWORD = 'The password is not correct: nothing was signed';

describe('e2e: results are released and corrected with an electronic signature', function () {
  this.timeout(150_000);
  const suite = browserSuite({ screenshotPrefix: 'result-signing' });
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  async function labPage(who: 'lab1' | 'lab2'): Promise<{ page: Page; errors: string[] }> {
    const { page } = await suite.newPage();
    const errors = collectPageErrors(page);
    await signIn(page, 'lab', DEMO_USERS[who].email);
    return { page, errors };
  }

  /** The signatures recorded over one result version: meaning, printed name, reason. */
  const signaturesOf = (resultId: number) =>
    t.ctx.db.sequelize.query<{ meaning: string; printed_name: string; reason: string | null }>(
      `SELECT s.meaning, s.printed_name, s.reason FROM signed_results sr JOIN signatures s ON s.id = sr.signature_id
        WHERE sr.test_result_id = :resultId ORDER BY s.id`,
      { replacements: { resultId }, type: QueryTypes.SELECT },
    );

  it('a wrong password is refused on the field (dialog open, nothing released or signed); the right one releases and signs', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    const result = await makeResult(t.ctx.db, s.testIds[0], 'High Risk', await userId(t.ctx.db, 'lab1'));
    const { page, errors } = await labPage('lab2');
    await page.goto(`/lab_toolbox/review?barcode=${s.barcode}`);
    const list = page.getByRole('table', { name: 'Results in review' });
    await list.getByText(s.barcode).waitFor();
    await page.getByRole('checkbox', { name: `Choose ${s.barcode} PROSTOX ultra` }).check();
    await page.getByRole('button', { name: 'Approve 1' }).click();

    // The dialog says what is signed, what the signature means and who signs.
    const signing = signingDialog(page, 1);
    await signing.getByText('You are signing 1 result:').waitFor();
    await signing.getByRole('list', { name: 'What you sign' }).getByText(`${s.barcode} · PROSTOX ultra: High Risk`).waitFor();
    await signing.getByText(`Meaning of this signature: ${SignatureMeaning.Release}`).waitFor();
    await signing.getByText(`${DEMO_USERS.lab2.firstName} ${DEMO_USERS.lab2.lastName}`, { exact: true }).waitFor();
    const password = signing.getByLabel('Your password');
    expect(await password.getAttribute('type')).to.equal('password');
    expect(await password.getAttribute('autocomplete')).to.equal('current-password');
    await expectAccessible(page, 'the signing dialog, open');
    await screenshot(page, 'result-signing-dialog');

    // A wrong password: its refusal is on the field, the dialog stays, nothing is released or signed.
    await password.fill('not-the-password');
    await signing.getByRole('button', { name: 'Sign and approve' }).click();
    await signing.getByText(WRONG_PASSWORD).waitFor();
    expect(await password.getAttribute('aria-invalid')).to.equal('true');
    const describedBy = (await password.getAttribute('aria-describedby')) ?? '';
    const described = await Promise.all(describedBy.split(' ').filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(described, `the refusal is read with the field (aria-describedby="${describedBy}")`).to.include(WRONG_PASSWORD);
    expect(await password.inputValue(), 'the refused password is not kept').to.equal('');
    expect(await signing.isVisible()).to.equal(true);
    await expectAccessible(page, 'the signing dialog after a wrong password');
    await result.reload();
    expect(result.status).to.equal(TestResultStatus.InReview);
    expect(await signaturesOf(result.id)).to.deep.equal([]);
    expect(await list.getByText(s.barcode).count(), 'the result is still in review').to.equal(1);

    // The right password: released, signed once with the meaning and the signer's name.
    await signWithPassword(page, 1);
    await page.getByText("1 result released to the ordering clinics: the lab reports, the clinics' notices and the patients' result emails are on their way.").waitFor();
    await result.reload();
    expect(result.status).to.equal(TestResultStatus.Released);
    expect(await signaturesOf(result.id)).to.deep.equal([
      { meaning: SignatureMeaning.Release, printed_name: `${DEMO_USERS.lab2.firstName} ${DEMO_USERS.lab2.lastName}`, reason: null },
    ]);
    expect(errors).to.deep.equal([]);
  });

  it('a correction is signed where it is entered: its meaning, the password, the reason recorded with the signature', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.Resulted, tests: [TestName.ProstoxUltra] });
    const released = await makeResult(t.ctx.db, s.testIds[0], 'High Risk', await userId(t.ctx.db, 'lab1'), { status: TestResultStatus.Released, reviewedBy: await userId(t.ctx.db, 'lab2') });
    const { page, errors } = await labPage('lab1');
    await page.goto('/lab_toolbox/review');
    await page.getByRole('tab', { name: 'Released toxicity results' }).click();
    await page.getByRole('textbox', { name: 'Barcode' }).fill(s.barcode);
    const row = page.getByRole('table', { name: 'Released toxicity results' }).getByRole('row').filter({ hasText: s.barcode });
    await row.getByRole('button', { name: 'Correct' }).click();

    const correcting = dialog(page, `Correct ${s.barcode} (PROSTOX ultra)`);
    await correcting.getByText(`Meaning of this signature: ${SignatureMeaning.Correction}`).waitFor();
    await correcting.getByLabel('Corrected result').click();
    await page.getByRole('option', { name: 'Low-Average Risk' }).click();
    await correcting.getByRole('textbox', { name: 'Reason for the correction' }).fill('Transcription error');
    await expectAccessible(page, 'the correction dialog with its signature');
    await signWithPassword(page, correcting);
    await page.getByText(new RegExp(`^Correction of ${s.barcode} \\(PROSTOX ultra: High Risk → Low-Average Risk\\) entered as version 2`)).waitFor();

    const correction = await t.ctx.db.models.TestResult.findOne({ where: { testId: s.testIds[0], version: 2 } });
    expect(correction?.status).to.equal(TestResultStatus.InReview);
    expect(await signaturesOf(correction!.id)).to.deep.equal([
      { meaning: SignatureMeaning.Correction, printed_name: `${DEMO_USERS.lab1.firstName} ${DEMO_USERS.lab1.lastName}`, reason: 'Transcription error' },
    ]);
    expect(await signaturesOf(released.id), 'the released version is not signed again').to.deep.equal([]);
    expect(errors).to.deep.equal([]);
  });
});
