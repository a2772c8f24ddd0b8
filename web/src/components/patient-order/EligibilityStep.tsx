import { useState } from 'react';
import { Button, List, Radio, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  ELIGIBILITY_QUESTIONS, en, inLanguage, YES_NO_OTHER, type EligibilityAnswer, type EligibilityAnswers, type EligibilityProblem, type EligibilityQuestion,
  type PatientProduct,
} from '@platform/domain';
import { askEligibility } from '../../api/patient-portal';
import { FormError } from '../FormError';
import { Notice } from '../Notice';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';

export const NOT_ELIGIBLE_TITLE = en.order.eligibility.notEligibleTitle;
export const NOTHING_CHARGED = en.order.eligibility.nothingCharged;

const blankAnswers = (product: PatientProduct): EligibilityAnswers =>
  Object.fromEntries(ELIGIBILITY_QUESTIONS[product].map((q) => [q.id, '']));

/**
 * Step 1: the product's eligibility questions (domain data), checked by the server. An ineligible
 * answer shows each reason and what to do instead, and the order stops there. The questions'
 * words in the page's language come from the same data (their `es` texts).
 */
export function EligibilityStep({ product, answers, onEligible }: {
  product: PatientProduct;
  answers: EligibilityAnswers | null;
  onEligible: (answers: EligibilityAnswers, result: EligibilityAnswer) => void;
}) {
  const questions = ELIGIBILITY_QUESTIONS[product];
  const { t, language } = usePatientText();
  const [problems, setProblems] = useState<EligibilityProblem[] | null>(null);
  const form = useForm<EligibilityAnswers>({
    initialValues: answers ?? blankAnswers(product),
    validate: Object.fromEntries(questions.map((q) => [q.id, (v: string) => (v ? null : t('order.eligibility.answerThis'))])),
  });
  const sending = useFormSubmit(form, (values) => askEligibility(product, values), {
    // The server names answers as answers.<question id>.
    fieldOf: (field) => {
      const id = field.replace(/^answers\./, '');
      return questions.some((q) => q.id === id) ? id : undefined;
    },
    onSuccess: (result, values) => {
      if (result.eligible) onEligible(values, result);
      else setProblems(result.problems);
    },
  });

  const answer = (id: string, value: string) => {
    form.setFieldValue(id, value);
    form.clearFieldError(id);
    setProblems(null); // a changed answer is asked about again
  };

  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label={t('order.eligibility.formLabel')}>
      <Stack gap="lg">
        <Text>{t('order.eligibility.intro')}</Text>
        {questions.map((q) => (
          <Question key={q.id} question={q} value={form.getValues()[q.id] ?? ''} error={form.errors[q.id]} onChange={(v) => answer(q.id, v)} />
        ))}
        {problems && problems.length > 0 && (
          <Notice color="orange" title={t('order.eligibility.notEligibleTitle')}>
            <Stack gap="sm" mt={4} data-testid="eligibility-problems">
              <List spacing="sm">
                {problems.map((p) => {
                  // The server's reason in English; the question's own data in the page's language.
                  const q = questions.find((x) => x.id === p.questionId);
                  const words = q?.kind === 'yes-no-other' && language !== 'en' ? q.es : { ineligibleReason: p.reason, guidance: p.guidance };
                  return (
                    <List.Item key={p.questionId}>
                      <Text fw={600}>{words.ineligibleReason}</Text>
                      <Text>{words.guidance}</Text>
                    </List.Item>
                  );
                })}
              </List>
              <Text>{t('order.eligibility.nothingCharged')}</Text>
            </Stack>
          </Notice>
        )}
        <FormError error={sending.error} />
        <Button type="submit" size="lg" fullWidth loading={sending.submitting} disabled={problems !== null && problems.length > 0}>
          {t('order.eligibility.check')}
        </Button>
      </Stack>
    </form>
  );
}

function Question({ question, value, error, onChange }: {
  question: EligibilityQuestion;
  value: string;
  error: React.ReactNode;
  onChange: (value: string) => void;
}) {
  const { t, language } = usePatientText();
  const shown = inLanguage(question, language);
  const options = question.kind === 'yes-no-other'
    ? YES_NO_OTHER.map((v) => ({ value: v, label: t(`answers.${v}`), hint: undefined as string | undefined }))
    : question.options.map((o) => inLanguage(o, language));
  return (
    <Radio.Group label={shown.text} description={shown.hint} value={value} onChange={onChange} error={error} withAsterisk size="md">
      <Stack gap="xs" mt="xs">
        {options.map((o) => (
          <Radio key={o.value} value={o.value} label={o.label} description={o.hint} size="md" />
        ))}
      </Stack>
    </Radio.Group>
  );
}
