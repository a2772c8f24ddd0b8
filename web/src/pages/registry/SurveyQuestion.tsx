import { Radio, Stack, Textarea } from '@mantine/core';
import type { FormErrors, UseFormReturnType } from '@mantine/form';
import { inLanguage, YES_NO_OTHER, YesNoOther, type SurveyQuestion as SurveyQuestionData } from '@platform/domain';
import { usePatientText } from '../../i18n/patient-language';

/** A survey's answers as its form holds them: the chosen option per question, and what "Other" means. */
export type SurveyValues = { answers: Record<string, string>; details: Record<string, string> };
type SurveyForm = UseFormReturnType<SurveyValues, SurveyValues, (values: SurveyValues) => FormErrors>;

/**
 * One question of a follow-up survey, in the patient's language: a scale's options, or Yes / No /
 * Other, where Other asks what it means.
 */
export function SurveyQuestion({ question: q, form }: { question: SurveyQuestionData; form: SurveyForm }) {
  const { t, language } = usePatientText();
  const shown = inLanguage(q, language);
  const options = shown.kind === 'scale'
    ? shown.options.map((label, i) => ({ value: String(i), label }))
    : YES_NO_OTHER.map((v) => ({ value: v, label: t(`answers.${v}`) }));
  const answer = form.getValues().answers[q.id];
  return (
    <Stack gap="xs">
      <Radio.Group label={shown.text} required withAsterisk={false} {...form.getInputProps(`answers.${q.id}`)} key={form.key(`answers.${q.id}`)} styles={{ label: { fontSize: 18, marginBottom: 8 } }}>
        <Stack gap={10}>
          {options.map((o) => (
            <Radio key={o.value} value={o.value} label={o.label} size="md" />
          ))}
        </Stack>
      </Radio.Group>
      {q.kind === 'yes-no-other' && answer === YesNoOther.Other && (
        <Textarea label={t('common.otherMeans')} autosize minRows={2} {...form.getInputProps(`details.${q.id}`)} key={form.key(`details.${q.id}`)} />
      )}
    </Stack>
  );
}
