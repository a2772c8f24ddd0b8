import { useState } from 'react';
import { Button, List, Radio, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  ELIGIBILITY_QUESTIONS, YES_NO_OTHER, type EligibilityAnswer, type EligibilityAnswers, type EligibilityProblem, type EligibilityQuestion,
  type PatientProduct,
} from '@platform/domain';
import { askEligibility } from '../../api/patient-portal';
import { FormError } from '../../components/FormError';
import { Notice } from '../../components/Notice';
import { useFormSubmit } from '../../forms/use-form-submit';

export const NOT_ELIGIBLE_TITLE = 'This test is not the right next step for you';
export const NOTHING_CHARGED = 'Nothing has been ordered and nothing has been charged.';

const blankAnswers = (product: PatientProduct): EligibilityAnswers =>
  Object.fromEntries(ELIGIBILITY_QUESTIONS[product].map((q) => [q.id, '']));

/**
 * Step 1: the product's eligibility questions (domain data), checked by the server. An ineligible
 * answer shows each reason and what to do instead, and the order stops there.
 */
export function EligibilityStep({ product, answers, onEligible }: {
  product: PatientProduct;
  answers: EligibilityAnswers | null;
  onEligible: (answers: EligibilityAnswers, result: EligibilityAnswer) => void;
}) {
  const questions = ELIGIBILITY_QUESTIONS[product];
  const [problems, setProblems] = useState<EligibilityProblem[] | null>(null);
  const form = useForm<EligibilityAnswers>({
    initialValues: answers ?? blankAnswers(product),
    validate: Object.fromEntries(questions.map((q) => [q.id, (v: string) => (v ? null : 'Please answer this question')])),
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
    <form onSubmit={sending.onSubmit} noValidate aria-label="Eligibility questions">
      <Stack gap="lg">
        <Text>Answer a few questions so we can check that this test is right for you.</Text>
        {questions.map((q) => (
          <Question key={q.id} question={q} value={form.getValues()[q.id] ?? ''} error={form.errors[q.id]} onChange={(v) => answer(q.id, v)} />
        ))}
        {problems && problems.length > 0 && (
          <Notice color="orange" title={NOT_ELIGIBLE_TITLE}>
            <Stack gap="sm" mt={4} data-testid="eligibility-problems">
              <List spacing="sm">
                {problems.map((p) => (
                  <List.Item key={p.questionId}>
                    <Text fw={600}>{p.reason}</Text>
                    <Text>{p.guidance}</Text>
                  </List.Item>
                ))}
              </List>
              <Text>{NOTHING_CHARGED}</Text>
            </Stack>
          </Notice>
        )}
        <FormError error={sending.error} />
        <Button type="submit" size="lg" fullWidth loading={sending.submitting} disabled={problems !== null && problems.length > 0}>
          Check my answers
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
  const options = question.kind === 'yes-no-other'
    ? YES_NO_OTHER.map((v) => ({ value: v, label: v, hint: undefined as string | undefined }))
    : question.options.map((o) => ({ value: o.value, label: o.label, hint: o.hint }));
  return (
    <Radio.Group label={question.text} description={question.hint} value={value} onChange={onChange} error={error} withAsterisk size="md">
      <Stack gap="xs" mt="xs">
        {options.map((o) => (
          <Radio key={o.value} value={o.value} label={o.label} description={o.hint} size="md" />
        ))}
      </Stack>
    </Radio.Group>
  );
}
