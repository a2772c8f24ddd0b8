import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { FOLLOW_UP_LINK_MESSAGES, PROSTOX_REGISTRY_SURVEY } from '@platform/domain';
import { ErrorModalHost } from '../../components/ErrorModalHost';
import { closeErrorModal } from '../../shell/error-modal-store';
import { apiRefusal, mockApi, type MockHandler } from '../../test/mock-api';
import { renderPage } from '../../test/render';
import { RegistrySurveyPage } from './RegistrySurveyPage';

const TOKEN = 'ab'.repeat(32);
const SURVEY = '/registry/study/prostox/55/follow-up-survey';

function surveyApi(get: MockHandler, post?: MockHandler) {
  return mockApi({ [`GET ${SURVEY}?token=${TOKEN}`]: get, ...(post ? { [`POST ${SURVEY}`]: post } : {}) });
}

const renderSurvey = (token: string | null = TOKEN) =>
  renderPage(<><RegistrySurveyPage /><ErrorModalHost /></>, {
    path: '/registry/study/prostox/:sampleId/survey/new',
    route: `/registry/study/prostox/55/survey/new${token ? `?token=${token}` : ''}`,
  });

/** Answers every question: the second option of each (scale 1, or No). */
async function answerAll(user: ReturnType<typeof userEvent.setup>) {
  for (const q of PROSTOX_REGISTRY_SURVEY) {
    const group = screen.getByRole('radiogroup', { name: q.text });
    await user.click(within(group).getByRole('radio', { name: q.kind === 'scale' ? q.options[1] : 'No' }));
  }
}

describe('RegistrySurveyPage', () => {
  afterEach(() => closeErrorModal());

  it('greets the patient, asks every question, and sends the answers once', async () => {
    const sent = surveyApi({ body: { firstName: 'Walter', months: 6, study: 'prostox' } }, { status: 201, body: { answeredAt: '2027-01-01T00:00:00.000Z' } });
    const user = userEvent.setup();
    renderSurvey();
    expect(await screen.findByRole('heading', { name: 'Hello Walter.' })).toBeTruthy();
    expect(screen.getByText(/6-month follow-up survey/)).toBeTruthy();
    expect(screen.getAllByRole('radiogroup')).toHaveLength(PROSTOX_REGISTRY_SURVEY.length);

    // Nothing answered: each question says so, nothing is sent.
    await user.click(screen.getByRole('button', { name: 'Send my answers' }));
    expect(screen.getAllByText('Choose one answer').length).toBeGreaterThan(0);
    expect(sent.some((r) => r.method === 'POST')).toBe(false);

    await answerAll(user);
    // "Other" asks what it means.
    const pads = screen.getByRole('radiogroup', { name: PROSTOX_REGISTRY_SURVEY[1].text });
    await user.click(within(pads).getByRole('radio', { name: 'Other' }));
    await user.click(screen.getByRole('button', { name: 'Send my answers' }));
    expect(await screen.findByText('Please say what "Other" means')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Please say what “Other” means' }), 'Only at night');
    await user.click(screen.getByRole('button', { name: 'Send my answers' }));

    expect(await screen.findByRole('heading', { name: 'Thank you' })).toBeTruthy();
    const post = sent.find((r) => r.method === 'POST')!;
    expect(post.body).toMatchObject({ token: TOKEN, answers: { urineLeaks: 1, urinePads: 'Other', sawDoctor: 'No' }, details: { urinePads: 'Only at night' } });
  });

  it('a link already used says so, with no error modal', async () => {
    surveyApi(apiRefusal(409, 'link_used', FOLLOW_UP_LINK_MESSAGES.answered));
    renderSurvey();
    expect(await screen.findByRole('heading', { name: 'Already answered' })).toBeTruthy();
    expect(screen.getByText(FOLLOW_UP_LINK_MESSAGES.answered)).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('an expired link says so; a link without a token does not work', async () => {
    surveyApi(apiRefusal(410, 'link_expired', FOLLOW_UP_LINK_MESSAGES.expired));
    const { unmount } = renderSurvey();
    expect(await screen.findByText(FOLLOW_UP_LINK_MESSAGES.expired)).toBeTruthy();
    unmount();
    renderSurvey(null);
    await waitFor(() => expect(screen.getByText(FOLLOW_UP_LINK_MESSAGES.invalid)).toBeTruthy());
  });
});
