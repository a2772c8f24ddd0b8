/**
 * Research studies the lab sets up itself (issue 31, item 3), in Chromium on the real API: the
 * lab's admin creates a project for a research account from the admin home, builds its
 * questionnaire with a conditional question in the form builder, and publishes version 1; the
 * research provider orders for a participant and answers the questionnaire on the order page: the
 * conditional question appears only once the earlier answer says so. axe on each page.
 */
import { expect } from 'chai';
import { TestName } from '@platform/domain';
import { DEMO_USERS } from '../../scripts/demo-users';
import { browserSuite, collectPageErrors, expectAccessible, screenshot } from '../support/browser';
import { buildTestApp, type TestApp } from '../support/http';
import { createResearchSite, uniqueStudyId, type TestResearchSite } from '../support/fixtures/research';
import { TEST_PASSWORD } from '../support/fixtures/clinic';
import { signIn } from './pages';

describe('research studies: the admin builds a questionnaire, a research provider answers it (browser)', function () {
  this.timeout(180_000);
  const suite = browserSuite({ screenshotPrefix: 'research-studies' });
  let t: TestApp;
  let site: TestResearchSite;

  before(async () => {
    t = await buildTestApp();
    site = await createResearchSite(t.ctx, t.app, 'Nimbus Research');
  });
  after(async () => {
    await t?.close();
  });

  it('the admin creates the project and publishes a questionnaire with a conditional question; the provider orders and answers it', async () => {
    const projectName = `Mucositis study ${site.accountId}`;

    // 1. The admin opens Research projects from the admin home and creates the project.
    const { page: A } = await suite.newPage();
    const adminErrors = collectPageErrors(A);
    await signIn(A, 'admin', DEMO_USERS.admin.email);
    await A.getByRole('list', { name: 'Administration areas' }).getByRole('link', { name: /Research projects/ }).click();
    await A.getByRole('heading', { name: 'Research projects', level: 1 }).waitFor();
    await expectAccessible(A, 'research projects: the list and a new project');
    await A.getByRole('textbox', { name: /Project name/ }).fill(projectName);
    const accounts = A.getByRole('combobox', { name: 'Accounts taking part' });
    await accounts.fill(site.name);
    await A.getByRole('option', { name: site.name }).click();
    await A.getByRole('checkbox', { name: TestName.HeadAndNeck }).check();
    await A.getByRole('button', { name: 'Create project' }).click();
    await A.getByRole('heading', { name: projectName, level: 1 }).waitFor();

    // 2. The builder: a yes/no/other question, then details asked only when it is Yes.
    await A.getByRole('heading', { name: 'Questionnaire: new version 1' }).waitFor();
    await A.getByRole('textbox', { name: /Questionnaire title/ }).fill('Mucositis follow-up');
    const q1 = A.getByRole('region', { name: 'Question 1', exact: true });
    await q1.getByRole('textbox', { name: /^Question 1\W*$/ }).fill('Any acute toxicity');
    await A.getByRole('button', { name: 'Add question' }).click();
    const q2 = A.getByRole('region', { name: 'Question 2', exact: true });
    await q2.getByRole('textbox', { name: /^Question 2\W*$/ }).fill('Toxicity details');
    await q2.getByRole('combobox', { name: 'Kind of question 2' }).selectOption('text');
    await q2.getByRole('combobox', { name: 'Question 2 is shown' }).selectOption('anyAcuteToxicity');
    await q2.getByRole('checkbox', { name: 'Yes' }).check();
    await A.getByRole('button', { name: 'Save draft' }).click();
    await A.getByRole('heading', { name: 'Questionnaire: draft of version 1' }).waitFor();
    await expectAccessible(A, 'research project: the builder with a draft');
    await A.getByRole('button', { name: 'Publish version 1' }).click();
    const dialog = A.getByRole('dialog', { name: 'Publish version 1?' });
    await dialog.getByRole('button', { name: 'Publish version 1' }).click();
    await A.getByRole('table', { name: 'Questionnaire versions' }).getByText(/Published .* by Ada Admin/).waitFor();
    await A.getByRole('heading', { name: 'Questionnaire: new version 2' }).waitFor();
    await screenshot(A, 'research-studies-published');
    expect(adminErrors).to.deep.equal([]);

    // 3. The research provider orders for a participant of the new project and answers its questionnaire there.
    const { page: R } = await suite.newPage();
    const providerErrors = collectPageErrors(R);
    await signIn(R, 'research', site.email, TEST_PASSWORD);
    await R.getByRole('navigation', { name: 'Research Portal' }).getByRole('link', { name: 'Order' }).click();
    await R.getByRole('heading', { name: 'Order a research test' }).waitFor();
    await R.getByRole('combobox', { name: /Research project/ }).click();
    await R.getByRole('option', { name: projectName }).click();
    const studyId = uniqueStudyId('MUC');
    await R.getByRole('textbox', { name: /Study ID/ }).fill(studyId);
    await R.getByRole('checkbox', { name: TestName.HeadAndNeck }).check();
    await R.getByRole('checkbox', { name: /Informed consent has been obtained/ }).check();
    await R.getByRole('checkbox', { name: /supporting this order/ }).check();
    await R.getByRole('button', { name: 'Place order' }).click();
    await R.getByText(`Study ID ${studyId} (new)`).waitFor();
    const form = R.getByRole('form', { name: `Mucositis follow-up: ${projectName}` });
    await form.getByText('Questionnaire version 1').waitFor();
    expect(await form.getByLabel(/Toxicity details/).count(), 'asked only once the toxicity answer is Yes').to.equal(0);
    await form.getByRole('combobox', { name: /Any acute toxicity/ }).click();
    await R.getByRole('option', { name: 'Yes', exact: true }).click();
    await form.getByRole('textbox', { name: /Toxicity details/ }).fill('Grade 2 oral mucositis from week 4');
    await expectAccessible(R, 'research order: the questionnaire with its conditional question shown');
    await form.getByRole('button', { name: 'Save study response' }).click();
    await R.getByText('Study Response Updated Successfully').first().waitFor();

    const project = (await t.ctx.db.models.ResearchProject.findOne({ where: { name: projectName } }))!;
    const response = (await t.ctx.db.models.StudyResponse.findOne({ where: { researchProjectId: project.id }, include: [{ model: t.ctx.db.models.QuestionnaireVersion, as: 'questionnaireVersion' }] }))!;
    expect(response.complete).to.equal(true);
    expect(response.answers).to.deep.equal({ anyAcuteToxicity: 'Yes', toxicityDetails: 'Grade 2 oral mucositis from week 4' });
    expect(response.questionnaireVersion!.version).to.equal(1);
    await screenshot(R, 'research-studies-answered');
    expect(providerErrors).to.deep.equal([]);
  });
});
