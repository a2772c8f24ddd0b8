/**
 * The lab's flows by keyboard alone (issue 14), after each page.goto only Tab, Shift+Tab, arrows,
 * Enter, Space and typing: the intake scan (kits scanned one after another, the focus staying in
 * the scan box, each outcome shown and said), a result import (the file chosen from the
 * keyboard, checked, committed) and the second person's review (a colleague approves a result,
 * signing it with their password in the signing dialog).
 * Each step checks where the focus is, that it shows, and that the page has no WCAG 2.1 AA
 * violation.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { JobStatus } from '@platform/domain';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible, screenshot } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { expectVisibleFocus, focusedElement, isFocused, tabTo, waitForFocus } from '../support/keyboard';
import { outboxJobSettled } from '../support/jobs';
import { until } from '../support/wait';
import { freshBarcode, makeResult, makeSample, SampleStatus, statusOf, TestName, TestResultStatus, userId } from '../support/fixtures/lab';
import { signInByKeyboard, signingDialog } from './pages';

describe('e2e: the lab by keyboard alone (intake, import, review)', function () {
  this.timeout(150_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'keyboard-lab' });
  let t: TestApp;

  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    await t?.close();
  });

  async function labPage(who: 'lab1' | 'lab2'): Promise<{ page: Page; errors: string[] }> {
    const { page } = await suite.newPage({ bypassCSP: true });
    const errors = collectPageErrors(page);
    await signInByKeyboard(page, 'lab', DEMO_USERS[who].email);
    return { page, errors };
  }

  it('intake: kits scanned in a row, each checked from the keyboard and the focus back in the scan box, each outcome shown and said; reject mode from the keyboard', async () => {
    const kits = await Promise.all([
      makeSample(t.ctx.db, { status: SampleStatus.InTransit, tests: [TestName.ProstoxUltra] }),
      makeSample(t.ctx.db, { status: SampleStatus.InTransit, tests: [TestName.Kras] }),
    ]);
    // The clinic gave the collection time on the order: intake shows it, nothing to type.
    for (const k of kits) await t.ctx.db.models.Sample.update({ collectedAt: new Date(Date.now() - 26 * 3_600_000) }, { where: { id: k.id } });
    const unknown = freshBarcode();
    const spoiled = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
    const { page, errors } = await labPage('lab1');

    // From the home page's tool list to the intake page: the scan box has the focus at once.
    const intakeLink = page.getByRole('main').getByRole('link', { name: /^Sample intake/ });
    await tabTo(page, intakeLink, 10);
    await expectVisibleFocus(intakeLink);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sample intake', level: 1 }).waitFor();
    const receiveBox = page.getByRole('textbox', { name: 'Scan a kit to receive it' });
    await waitForFocus(page, receiveBox);
    await expectAccessible(page, 'intake before a scan (keyboard)');

    // Three kits, one after another, as a scanner types them: a kit's check takes the focus (its
    // condition first), is answered from the keyboard (the collection time is the order's), and
    // Receive gives the focus back to the scan box; an unknown kit is refused at once.
    const log = page.getByRole('table', { name: 'Scan log' });
    const said = page.getByText(/^This session: /);
    expect(await said.getAttribute('aria-live'), 'the session counts are said').to.equal('polite');
    for (const code of [kits[0].barcode, unknown, kits[1].barcode]) {
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
      if (code !== unknown) {
        const check = page.getByRole('region', { name: `Check kit ${code}` });
        const acceptable = check.getByRole('radio', { name: 'Acceptable' });
        await waitForFocus(page, acceptable, 'the condition of the kit scanned');
        await page.keyboard.press('Space');
        expect(await acceptable.isChecked()).to.equal(true);
        const confirm = check.getByRole('checkbox', { name: 'The name and date of birth on the tube match the requisition' });
        await tabTo(page, confirm, 15);
        await expectVisibleFocus(confirm);
        await page.keyboard.press('Space');
        if (code === kits[0].barcode) await expectAccessible(page, 'intake: a kit being checked (keyboard)');
        const receive = check.getByRole('button', { name: 'Receive' });
        await tabTo(page, receive, 5);
        await page.keyboard.press('Enter');
      }
      await log.locator('tbody tr').filter({ hasText: code }).first().waitFor();
      await waitForFocus(page, receiveBox, `the scan box after ${code}`);
      expect(await receiveBox.inputValue(), 'the box is empty for the next scan').to.equal('');
    }
    await log.getByText(`Received ${kits[0].barcode} (PROSTOX ultra): now In Queue`).waitFor();
    await log.getByText(`No sample has barcode ${unknown}`).waitFor();
    await log.getByText(`Received ${kits[1].barcode} (KRAS): now In Queue`).waitFor();
    await said.filter({ hasText: 'This session: 2 received · 0 rejected · 1 refused' }).waitFor();
    await expectVisibleFocus(receiveBox);
    await expectAccessible(page, 'intake after three scans, one refused (keyboard)');

    // Reject mode: Shift+Tab back to the mode switch, the arrow to Reject (the reason it needs takes the focus),
    // the reason from its list (the scan box takes the focus), then scan.
    const mode = page.getByRole('radiogroup', { name: 'What a scan does' });
    const rejectMode = mode.getByRole('radio', { name: 'Reject' });
    const receiveMode = mode.getByRole('radio', { name: 'Receive' });
    await tabTo(page, receiveMode, 10, { backwards: true });
    await expectVisibleFocus(receiveMode, { ringOn: mode.locator('label', { hasText: 'Receive' }) });
    await page.keyboard.press('ArrowRight');
    expect(await rejectMode.isChecked()).to.equal(true);
    const reason = page.getByRole('combobox', { name: 'Rejection reason' });
    await waitForFocus(page, reason, 'the rejection reason');
    await expectVisibleFocus(reason);
    await expectAccessible(page, 'intake in reject mode before a reason (keyboard)');
    await page.keyboard.press('ArrowDown'); // opens the list
    const expired = page.getByRole('option', { name: 'Rejected - specimen expired' });
    await expired.waitFor();
    for (let presses = 0; presses < 20 && (await expired.getAttribute('data-combobox-selected')) === null; presses += 1) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    // The condition next (the reason chosen, it takes the focus), Acceptable first in its list; then the scan box.
    const condition = page.getByRole('combobox', { name: 'Specimen condition' });
    await waitForFocus(page, condition, 'the specimen condition once the reason is chosen');
    await page.keyboard.press('ArrowDown');
    const acceptableOption = page.getByRole('option', { name: 'Acceptable' });
    await acceptableOption.waitFor();
    for (let presses = 0; presses < 10 && (await acceptableOption.getAttribute('data-combobox-selected')) === null; presses += 1) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    const rejectBox = page.getByRole('textbox', { name: 'Scan a kit to reject it' });
    await waitForFocus(page, rejectBox, 'the scan box once the reason and condition are chosen');
    await page.keyboard.type(spoiled.barcode);
    await page.keyboard.press('Enter');
    await log.getByText(`Rejected ${spoiled.barcode}: Rejected - specimen expired`).waitFor();
    await said.filter({ hasText: 'This session: 2 received · 1 rejected · 1 refused' }).waitFor();
    expect(await isFocused(rejectBox), 'the scan box keeps the focus in reject mode').to.equal(true);
    await expectAccessible(page, 'intake in reject mode after a rejection (keyboard)');
    await screenshot(page, 'keyboard-lab-intake');

    expect(await statusOf(t.ctx.db, kits[0].id)).to.equal(SampleStatus.InQueue);
    expect(await statusOf(t.ctx.db, kits[1].id)).to.equal(SampleStatus.InQueue);
    expect(await statusOf(t.ctx.db, spoiled.id)).to.equal(SampleStatus.Rejected);
    expect(errors).to.deep.equal([]);
  });

  it('import: the file chosen from the keyboard, checked, committed, Completed; the review link is next', async () => {
    const a = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxCfrt] });
    const b = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxCfrt] });
    const { page, errors } = await labPage('lab1');
    await page.goto('/lab_toolbox/cfrt_toxicity_import_tool');
    await page.getByRole('heading', { name: 'Toxicity risk import', level: 1 }).waitFor();
    await expectAccessible(page, 'the import page before a file (keyboard)');

    // The file field is a button: Enter opens the system's file chooser. (Waiting for the chooser
    // starts first: Playwright intercepts choosers from then on, and tabbing there makes sure it does.)
    const choosing = page.waitForEvent('filechooser');
    const fileButton = page.getByRole('button', { name: /^Result file/ });
    await tabTo(page, fileButton);
    await expectVisibleFocus(fileButton);
    await page.keyboard.press('Enter');
    const chooser = await choosing;
    await chooser.setFiles({ name: 'tox-keyboard.csv', mimeType: 'text/csv', buffer: Buffer.from(`barcode,risk_level\n${a.barcode},High Risk\n${b.barcode},Low Risk\n`) });
    await fileButton.filter({ hasText: 'tox-keyboard.csv' }).waitFor();

    // The dry run: the check's outcome takes the focus, and it is Completed with every row importable.
    const check = page.getByRole('button', { name: 'Check the file' });
    await tabTo(page, check, 5);
    await expectVisibleFocus(check);
    await page.keyboard.press('Enter');
    const checked = page.getByRole('heading', { name: 'Check of tox-keyboard.csv' });
    await page.getByText('Every row can be imported').waitFor();
    await waitForFocus(page, checked, 'the check of the file');
    const checkPanel = page.getByRole('region', { name: 'Check of tox-keyboard.csv' });
    await checkPanel.getByText('Completed', { exact: true }).waitFor();
    await expectAccessible(page, 'the import after its check (keyboard)');

    // The commit: next in the order after the check, and its outcome takes the focus.
    const commit = page.getByRole('button', { name: 'Commit 2 rows' });
    await tabTo(page, commit, 15);
    await expectVisibleFocus(commit);
    await page.keyboard.press('Enter');
    await page.getByText('2 results written and waiting for review; 2 samples moved to In Testing.').waitFor();
    const committed = page.getByRole('heading', { name: 'Commit', exact: true });
    await waitForFocus(page, committed, 'the commit');
    await page.getByRole('region', { name: 'Commit' }).getByText('Completed', { exact: true }).waitFor();
    expect(await statusOf(t.ctx.db, a.id)).to.equal(SampleStatus.InTesting);
    await expectAccessible(page, 'the import after its commit (keyboard)');

    // The link to this import's review is reached next, and opens it.
    const review = page.getByRole('link', { name: 'Review this import' });
    await tabTo(page, review, 5);
    await expectVisibleFocus(review);
    await page.keyboard.press('Enter');
    await page.getByRole('table', { name: 'Results in review' }).getByText(a.barcode).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/lab_toolbox/review');
    await expectAccessible(page, 'the review of this import, for its importer (keyboard)');
    await screenshot(page, 'keyboard-lab-import-review');
    expect(errors).to.deep.equal([]);
  });

  it('review: a second lab user finds a result by its barcode and approves it', async () => {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxCfrt] });
    const result = await makeResult(t.ctx.db, s.testIds[0], 'High Risk', await userId(t.ctx.db, 'lab1'));
    const { page, errors } = await labPage('lab2');
    await page.goto('/lab_toolbox/review');
    await page.getByRole('heading', { name: 'Review and approve', level: 1 }).waitFor();
    await expectAccessible(page, 'review before a filter (keyboard)');

    // The barcode filter, as a scan: the list narrows to the one result.
    const barcode = page.getByRole('textbox', { name: 'Barcode' });
    await tabTo(page, barcode);
    await expectVisibleFocus(barcode);
    await page.keyboard.type(s.barcode);
    expect(await barcode.inputValue(), 'every digit typed is kept').to.equal(s.barcode);
    const list = page.getByRole('table', { name: 'Results in review' });
    await until(async () => new URL(page.url()).searchParams.get('barcode') === s.barcode && (await list.locator('tbody tr').count()) === 1, { what: 'the list narrowed to the one result' });
    await list.getByText(s.barcode).waitFor();
    await expectAccessible(page, 'review filtered to one barcode (keyboard)');

    // Choose it with Space, then Approve with Enter, sign: the outcome takes the focus.
    const choose = page.getByRole('checkbox', { name: `Choose ${s.barcode} PROSTOX CFRT` });
    await tabTo(page, choose);
    await expectVisibleFocus(choose);
    await page.keyboard.press('Space');
    expect(await choose.isChecked()).to.equal(true);
    const approve = page.getByRole('button', { name: 'Approve 1' });
    await tabTo(page, approve, 20, { backwards: true });
    await expectVisibleFocus(approve);
    await page.keyboard.press('Enter');
    // Approving is signing, from the keyboard too: the signing dialog opens with the focus in its
    // password field; the password typed, Enter signs.
    const signing = signingDialog(page, 1);
    const password = signing.getByLabel('Your password');
    await waitForFocus(page, password, 'the signing dialog\'s password field');
    await expectVisibleFocus(password);
    await expectAccessible(page, 'the signing dialog (keyboard)');
    // The focus stays in the dialog: Tab goes round its controls.
    const focusInSigning = () => signing.evaluate((el) => (el as unknown as { contains(n: unknown): boolean }).contains((globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement));
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      expect(await focusInSigning(), `the focus stays in the signing dialog (on ${await focusedElement(page)})`).to.equal(true);
    }
    await tabTo(page, password, 6);
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await signing.waitFor({ state: 'detached' });
    await page.getByRole('alert').filter({ hasText: '1 result released to the ordering clinics' }).waitFor();
    await waitForFocus(page, page.getByTestId('review-outcome'), 'the approval\'s outcome');
    await expectAccessible(page, 'review after an approval (keyboard)');
    await screenshot(page, 'keyboard-lab-review');

    // Dismissing the outcome takes its close button away: the focus goes to the page heading (the
    // Approve button is disabled by now), never to <body>.
    const dismiss = page.getByTestId('review-outcome').getByRole('button', { name: 'Dismiss' });
    await tabTo(page, dismiss, 3);
    await page.keyboard.press('Enter');
    await page.getByTestId('review-outcome').waitFor({ state: 'detached' });
    const heading = page.getByRole('heading', { name: 'Review and approve', level: 1 });
    await waitForFocus(page, heading, 'the page heading');
    await expectVisibleFocus(heading);
    await expectAccessible(page, 'review after its outcome is dismissed (keyboard)');

    await result.reload();
    expect(result.status).to.equal(TestResultStatus.Released);
    const notified = await outboxJobSettled(t.ctx, `notify-result:${result.id}`);
    expect(notified.status, String(notified.error)).to.equal(JobStatus.Completed);
    expect(errors).to.deep.equal([]);
  });
});
