/**
 * The Lab Toolbox pages in a real browser (Debian's Chromium), on the real API and worker:
 * scanning kits at intake, importing a result file (check, errors, commit), approving it as the
 * other lab user, a PCR plate from register to results, and a question to a patient about a sample
 * in review: emailed, answered through the link, the answer read by the lab.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { DEMO_USERS } from '../../scripts/demo-users';
import { signIn, signWithPassword } from './pages';
import { clippedTexts, expectAccessible, browserSuite, collectPageErrors, screenshot, VIEWPORTS } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { FollowUpStatus, JobStatus, NO_EMAIL_REASON } from '@platform/domain';
import { freshBarcode, makeSample, SampleStatus, statusOf, TestName, TestResultStatus, timeline } from '../support/fixtures/lab';
import { outboxJobSettled } from '../support/jobs';
import { waitForMail } from '../support/mail';
import { createClinic, createResult } from '../support/fixtures/reports';
import { receiveCheckedKit } from '../support/intake';
import { until } from '../support/wait';

const QUESTION_LINK = /https?:\/\/\S+\/patient-portal\/sample-follow-up\/(\d+)\/response\?token=[0-9a-f]{64}/;

describe('lab toolbox pages (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'lab' });
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

  it('intake: forty kits in a row through one scan box that keeps the focus, each answered on its own line', async () => {
    const kits = await Promise.all([
      makeSample(t.ctx.db, { status: SampleStatus.InTransit, tests: [TestName.ProstoxUltra] }),
      makeSample(t.ctx.db, { status: SampleStatus.PendingShipment, tests: [TestName.Kras] }),
    ]);
    const unknown = freshBarcode();
    const { page, errors, close } = await labPage('lab1');
    try {
      await page.getByRole('link', { name: 'Sample intake' }).click();
      await page.getByRole('heading', { name: 'Sample intake' }).waitFor();
      const box = page.getByRole('textbox', { name: 'Scan a kit to receive it' });
      expect(await box.evaluate((el) => (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === el)).to.equal(true);
      // Refused at once, the focus staying in the box: an unknown kit, a barcode of the wrong shape.
      for (const code of [unknown, '12345']) {
        await page.keyboard.type(code);
        await page.keyboard.press('Enter');
      }
      const log = page.getByRole('table', { name: 'Scan log' });
      await log.getByText(`No sample has barcode ${unknown}`).waitFor();
      await log.getByText('Barcode must be 14 digits long (this one has 5)').waitFor();
      // A kit that can be received opens its check; answered, it is received and the box has the focus again.
      for (const kit of kits) {
        await box.fill(kit.barcode);
        await page.keyboard.press('Enter');
        await receiveCheckedKit(page, kit.barcode);
        await log.locator('tbody tr').filter({ hasText: kit.barcode }).first().waitFor();
      }
      await log.getByText(`Received ${kits[1].barcode} (KRAS): now In Queue`).waitFor();
      // The same kit again: refused with the day it was received, no check.
      await box.fill(kits[0].barcode);
      await page.keyboard.press('Enter');
      await log.getByText(`Sample ${kits[0].barcode} was already received on`).waitFor();
      const rows = log.locator('tbody tr');
      expect(await rows.count()).to.equal(5);
      expect(await rows.first().getAttribute('data-outcome')).to.equal('refused'); // the latest scan is on top
      expect(await rows.nth(1).getAttribute('data-outcome')).to.equal('received');
      await page.getByText('This session: 2 received · 0 rejected · 3 refused').waitFor();
      await until(() => box.evaluate((el) => (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === el), { what: 'the focus back in the scan box' });

      // Reject mode: choose the reason, scan.
      const reject = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
      await page.getByText('Reject', { exact: true }).first().click();
      await page.getByRole('combobox', { name: 'Rejection reason' }).click();
      await page.getByRole('option', { name: 'Rejected - specimen expired' }).click();
      await page.getByRole('combobox', { name: 'Specimen condition' }).click();
      await page.getByRole('option', { name: 'Acceptable' }).click();
      await page.getByRole('textbox', { name: 'Scan a kit to reject it' }).fill(reject.barcode);
      await page.keyboard.press('Enter');
      await log.getByText(`Rejected ${reject.barcode}: Rejected - specimen expired`).waitFor();
      expect(await statusOf(t.ctx.db, reject.id)).to.equal('Rejected');
      expect(await statusOf(t.ctx.db, kits[0].id)).to.equal('In Queue');
      await expectAccessible(page, 'intake after a kit is rejected');
      await screenshot(page, 'lab-intake');
      // Each line's outcome badge reads whole ("Received", never "RECEIV…"), at the bench's laptop width too.
      expect(await clippedTexts(page.locator('main')), 'cut-off text on the intake page').to.deep.equal([]);
      await page.setViewportSize(VIEWPORTS.laptop);
      expect(await clippedTexts(page.locator('main')), 'cut-off text on the intake page at 1366 px').to.deep.equal([]);
      expect(errors).to.deep.equal([]);
    } finally {
      await close();
    }
  });

  it('import: a file with an error shows its row; a good file commits; the importer cannot approve, the other lab user does', async () => {
    let reviewUrl = '';
    const a = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxCfrt] });
    const b = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxCfrt] });
    const lab1 = await labPage('lab1');
    try {
      const page = lab1.page;
      await page.goto('/lab_toolbox/cfrt_toxicity_import_tool');
      await page.getByRole('heading', { name: 'Toxicity risk import' }).waitFor();
      await page.locator('input[type=file]').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(`barcode,risk_level\n${a.barcode},High Risk\n${b.barcode},Medium\n`) });
      await page.getByRole('button', { name: 'Check the file' }).click();
      await page.getByText('1 error found').waitFor();
      const errorsTable = page.getByRole('table', { name: 'Errors' });
      await errorsTable.getByText('"Medium" is not a risk level').waitFor();
      expect(await errorsTable.locator('tbody tr td').first().textContent()).to.equal('3');
      expect(await page.getByRole('link', { name: 'Download errors (CSV)' }).getAttribute('href')).to.match(/^\/api\/lab-toolbox\/jobs\/\d+\/errors\.csv$/);
      expect(await page.getByRole('button', { name: /^Commit/ }).isDisabled()).to.equal(true);
      await expectAccessible(page, 'an import with an error in its file');
      await screenshot(page, 'lab-import-errors');

      await page.locator('input[type=file]').setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(`barcode,risk_level\n${a.barcode},High Risk\n${b.barcode},Low Risk\n`) });
      await page.getByRole('button', { name: 'Check the file' }).click();
      await page.getByText('Every row can be imported').waitFor();
      await page.getByRole('button', { name: 'Commit 2 rows' }).click();
      await page.getByText('2 results written and waiting for review; 2 samples moved to In Testing.').waitFor();
      expect(await statusOf(t.ctx.db, a.id)).to.equal('In Testing');
      await page.getByRole('link', { name: 'Review this import' }).click();
      await page.getByRole('table', { name: 'Results in review' }).getByText(a.barcode).waitFor();
      reviewUrl = page.url(); // what lab1 hands to the colleague who approves
      await page.getByRole('checkbox', { name: `Choose ${a.barcode} PROSTOX CFRT` }).check();
      expect(await page.getByRole('button', { name: /^Approve/ }).isDisabled()).to.equal(true);
      await page.getByText('1 of the chosen cannot be approved by you').waitFor();
      expect(lab1.errors).to.deep.equal([]);
    } finally {
      await lab1.close();
    }

    const lab2 = await labPage('lab2');
    try {
      const page = lab2.page;
      // Other results wait in review too (other tests of the run): the colleague opens this import's review.
      await page.goto(reviewUrl);
      await page.getByRole('checkbox', { name: `Choose ${a.barcode} PROSTOX CFRT` }).check();
      await page.getByRole('checkbox', { name: `Choose ${b.barcode} PROSTOX CFRT` }).check();
      await expectAccessible(page, 'review with results chosen');
      await page.getByRole('button', { name: 'Approve 2' }).click();
      await signWithPassword(page, 2);
      await page.getByText('2 results released').first().waitFor();
      // The approval moved both samples to Resulted and queued their notify-result jobs, which move
      // them on to Completed whenever the worker gets to them: wait until those jobs are over, then
      // check both steps (the status alone is Resulted or Completed depending on the worker's pace).
      for (const sample of [a, b]) {
        const released = await t.ctx.db.models.TestResult.findOne({ where: { testId: sample.testIds[0], status: TestResultStatus.Released } });
        expect(released, `the released result of ${sample.barcode}`).to.not.equal(null);
        const notified = await outboxJobSettled(t.ctx, `notify-result:${released!.id}`);
        expect(notified.status, String(notified.error)).to.equal(JobStatus.Completed);
        expect((await timeline(t.ctx.db, sample.id)).slice(-3)).to.deep.equal([SampleStatus.InTesting, SampleStatus.Resulted, SampleStatus.Completed]);
        expect(await statusOf(t.ctx.db, sample.id)).to.equal(SampleStatus.Completed);
      }
      await screenshot(page, 'lab-review');
      expect(lab2.errors).to.deep.equal([]);
    } finally {
      await lab2.close();
    }
  });

  it('PCR: a sample registered at the lab goes on a plate with its controls, and the run is resulted', async () => {
    const { page, errors, close } = await labPage('lab1');
    const barcode = freshBarcode();
    try {
      await page.goto('/lab_toolbox/pcr_register');
      await page.getByRole('textbox', { name: 'Tube barcode' }).fill(barcode);
      await page.getByRole('textbox', { name: 'First name' }).fill('Rosa');
      await page.getByRole('textbox', { name: 'Last name' }).fill('Nasal');
      await page.getByLabel('Date of birth').fill('1980-05-06');
      await page.getByRole('combobox', { name: 'Sample type' }).click();
      await page.getByRole('option', { name: 'Nasopharyngeal' }).click();
      await page.getByRole('button', { name: 'Register sample' }).click();
      await page.getByText(`${barcode} registered for Rosa N.`).waitFor();

      const name = `UI ${barcode.slice(-5)}`;
      await page.getByRole('textbox', { name: 'Plate name' }).fill(name);
      await page.getByRole('button', { name: 'Positive control → A1' }).click();
      await page.getByRole('button', { name: 'Negative control → B1' }).click();
      await page.getByRole('textbox', { name: 'Scan into well C1' }).fill(barcode);
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: `Well C1: ${barcode}` }).waitFor();
      // On a laptop (1366 px) the whole plate shows, each well's barcode whole, nothing to scroll sideways.
      await page.setViewportSize(VIEWPORTS.laptop);
      await page.getByRole('button', { name: `Well C1: ${barcode}` }).waitFor();
      await screenshot(page, 'lab-pcr-register-laptop');
      expect(await clippedTexts(page.locator('main')), 'cut-off text on the PCR register page at 1366 px').to.deep.equal([]);
      await page.getByRole('button', { name: 'Register plate (3 wells)' }).click();
      await page.getByText(`Plate ${name} registered`).waitFor();
      await page.getByRole('link', { name: 'Enter its results' }).click();
      await page.getByRole('heading', { name: `Plate ${name}` }).waitFor();
      // Each well says which COVID test its sample is for (the sample was registered as COVID-19 PCR).
      const entry = page.getByRole('table', { name: 'Results of the run' });
      await entry.getByRole('row').filter({ hasText: barcode }).getByText('COVID-19 PCR', { exact: true }).waitFor();
      await expectAccessible(page, 'PCR resulting while results are entered');
      for (const [well, result] of [['A1', 'DETECTED'], ['B1', 'NOT DETECTED'], ['C1', 'NOT DETECTED']]) {
        await page.getByRole('combobox', { name: `Result of ${well}` }).click();
        await page.getByRole('option', { name: result, exact: true }).click();
      }
      await page.getByRole('button', { name: 'Save results' }).click();
      await page.getByText('Controls passed').waitFor();
      const sample = await t.ctx.db.models.Sample.findOne({ where: { barcode } });
      expect(sample!.status).to.equal('In Testing');
      const results = await t.ctx.db.models.TestResult.findAll({ include: [{ model: t.ctx.db.models.Test, as: 'test', where: { sampleId: sample!.id } }] });
      expect(results.map((r) => [r.value, r.status])).to.deep.equal([['NOT DETECTED', 'In Review']]);
      await page.getByRole('table', { name: 'Plate layout' }).getByRole('cell', { name: `${barcode} COVID-19 PCR NOT DETECTED` }).waitFor();
      await page.getByRole('table', { name: 'Plate results' }).getByRole('row').filter({ hasText: barcode }).getByText('COVID-19 PCR', { exact: true }).waitFor();
      await screenshot(page, 'lab-pcr-resulting');
      expect(await clippedTexts(page.locator('main')), 'cut-off text on the PCR resulting page at 1366 px').to.deep.equal([]);
      await expectAccessible(page, 'PCR resulting after the results are saved');
      // On a tablet (576-992px; its narrowest here) the same page, read the same way.
      await page.setViewportSize({ width: 576, height: 1024 });
      await page.getByRole('group', { name: 'Test names on the plate' }).getByText('COVID-19 PCR').waitFor();
      await screenshot(page, 'lab-pcr-resulting-tablet');
      await expectAccessible(page, 'PCR resulting after the results are saved, tablet width');
      expect(errors).to.deep.equal([]);
    } finally {
      await close();
    }
  });
  it('asks a patient about a sample in review: the email carries a link, the patient answers through it, the lab reads the answer', async () => {
    const clinic = await createClinic(t.ctx.db, 'lab-question');
    const inReview = { accountId: clinic.account.id, physicianId: clinic.physician.id, testName: 'PROSTOX ultra', resultStatus: TestResultStatus.InReview, sampleStatus: SampleStatus.InTesting } as const;
    const fixture = await createResult(t.ctx.db, inReview);
    const noEmail = await createResult(t.ctx.db, { ...inReview, patientEmail: null });
    const question = 'Was the swab taken before breakfast?';
    const { page, errors, close } = await labPage('lab1');
    try {
      // A patient without an email address: refused, naming the sample.
      await page.goto(`/lab_toolbox/review?barcode=${noEmail.barcode}`);
      await page.getByRole('button', { name: `Ask the patient about sample ${noEmail.barcode}` }).click();
      const refusedDialog = page.getByRole('dialog', { name: `Questions to the patient about sample ${noEmail.barcode}` });
      await refusedDialog.getByText('Nothing has been asked about this sample yet.').waitFor();
      await refusedDialog.getByRole('textbox', { name: 'Question' }).fill(question);
      await refusedDialog.getByRole('button', { name: 'Email the question' }).click();
      const refusal = refusedDialog.getByRole('alert');
      await refusal.getByText('Error submitting form').waitFor();
      await refusal.getByText(`Sample ${noEmail.barcode}: ${NO_EMAIL_REASON}: the question cannot be emailed`).waitFor();
      await expectAccessible(page, 'asking a patient without an email address');
      await page.keyboard.press('Escape');
      await refusedDialog.waitFor({ state: 'hidden' });

      // The patient with an email address: asked from the review list.
      await page.goto(`/lab_toolbox/review?barcode=${fixture.barcode}`);
      await page.getByRole('table', { name: 'Results in review' }).getByText(fixture.barcode).waitFor();
      await expectAccessible(page, 'review list with its ask buttons');
      await page.getByRole('button', { name: `Ask the patient about sample ${fixture.barcode}` }).click();
      const dialog = page.getByRole('dialog', { name: `Questions to the patient about sample ${fixture.barcode}` });
      await dialog.getByText('Nothing has been asked about this sample yet.').waitFor();
      await expectAccessible(page, 'the sample questions dialog, nothing asked yet');
      await dialog.getByRole('textbox', { name: 'Question' }).fill(question);
      await dialog.getByRole('button', { name: 'Email the question' }).click();
      const asked = dialog.getByRole('table', { name: `Follow-ups of sample ${fixture.barcode}` }).getByRole('row').filter({ hasText: `Question: ${question}` });
      await asked.getByText(FollowUpStatus.Sent).waitFor();
      await expectAccessible(page, 'the sample questions dialog after asking');
      await screenshot(page, 'lab-ask-patient');

      const [mail] = await waitForMail(fixture.patient.email!, 1, { matching: (m) => /a question about your/i.test(m.subject) });
      const link = new URL(QUESTION_LINK.exec(mail.text)![0]);

      // The patient, on a phone, through the link.
      const patient = await suite.newPage({ bypassCSP: true, viewport: { width: 390, height: 844 }, isMobile: true });
      const patientErrors = collectPageErrors(patient.page);
      await patient.page.goto(link.pathname + link.search);
      await patient.page.getByRole('heading', { name: `Hello ${fixture.patient.firstName}.` }).waitFor();
      await patient.page.getByText(question).waitFor();
      await expectAccessible(patient.page, 'the patient opens the lab’s question');
      await patient.page.getByRole('radiogroup', { name: 'Your answer' }).getByRole('radio', { name: 'No', exact: true }).check();
      await patient.page.getByRole('textbox', { name: 'Anything you would like to add (optional)' }).fill('After breakfast');
      await patient.page.getByRole('button', { name: 'Send my answer' }).click();
      await patient.page.getByRole('heading', { name: 'Thank you' }).waitFor();
      await expectAccessible(patient.page, 'the patient’s answer sent');
      expect(patientErrors).to.deep.equal([]);

      // The lab reads the answer (the list is read afresh when the page loads again).
      await page.reload();
      await page.getByRole('button', { name: `Ask the patient about sample ${fixture.barcode}` }).click();
      const answered = dialog.getByRole('table', { name: `Follow-ups of sample ${fixture.barcode}` }).getByRole('row').filter({ hasText: `Question: ${question}` });
      await answered.getByText(FollowUpStatus.Answered).waitFor();
      await answered.getByText('No: After breakfast').waitFor();
      await expectAccessible(page, 'the sample questions dialog with the answer');
      const notes = (await t.ctx.db.models.SampleStatusEvent.findAll({ where: { sampleId: fixture.sampleId } })).map((e) => e.reason);
      expect(notes).to.include.members(['A follow-up question was emailed to the patient', 'The patient answered the follow-up question: No (After breakfast)']);
      expect(errors.filter((e) => !/status of 409/.test(e))).to.deep.equal([]);
    } finally {
      await close();
    }
  });
});
