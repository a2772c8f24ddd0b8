/**
 * Worklists in Chromium (issue 30, item 5): a clinic's provider searches the Completed list by a
 * barcode and finds that sample; the lab opens the Worklist from the sidebar and sees an overdue
 * sample marked "Past target". axe on each page.
 */
import { expect } from 'chai';
import { TestName } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible } from '../support/browser';
import { buildTestApp, signIn as apiSignIn, type TestApp } from '../support/http';
import { makeSample, SampleStatus } from '../support/fixtures/lab';
import { signIn } from './pages';

describe('Worklists (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ screenshotPrefix: 'worklists' });
  let t: TestApp;
  let riversideId: number;
  let resulted: { barcode: string };
  let overdue: { barcode: string };

  before(async () => {
    t = await buildTestApp();
    riversideId = (await t.ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
    resulted = await makeSample(t.ctx.db, { status: SampleStatus.Resulted, tests: [TestName.Previotox] });
    // In Testing, received long ago: past any target, and first on the oldest-first list.
    const sample = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.Previotox] });
    await t.ctx.db.sequelize.query(`UPDATE sample_status_events SET created_at = created_at - interval '30 years' WHERE sample_id = :id`, { replacements: { id: sample.id } });
    overdue = sample;
    const admin = await apiSignIn(t.app, 'admin', 'admin', '10.31.6.1');
    await admin.put('/api/admin/turnaround/targets', { testName: TestName.Previotox, amount: 1, unit: 'days' }).expect(200);
  });
  after(async () => {
    await t?.ctx.db.sequelize.query(`DELETE FROM turnaround_targets WHERE test_name = :name`, { replacements: { name: TestName.Previotox } });
    await t?.close();
  });

  it('a clinic finds a completed sample by its barcode; the lab sees an overdue sample marked on its worklist', async () => {
    const { page: clinic } = await suite.newPage();
    const errors = collectPageErrors(clinic);
    await signIn(clinic, 'provider', DEMO_USERS.superAdmin.email);
    await clinic.goto(`/provider-clinic/${riversideId}/completed`);
    await clinic.getByRole('heading', { name: 'Completed tests', level: 1 }).waitFor();
    const search = clinic.getByRole('search', { name: 'Search this list' });
    await search.getByLabel('Search').fill(resulted.barcode);
    await search.getByRole('button', { name: 'Search' }).click();
    await clinic.getByText(`1 test matches “${resulted.barcode}”.`).waitFor();
    const rows = clinic.getByRole('table').getByRole('row');
    expect(await rows.count()).to.equal(2);
    await rows.nth(1).getByText(resulted.barcode).waitFor();
    await expectAccessible(clinic, 'completed tests: searched by barcode');

    const { page: lab } = await suite.newPage();
    const labErrors = collectPageErrors(lab);
    await signIn(lab, 'lab', DEMO_USERS.lab1.email);
    await lab.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Worklist' }).click();
    await lab.getByRole('heading', { name: 'Worklist', level: 1 }).waitFor();
    await lab.getByRole('button', { name: `Show only ${TestName.Previotox}` }).click();
    const row = lab.getByRole('table', { name: 'Worklist' }).getByRole('row', { name: new RegExp(overdue.barcode) });
    await row.getByText('Past target').waitFor();
    await row.getByText('In Testing').waitFor();
    expect(lab.url()).to.match(/\/lab_toolbox\/worklist\?test=PREVIOTOX$/);
    await expectAccessible(lab, 'worklist: one test, an overdue sample marked');
    expect([...errors, ...labErrors]).to.deep.equal([]);
  });
});
