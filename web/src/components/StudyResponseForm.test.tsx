import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { QuestionnaireDefinition, StudyResponseView } from '@platform/domain';
import { mockApi } from '../test/mock-api';
import { describedText, fillIn, pickOption } from '../test/fields';
import { renderPage } from '../test/render';
import { StudyResponseForm } from './StudyResponseForm';

const definition: QuestionnaireDefinition = {
  title: 'Mucositis follow-up',
  questions: [
    { key: 'anyToxicity', label: 'Any toxicity', kind: 'yesNoOther', required: true, section: 'Follow-up' },
    { key: 'toxicityDetails', label: 'Toxicity details', kind: 'text', maxLength: 500, required: true, section: 'Follow-up', showWhen: { question: 'anyToxicity', answers: ['Yes'] } },
    { key: 'startDate', label: 'Start date', kind: 'date', required: false, section: 'Dates' },
    { key: 'endDate', label: 'End date', kind: 'date', notBefore: 'startDate', required: false, section: 'Dates' },
  ],
};
const response: StudyResponseView = {
  id: 4, project: { id: 5, name: 'Mucositis study' }, questionnaire: { id: 9, version: 2, definition },
  participant: { id: 30, studyId: 'MS-0001', name: 'Study ID MS-0001', sex: null }, answers: {}, complete: false, missing: ['anyToxicity'],
  updatedAt: '2026-11-23T10:00:00Z', updatedBy: null,
};

describe('StudyResponseForm', () => {
  it("renders the version's questions, shows a conditional one only when the earlier answer says so, and checks answers as the API does", async () => {
    const user = userEvent.setup();
    const sent = mockApi({ 'POST /provider-research/3/study-responses/4/update': { body: { ...response, answers: { anyToxicity: 'No' }, complete: true, missing: [] } } });
    renderPage(<StudyResponseForm portal="research" accountId={3} response={response} />);
    expect(screen.getByText('Questionnaire version 2')).toBeTruthy();
    expect(screen.queryByLabelText(/Toxicity details/)).toBeNull();
    await pickOption(user, screen.getByRole('combobox', { name: /Any toxicity/ }), 'Yes');
    const details = await screen.findByLabelText(/Toxicity details/);
    await fillIn(user, details, 'Grade 2 mucositis');
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '2026-03-02' } });
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '2026-02-01' } });
    await user.click(screen.getByRole('button', { name: 'Save study response' }));
    // The domain's check, before anything is sent.
    await waitFor(() => expect(describedText(screen.getByLabelText('End date'))).toContain('End date must not be before the start date'));
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '' } });

    // Hidden again: its answer is cleared, not sent.
    await pickOption(user, screen.getByRole('combobox', { name: /Any toxicity/ }), 'No');
    await waitFor(() => expect(screen.queryByLabelText(/Toxicity details/)).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Save study response' }));
    await waitFor(() => expect(sent.filter((r) => r.method === 'POST')).toHaveLength(1));
    expect(sent.find((r) => r.method === 'POST')!.body).toEqual({ answers: { anyToxicity: 'No', toxicityDetails: null, startDate: '2026-03-02', endDate: null } });
  });
});
