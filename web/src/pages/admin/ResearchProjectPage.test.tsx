import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminResearchProjectView, QuestionnaireDefinition } from '@platform/domain';
import { apiRefusal, mockApi } from '../../test/mock-api';
import { describedText, fillIn } from '../../test/fields';
import { renderPage } from '../../test/render';
import { ResearchProjectPage } from './ResearchProjectPage';

const project: AdminResearchProjectView = {
  id: 7, name: 'Mucositis study', tests: ['HEAD AND NECK'], accounts: [{ id: 3, name: 'Northwind Research' }], publishedVersion: null, hasDraft: false,
  participants: 0, closedAt: null, createdAt: '2026-11-20T10:00:00Z', protocol: null, consentDocument: null, closedBy: null, versions: [],
};

const BUILT: QuestionnaireDefinition = {
  title: 'Mucositis follow-up',
  questions: [
    { key: 'anyToxicity', label: 'Any toxicity', kind: 'yesNoOther', required: true, section: 'Study data' },
    { key: 'toxicityDetails', label: 'Toxicity details', kind: 'text', maxLength: 2000, required: true, section: 'Study data', showWhen: { question: 'anyToxicity', answers: ['Yes'] } },
  ],
};

const renderProject = () => renderPage(<ResearchProjectPage />, { path: '/admin/provider/research-projects/:projectId', route: '/admin/provider/research-projects/7' });
const question = (n: number) => screen.getByRole('region', { name: `Question ${n}` });

describe('ResearchProjectPage: the questionnaire builder', () => {
  it('builds a questionnaire with a conditional question and saves it as the draft', async () => {
    const user = userEvent.setup();
    let current = project;
    const sent = mockApi({
      'GET /admin/research-projects/7': () => ({ body: current }),
      'PUT /admin/research-projects/7/questionnaire/draft': (body) => {
        const definition = (body as { definition: QuestionnaireDefinition }).definition;
        current = { ...project, hasDraft: true, versions: [{ id: 1, version: 1, definition, publishedAt: null, publishedBy: null, responses: 0, updatedAt: '2026-11-21T10:00:00Z' }] };
        return { body: current };
      },
    });
    renderProject();
    expect(await screen.findByRole('heading', { level: 2, name: 'Questionnaire: new version 1' })).toBeTruthy();
    await fillIn(user, screen.getByLabelText(/Questionnaire title/), 'Mucositis follow-up');
    await fillIn(user, within(question(1)).getByLabelText(/^Question 1\W*$/), 'Any toxicity');
    // The key follows the label.
    expect((within(question(1)).getByLabelText(/Key of question 1/) as HTMLInputElement).value).toBe('anyToxicity');
    await user.click(screen.getByRole('button', { name: 'Add question' }));
    await fillIn(user, within(question(2)).getByLabelText(/^Question 2\W*$/), 'Toxicity details');
    await user.selectOptions(within(question(2)).getByLabelText('Kind of question 2'), 'text');
    await user.selectOptions(within(question(2)).getByLabelText('Question 2 is shown'), 'anyToxicity');
    await user.click(within(question(2)).getByRole('checkbox', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Save draft' }));

    await waitFor(() => expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(sent.find((r) => r.method === 'PUT')!.body).toEqual({ definition: BUILT });
    expect(await screen.findByRole('heading', { level: 2, name: 'Questionnaire: draft of version 1' })).toBeTruthy();
  });

  it("shows the domain's problems on their fields before anything is sent, and the server's field messages too", async () => {
    const user = userEvent.setup();
    const sent = mockApi({
      'GET /admin/research-projects/7': { body: project },
      'PUT /admin/research-projects/7/questionnaire/draft': apiRefusal(400, 'validation_failed', 'Key anyToxicity is used by an earlier question', [
        { field: 'definition.questions.0.key', message: 'Key is taken elsewhere' },
      ]),
    });
    renderProject();
    await screen.findByRole('heading', { level: 2, name: 'Questionnaire: new version 1' });
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(describedText(screen.getByLabelText(/Questionnaire title/))).toContain('Title is required');
    expect(describedText(within(question(1)).getByLabelText(/^Question 1\W*$/))).toContain('Question is required');
    expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(0);

    // A condition on a question that offers no such answer: refused here too.
    await fillIn(user, screen.getByLabelText(/Questionnaire title/), 'Follow-up');
    await fillIn(user, within(question(1)).getByLabelText(/^Question 1\W*$/), 'Any toxicity');
    await user.click(screen.getByRole('button', { name: 'Add question' }));
    await fillIn(user, within(question(2)).getByLabelText(/^Question 2\W*$/), 'Details');
    await user.selectOptions(within(question(2)).getByLabelText('Question 2 is shown'), 'anyToxicity');
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(await screen.findByText(/Shown only when needs one or more answers of Any toxicity/)).toBeTruthy();
    expect(sent.filter((r) => r.method === 'PUT')).toHaveLength(0);

    await user.click(within(question(2)).getByRole('checkbox', { name: 'Other' }));
    await user.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(describedText(within(question(1)).getByLabelText(/Key of question 1/))).toContain('Key is taken elsewhere'));
  });

  it('publishes after saying what publishing means, and lists the versions', async () => {
    const user = userEvent.setup();
    const published = { ...project, publishedVersion: 1, versions: [{ id: 1, version: 1, definition: BUILT, publishedAt: '2026-11-21T10:00:00Z', publishedBy: 'Ada Admin', responses: 0, updatedAt: '2026-11-21T10:00:00Z' }] };
    const draft = { ...project, hasDraft: true, versions: [{ ...published.versions[0], publishedAt: null, publishedBy: null }] };
    let current: AdminResearchProjectView = draft;
    const sent = mockApi({
      'GET /admin/research-projects/7': () => ({ body: current }),
      'PUT /admin/research-projects/7/questionnaire/draft': { body: draft },
      'POST /admin/research-projects/7/questionnaire/publish': () => {
        current = published;
        return { body: published };
      },
    });
    renderProject();
    expect(await screen.findByRole('heading', { level: 2, name: 'Questionnaire: draft of version 1' })).toBeTruthy();
    expect((within(question(2)).getByLabelText(/^Question 2\W*$/) as HTMLInputElement).value).toBe('Toxicity details');
    await user.click(screen.getByRole('button', { name: 'Publish version 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish version 1?' });
    expect(dialog.textContent).toContain('will never change once published');
    await user.click(within(dialog).getByRole('button', { name: 'Publish version 1' }));
    await waitFor(() => expect(sent.map((r) => `${r.method} ${r.path}`)).toContain('POST /admin/research-projects/7/questionnaire/publish'));
    const versions = await screen.findByRole('table', { name: 'Questionnaire versions' });
    expect(within(versions).getByText(/Published .* by Ada Admin/)).toBeTruthy();
    expect(await screen.findByRole('heading', { level: 2, name: 'Questionnaire: new version 2' })).toBeTruthy();
  });
});
