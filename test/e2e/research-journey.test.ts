/**
 * The Research Portal's "must show", as one journey in a real browser on the real API and worker:
 * the researcher orders a research panel for a participant known only by a study id (the Tests
 * link's badge counts one incomplete participant), ships the kit; the lab receives it at intake,
 * lab1 imports its result and lab2 approves it, the worker delivers it (Completed, the research
 * provider told, the participant not); the researcher sees it Completed under Tests, opens the
 * participant and completes the study response: the incomplete count and the badge go down by one.
 */
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { JobStatus, SampleStatus, TestName, TestResultStatus } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { signIn, signWithPassword } from './pages';
import { browserSuite, collectPageErrors, screenshot } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { outboxJobSettled } from '../support/jobs';
import { statusOf } from '../support/fixtures/lab';
import { createResearchSite, uniqueStudyId, type TestResearchSite } from '../support/fixtures/research';
import { TEST_PASSWORD } from '../support/fixtures/clinic';
import { receiveCheckedKit } from '../support/intake';

describe('research journey: order, lab result, tests list, study response (browser)', function () {
  this.timeout(180_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'research-journey' });
  let t: TestApp;
  let site: TestResearchSite;

  before(async () => {
    t = await buildTestApp();
    site = await createResearchSite(t.ctx, t.app, 'Journey Research');
  });
  after(async () => {
    await t?.close();
  });

  const badge = (page: Page) => page.getByRole('navigation', { name: 'Research Portal' }).getByTestId('incomplete-badge');

  it('the researcher orders a panel, the lab results it, the researcher sees it and completes the study response; the badge goes down by one', async () => {
    const db = t.ctx.db;
    const studyId = uniqueStudyId('KRAS-WH');

    // 1. The researcher signs in to the Research Portal and orders HEAD AND NECK for a participant by study id.
    const { page: R } = await suite.newPage();
    const errors = collectPageErrors(R);
    await signIn(R, 'research', site.email, TEST_PASSWORD);
    expect(await badge(R).count(), 'no incomplete participant yet').to.equal(0);
    await R.getByRole('navigation', { name: 'Research Portal' }).getByRole('link', { name: 'Order' }).click();
    await R.getByRole('heading', { name: 'Order a research test' }).waitFor();
    await R.getByRole('textbox', { name: /Study ID/ }).fill(studyId);
    await R.getByRole('checkbox', { name: TestName.HeadAndNeck }).check();
    await R.getByRole('checkbox', { name: /Informed consent has been obtained/ }).check();
    await R.getByRole('checkbox', { name: /supporting this order/ }).check();
    expect(await R.getByText(/medically necessary/).count(), 'medical necessity does not apply to research').to.equal(0);
    await R.getByRole('button', { name: 'Place order' }).click();
    const barcode = (await R.getByTestId('kit-barcode').innerText()).trim();
    expect(barcode).to.match(/^41\d{12}$/);
    await R.getByText(`Study ID ${studyId} (new)`).waitFor();
    await badge(R).getByText('1', { exact: false }).waitFor();
    expect((await badge(R).innerText()).trim()).to.match(/^1/);
    const sample = (await db.models.Sample.findOne({ where: { barcode } }))!;

    // 2. Under Tests the kit waits at the site; the researcher ships it (Order Placed -> Pending Shipment).
    await R.getByRole('navigation', { name: 'Research Portal' }).getByRole('link', { name: /^Tests/ }).click();
    await R.getByRole('heading', { name: 'Research tests' }).waitFor();
    const row = R.getByRole('row').filter({ hasText: barcode });
    await row.getByText(`Study ID ${studyId}`).waitFor();
    await row.getByText(SampleStatus.OrderPlaced).waitFor();
    await row.getByRole('button', { name: `Ship kit ${barcode}` }).click();
    await row.getByText(SampleStatus.PendingShipment).waitFor();
    await screenshot(R, 'research-journey-tests-shipped');

    // 3. The lab: lab1 receives the kit at intake and imports its result; lab2 approves it; the worker delivers it.
    const { page: A } = await suite.newPage();
    await signIn(A, 'lab', DEMO_USERS.lab1.email);
    await A.goto('/lab_toolbox/intake_tool');
    await A.getByRole('heading', { name: 'Sample intake' }).waitFor();
    await A.getByRole('textbox', { name: 'Scan a kit to receive it' }).fill(barcode);
    await A.keyboard.press('Enter');
    await receiveCheckedKit(A, barcode);
    await A.getByRole('table', { name: 'Scan log' }).getByText(`Received ${barcode} (${TestName.HeadAndNeck}): now In Queue`).waitFor();
    await A.goto('/lab_toolbox/cfrt_toxicity_import_tool');
    await A.locator('input[type=file]').setInputFiles({ name: 'panel.csv', mimeType: 'text/csv', buffer: Buffer.from(`barcode,risk_level\n${barcode},High Risk\n`) });
    await A.getByRole('button', { name: 'Check the file' }).click();
    await A.getByText('Every row can be imported').waitFor();
    await A.getByRole('button', { name: 'Commit 1 row' }).click();
    await A.getByText(/1 result written and waiting for review/).waitFor();
    const reviewUrl = (await A.getByRole('link', { name: 'Review this import' }).getAttribute('href'))!;

    const { page: B } = await suite.newPage();
    await signIn(B, 'lab', DEMO_USERS.lab2.email);
    await B.goto(reviewUrl);
    await B.getByRole('checkbox', { name: `Choose ${barcode} ${TestName.HeadAndNeck}` }).check();
    await B.getByRole('button', { name: 'Approve 1' }).click();
    await signWithPassword(B, 1);
    await B.getByText("1 result released to the ordering clinics: the lab reports, the clinics' notices and the patients' result emails are on their way.").waitFor();
    const test = (await db.models.Test.findOne({ where: { sampleId: sample.id } }))!;
    const released = (await db.models.TestResult.findOne({ where: { testId: test.id, status: TestResultStatus.Released } }))!;
    const notified = await outboxJobSettled(t.ctx, `notify-result:${released.id}`, { timeoutMs: 60_000 });
    expect(notified.status, String(notified.error)).to.equal(JobStatus.Completed);
    expect(await statusOf(db, sample.id)).to.equal(SampleStatus.Completed);
    // Released to the research provider, never emailed to the participant (who has no address; no link exists either).
    expect(await db.models.PatientResultLink.count({ where: { sampleId: sample.id } })).to.equal(0);
    expect(await db.models.Email.count({ where: { toAddress: site.email } as never })).to.be.greaterThan(0);

    // 4. The researcher sees it Completed under Tests, with its report, and opens the participant.
    await R.reload();
    await row.getByText(SampleStatus.Completed).waitFor();
    await row.getByRole('button', { name: `Download report of ${barcode}` }).waitFor();
    await row.getByRole('link', { name: `Study ID ${studyId}` }).click();
    await R.getByRole('heading', { name: `Study ID ${studyId}` }).waitFor();
    await R.getByRole('alert').filter({ hasText: 'Incomplete' }).waitFor();

    // 5. ... and completes the study response: the count and the badge go down by one (to none).
    const choose = async (label: RegExp, option: string) => {
      await R.getByRole('combobox', { name: label }).click();
      await R.getByRole('option', { name: option, exact: true }).click();
    };
    await choose(/Radiation treatment type/, 'Protons');
    await R.getByRole('textbox', { name: /Total dose/ }).fill('70.2');
    await R.getByRole('textbox', { name: /Fractions/ }).fill('39');
    await R.getByLabel(/Treatment start date/).fill('2026-02-02');
    await R.getByLabel(/Treatment end date/).fill('2026-03-27');
    await choose(/Acute toxicity/, 'No');
    await choose(/Late toxicity at follow-up/, 'Yes');
    await R.getByRole('button', { name: 'Save study response' }).click();
    await R.getByText('Study Response Updated Successfully').waitFor();
    await R.getByText('Nothing is incomplete.').waitFor();
    await badge(R).waitFor({ state: 'detached' });
    const response = (await db.models.StudyResponse.findOne({ where: { researchProjectId: site.projectId } }))!;
    expect(response.complete).to.equal(true);
    expect(response.answers).to.deep.include({ radiationTreatment: 'Protons', doseGy: 70.2, fractions: 39, lateToxicity: 'Yes' });
    await R.getByRole('navigation', { name: 'Research Portal' }).getByRole('link', { name: /^Tests/ }).click();
    await R.getByText('Study responses', { exact: true }).click();
    await R.getByText('0 participants have an incomplete study response').waitFor();
    await screenshot(R, 'research-journey-complete');
    expect(errors).to.deep.equal([]);
  });
});
