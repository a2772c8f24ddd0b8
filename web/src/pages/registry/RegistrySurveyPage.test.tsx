import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { FOLLOW_UP_LINK_MESSAGES, PROSTOX_REGISTRY_SURVEY, SURVEY_SECTIONS } from '@platform/domain';
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

describe('RegistrySurveyPage', () => {
  afterEach(() => closeErrorModal());

  // Each question's renderer is tested on its own (SurveyQuestion.test.tsx); answering the whole
  // survey and sending it once is the browser suite's (test/e2e/registry-survey.test.ts).
  it('greets the patient, asks every question by section, and sends nothing while any is unanswered', async () => {
    const sent = surveyApi({ body: { firstName: 'Walter', months: 6, study: 'prostox' } }, { status: 201, body: { answeredAt: '2027-01-01T00:00:00.000Z' } });
    const user = userEvent.setup();
    renderSurvey();
    expect(await screen.findByRole('heading', { name: 'Hello Walter.' })).toBeTruthy();
    expect(screen.getByText(/6-month follow-up survey/)).toBeTruthy();
    for (const section of SURVEY_SECTIONS) {
      const questions = PROSTOX_REGISTRY_SURVEY.filter((q) => q.section === section);
      expect(within(screen.getByRole('region', { name: section })).getAllByRole('radiogroup')).toHaveLength(questions.length);
    }

    await user.click(screen.getByRole('button', { name: 'Send my answers' }));
    expect(screen.getAllByText(/^(Choose one answer|Choose Yes, No or Other)$/)).toHaveLength(PROSTOX_REGISTRY_SURVEY.length);
    expect(sent.some((r) => r.method === 'POST')).toBe(false);
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
