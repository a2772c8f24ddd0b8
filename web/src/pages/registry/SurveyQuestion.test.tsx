import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from '@mantine/form';
import { afterEach, describe, expect, it } from 'vitest';
import { PROSTOX_REGISTRY_SURVEY, type SurveyQuestion as SurveyQuestionData } from '@platform/domain';
import { choosePatientLanguage } from '../../i18n/patient-language';
import { renderPage } from '../../test/render';
import { SurveyQuestion, type SurveyValues } from './SurveyQuestion';

const SCALE = PROSTOX_REGISTRY_SURVEY.find((q) => q.kind === 'scale')!;
const YES_NO_OTHER = PROSTOX_REGISTRY_SURVEY.find((q) => q.kind === 'yes-no-other')!;

/** The question alone, in a form of its own. */
function OneQuestion({ question }: { question: SurveyQuestionData }) {
  const form = useForm<SurveyValues>({ initialValues: { answers: { [question.id]: '' }, details: { [question.id]: '' } }, validate: () => ({}) });
  return <SurveyQuestion question={question} form={form} />;
}

const renderQuestion = (question: SurveyQuestionData) => renderPage(<OneQuestion question={question} />);

describe('SurveyQuestion', () => {
  afterEach(() => choosePatientLanguage('en'));

  it('a scale question offers its options in order, and one is chosen', async () => {
    const user = userEvent.setup();
    renderQuestion(SCALE);
    const group = screen.getByRole('radiogroup', { name: SCALE.text });
    const radios = within(group).getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.labels?.[0]?.textContent)).toEqual([...(SCALE.kind === 'scale' ? SCALE.options : [])]);
    await user.click(radios[1]);
    expect(radios.map((r) => r.checked)).toEqual(radios.map((_, i) => i === 1));
  });

  it('a yes / no / other question asks what "Other" means only once Other is chosen', async () => {
    const user = userEvent.setup();
    renderQuestion(YES_NO_OTHER);
    const group = screen.getByRole('radiogroup', { name: YES_NO_OTHER.text });
    expect(within(group).getAllByRole('radio').map((r) => (r as HTMLInputElement).labels?.[0]?.textContent)).toEqual(['Yes', 'No', 'Other']);
    expect(screen.queryByRole('textbox')).toBeNull();
    await user.click(within(group).getByRole('radio', { name: 'Other' }));
    await user.type(screen.getByRole('textbox', { name: 'Please say what “Other” means' }), 'Only at night');
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).value).toBe('Only at night');
    await user.click(within(group).getByRole('radio', { name: 'No' }));
    expect(screen.queryByRole('textbox')).toBeNull();
  });

  it('asks in Spanish when the patient reads Spanish', () => {
    choosePatientLanguage('es');
    renderQuestion(SCALE);
    expect(screen.getByRole('radiogroup', { name: SCALE.es!.text })).toBeTruthy();
  });
});
