/**
 * Turnaround in Chromium (issue 30, item 4): the lab's admin sets a test's target on the Turnaround
 * targets page; the Lab Toolbox's dashboard shows the test's figures against that target; a clinic's
 * provider reads its own Turnaround page. axe on each.
 */
import { expect } from 'chai';
import { TestName } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { makeSample, SampleStatus } from '../support/fixtures/lab';
import { signIn } from './pages';

describe('Turnaround pages (browser)', function () {
  this.timeout(120_000);
  const suite = browserSuite({ screenshotPrefix: 'turnaround' });
  let t: TestApp;
  let riversideId: number;

  before(async () => {
    t = await buildTestApp();
    // A released result and one still in testing: the dashboard has figures and an open sample.
    await makeSample(t.ctx.db, { status: SampleStatus.Resulted, tests: [TestName.ProstoxUltra] });
    await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    riversideId = (await t.ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
  });
  after(async () => {
    await t?.close();
  });

  it("sets a target, reads the lab's dashboard against it, and a clinic reads its own page", async () => {
    const { page: admin } = await suite.newPage();
    const errors = collectPageErrors(admin);
    await signIn(admin, 'admin', DEMO_USERS.admin.email);
    await admin.goto('/admin/provider/turnaround-targets');
    const targets = admin.getByRole('table', { name: 'Turnaround target by test' });
    const ultra = targets.getByRole('row', { name: /PROSTOX ultra/ });
    await ultra.getByRole('textbox', { name: 'Turnaround target of PROSTOX ultra' }).fill('2');
    await ultra.getByRole('button', { name: 'Save PROSTOX ultra' }).click();
    await admin.getByRole('alert').filter({ hasText: 'Turnaround target of PROSTOX ultra saved: 2 days' }).first().waitFor();
    await expectAccessible(admin, 'turnaround targets: a target saved');

    const { page: lab } = await suite.newPage();
    await signIn(lab, 'lab', DEMO_USERS.lab1.email);
    await lab.goto('/lab_toolbox/turnaround');
    await lab.getByRole('heading', { name: 'Turnaround', level: 1 }).waitFor();
    const byTest = lab.getByRole('table', { name: 'Turnaround by test' });
    await byTest.getByRole('row', { name: /PROSTOX ultra/ }).first().waitFor();
    const pastTarget = lab.getByRole('table', { name: 'Samples past target' }).getByRole('row', { name: /PROSTOX ultra/ });
    await pastTarget.getByText('2 days').waitFor();
    await expectAccessible(lab, 'turnaround: the lab dashboard');

    const { page: clinic } = await suite.newPage();
    await signIn(clinic, 'provider', DEMO_USERS.superAdmin.email);
    await clinic.goto(`/provider-clinic/${riversideId}/turnaround`);
    await clinic.getByRole('heading', { name: 'Turnaround', level: 1 }).waitFor();
    await clinic.getByRole('heading', { name: 'Overdue samples' }).waitFor();
    await expectAccessible(clinic, "turnaround: a clinic's own page");
    expect(errors).to.deep.equal([]);
  });
});
