/**
 * The patient release policy in Chromium (issue 29, part 5): the lab's admin sets a test "To the
 * clinic first" on the Patient release page; a result of that test is released (the clinic is told,
 * the patient is not); the ordering clinic's Completed list marks it "Awaiting your review", and
 * "Mark reviewed" sends the patient their result email. axe on both pages, the dialog included.
 */
import { expect } from 'chai';
import { JobStatus, PatientReleasePolicy } from '@platform/domain';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible } from '../support/browser';
import { testConfig } from '../support/server';
import { mailTo, waitForMail } from '../support/mail';
import { emailsSettled } from '../support/jobs';
import { createClinic, createResult, resultLinkIn, runJob, type Clinic } from '../support/fixtures/reports';
import { signIn } from './pages';

describe('Patient release: the admin\'s page and the clinic\'s "Mark reviewed" (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ worker: true, screenshotPrefix: 'patient-release' });
  let ctx: AppContext;
  let clinic: Clinic;

  before(async () => {
    ctx = await createContext(testConfig(), 'test');
    clinic = await createClinic(ctx.db, 'release-e2e');
  });
  after(async () => {
    // Files after this one in the same process find the default policy again.
    await ctx?.db.sequelize.query('DELETE FROM patient_release_policies');
    if (ctx) await closeContext(ctx);
  });

  it('sets PREVIOTOX to the clinic first; its released result waits for the clinic, and "Mark reviewed" sends it to the patient', async () => {
    const { page } = await suite.newPage();
    const errors = collectPageErrors(page);
    await signIn(page, 'admin', DEMO_USERS.admin.email);
    await page.goto('/admin/provider/patient-release');
    await page.getByRole('heading', { name: 'Patient release', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Patient release by test' });
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'PREVIOTOX', exact: true }) });
    await expectAccessible(page, 'patient release: the policies');
    await row.getByRole('combobox', { name: 'When the patient gets the PREVIOTOX result' }).click();
    await page.getByRole('option', { name: 'To the clinic first' }).click();
    const days = row.getByRole('textbox', { name: 'Days before the PREVIOTOX result goes to the patient anyway' });
    await days.fill('2');
    await row.getByRole('button', { name: 'Save PREVIOTOX' }).click();
    await page.getByRole('alert').filter({ hasText: 'Patient release of PREVIOTOX saved' }).first().waitFor();
    await row.getByText(/by Ada Admin$/).waitFor();
    await expectAccessible(page, 'patient release: a policy saved');
    const [saved] = await ctx.db.sequelize.query<{ policy: string; hold_days: number }>(
      'SELECT policy, hold_days FROM patient_release_policies WHERE test_name = \'PREVIOTOX\'', { type: 'SELECT' as never },
    );
    expect(saved).to.deep.equal({ policy: PatientReleasePolicy.ClinicFirst, hold_days: 2 });

    // The lab releases a PREVIOTOX result of the clinic: the clinic is told, the patient is not.
    const r = await createResult(ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, testName: 'PREVIOTOX', value: 'High Risk' });
    const notified = await runJob(ctx, 'notify-result', { testResultId: r.resultId });
    expect(notified.status, String(notified.error)).to.equal(JobStatus.Completed);
    expect(await emailsSettled(ctx, r.patient.email!)).to.equal(0);

    const clinicPage = (await suite.newPage()).page;
    const clinicErrors = collectPageErrors(clinicPage);
    await signIn(clinicPage, 'provider', clinic.email);
    await clinicPage.goto(`/provider-clinic/${clinic.account.id}/completed`);
    await clinicPage.getByRole('heading', { name: 'Completed tests', level: 1 }).waitFor();
    const sampleRow = clinicPage.getByRole('row').filter({ hasText: r.barcode });
    await sampleRow.getByText('Awaiting your review').waitFor();
    await sampleRow.getByText(/^Goes to the patient on \d\d\/\d\d\/\d{4}$/).waitFor();
    await expectAccessible(clinicPage, 'completed list: a result awaiting review');
    await sampleRow.getByRole('button', { name: `Mark reviewed ${r.barcode}` }).click();
    const dialog = clinicPage.getByRole('dialog', { name: `Mark Walter ${r.patient.lastName}'s PREVIOTOX result reviewed?` });
    await dialog.waitFor();
    await expectAccessible(clinicPage, 'completed list: the Mark reviewed dialog');
    await dialog.getByRole('button', { name: 'Mark reviewed' }).click();
    await clinicPage.getByRole('alert').filter({ hasText: 'Marked reviewed. The patient is sent their PREVIOTOX result now.' }).first().waitFor();
    await sampleRow.getByText('Awaiting your review').waitFor({ state: 'detached' });
    await sampleRow.getByRole('button', { name: `Send result email for ${r.barcode}` }).waitFor();

    const [mail] = await waitForMail(r.patient.email!);
    expect(resultLinkIn(mail.text).barcode).to.equal(r.barcode);
    expect(await mailTo(r.patient.email!)).to.have.length(1);
    expect(errors).to.deep.equal([]);
    expect(clinicErrors).to.deep.equal([]);
  });
});
