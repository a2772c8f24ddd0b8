/**
 * One participant's study response, as a form built from the questionnaire version it was given
 * under (the definition comes with the response): the research provider and a clinic taking part
 * fill the same form. A question with a condition is shown only while the earlier answer it names
 * says so (a hidden one is never required, and its answer is cleared when saved). Answers may be
 * saved bit by bit; before sending, the form runs the domain's applyStudyAnswers, the same check
 * the API runs, so its messages land on their questions; the server's field messages do too; any
 * other failure opens the error modal ('Failed to update study response'). A success says 'Study
 * Response Updated Successfully' (a toast in the provider layout, and on the form itself).
 */
import { useState } from 'react';
import { Badge, Button, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  applyStudyAnswers, isQuestionShown, questionOptions, STUDY_RESPONSE_MESSAGES, type QuestionnaireDefinition, type StudyAnswerChanges, type StudyQuestion,
} from '@platform/domain';
import { ApiError } from '../api/fetcher';
import { updateStudyResponse, useRefreshStudy, type StudyPortal, type StudyResponseView } from '../api/research';
import { useFormSubmit } from '../forms/use-form-submit';
import { reportError } from '../shell/report-error';
import { showSuccessToast } from '../shell/success-toast';
import { FormError } from './FormError';
import { Notice } from './Notice';

type Values = Record<string, string>;

const asText = (v: unknown) => (v === undefined || v === null ? '' : String(v));

/** The form's text back into answers: numbers as numbers; an empty field, or a question its condition hides, clears its answer. */
export function answersOf(definition: QuestionnaireDefinition, values: Values): StudyAnswerChanges {
  const typed: StudyAnswerChanges = Object.fromEntries(definition.questions.map((q) => {
    const v = (values[q.key] ?? '').trim();
    if (v === '') return [q.key, null];
    return [q.key, q.kind === 'number' ? Number(v) : v];
  }));
  for (const q of definition.questions) if (!isQuestionShown(definition, q, typed)) typed[q.key] = null;
  return typed;
}

export function StudyResponseForm({ portal, accountId, response, onSaved }: {
  portal: StudyPortal;
  accountId: number;
  response: StudyResponseView;
  onSaved?: (saved: StudyResponseView) => void;
}) {
  const questionnaire = response.questionnaire.definition;
  const refresh = useRefreshStudy(portal, accountId);
  const [saved, setSaved] = useState(false);
  const form = useForm<Values>({
    initialValues: Object.fromEntries(questionnaire.questions.map((q) => [q.key, asText(response.answers[q.key])])),
    // The API's own check of the answers against this version, run here first.
    validate: (values) => Object.fromEntries(
      applyStudyAnswers(questionnaire, response.answers, answersOf(questionnaire, values)).problems.map((p) => [p.field.replace(/^answers\./, ''), p.message]),
    ),
  });
  const sending = useFormSubmit(form, (values) => updateStudyResponse(portal, accountId, response.id, { answers: answersOf(questionnaire, values) }), {
    fieldOf: (field) => {
      const key = field.replace(/^answers\./, '');
      return questionnaire.questions.some((q) => q.key === key) ? key : undefined;
    },
    onSuccess: async (result) => {
      setSaved(true);
      showSuccessToast(STUDY_RESPONSE_MESSAGES.updated);
      onSaved?.(result);
      await refresh();
    },
    onError: (error, placed) => {
      setSaved(false);
      if (!(error instanceof ApiError && error.status === 400 && placed)) reportError(error, STUDY_RESPONSE_MESSAGES.updateFailed);
    },
  });
  const current = answersOf(questionnaire, form.getValues());
  const shown = questionnaire.questions.filter((q) => isQuestionShown(questionnaire, q, current));
  const sections = [...new Set(shown.map((q) => q.section))];
  const headingId = `study-response-${response.id}`;
  return (
    <form onSubmit={sending.onSubmit} aria-labelledby={headingId} noValidate>
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} fz="md" id={headingId}>
            {questionnaire.title}: {response.project.name}
          </Title>
          <Text fz="xs" c="dimmed">Questionnaire version {response.questionnaire.version}</Text>
          <Badge color={response.complete ? 'green' : 'orange'} variant="light">
            {response.complete ? 'Complete' : `Incomplete: ${response.missing.length} required ${response.missing.length === 1 ? 'answer' : 'answers'} missing`}
          </Badge>
        </Group>
        {sections.map((section) => (
          <fieldset key={section} style={{ border: 0, padding: 0, margin: 0 }}>
            <Text component="legend" fw={600} mb="xs">
              {section}
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              {shown.filter((q) => q.section === section).map((q) => (
                <QuestionField key={q.key} question={q} props={form.getInputProps(q.key)} onChange={() => setSaved(false)} />
              ))}
            </SimpleGrid>
          </fieldset>
        ))}
        {saved && <Notice color="green">{STUDY_RESPONSE_MESSAGES.updated}</Notice>}
        <FormError title={STUDY_RESPONSE_MESSAGES.updateFailed} error={sending.error instanceof ApiError && sending.error.status === 400 ? sending.error : undefined} />
        <Group justify="flex-end">
          <Button type="submit" loading={sending.submitting}>
            Save study response
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type InputProps = ReturnType<ReturnType<typeof useForm<Values>>['getInputProps']>;

function QuestionField({ question: q, props, onChange }: { question: StudyQuestion; props: InputProps; onChange: () => void }) {
  const common = {
    label: q.label,
    description: q.help,
    withAsterisk: q.required,
    error: props.error as string | undefined,
    onBlur: props.onBlur as () => void,
  };
  const set = (value: string) => {
    (props.onChange as (v: string) => void)(value);
    onChange();
  };
  const value = (props.value as string) ?? '';
  switch (q.kind) {
    case 'yesNoOther':
    case 'choice':
      return <Select {...common} data={[...questionOptions(q)]} value={value || null} onChange={(v) => set(v ?? '')} clearable placeholder="Choose" />;
    case 'number':
      return (
        <NumberInput
          {...common}
          value={value === '' ? '' : Number(value)}
          onChange={(v) => set(v === '' ? '' : String(v))}
          min={q.min}
          max={q.max}
          allowDecimal={!q.integer}
          decimalScale={q.integer ? 0 : 2}
          rightSection={<Text fz="xs" c="dimmed" pr="xs">{q.unit === 'fractions' ? '' : q.unit}</Text>}
        />
      );
    case 'date':
      return <TextInput {...common} type="date" value={value} onChange={(e) => set(e.currentTarget.value)} />;
    case 'text':
      return <Textarea {...common} value={value} onChange={(e) => set(e.currentTarget.value)} maxLength={q.maxLength} autosize minRows={2} />;
  }
}
