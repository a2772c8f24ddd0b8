/**
 * The admin's form builder of a research questionnaire: its title and questions, each with its
 * kind (the kinds of STUDY_QUESTION_KINDS), whether it is required, its section, its kind's
 * settings, and when it is shown (always, or only when an earlier yes/no/other or choice question
 * has one of the answers ticked). Questions are added, moved and removed. The problems shown are
 * the domain's describeDefinitionProblems (the check the server runs before it saves a draft), or
 * the server's own field messages: `errors` by path ('questions.2.label').
 */
import { Button, Card, Checkbox, Group, NativeSelect, NumberInput, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import {
  questionOptions, STUDY_QUESTION_KIND_LABELS, STUDY_QUESTION_KINDS, STUDY_TEXT_MAX_LENGTH, type QuestionnaireDefinition, type StudyQuestion, type StudyQuestionKind,
} from '@platform/domain';
import { AA_COLORS } from '../../status-colors';

export type DefinitionErrors = Record<string, string>;

/** The key a label suggests: its words in camelCase, letters and digits only ('Total dose (Gy)' → 'totalDoseGy'). */
export function keyFromLabel(label: string): string {
  const words = label.normalize('NFKD').replace(/[^A-Za-z0-9 ]+/g, ' ').trim().split(/\s+/).filter(Boolean);
  const key = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1).toLowerCase())).join('');
  return (/^[a-z]/.test(key) ? key : `q${key}`).slice(0, 40);
}

/** A new question of a kind, its kind's settings at their usual values. */
export function newQuestion(kind: StudyQuestionKind, base: Pick<StudyQuestion, 'key' | 'label' | 'section' | 'required'> & { help?: string; showWhen?: StudyQuestion['showWhen'] }): StudyQuestion {
  switch (kind) {
    case 'yesNoOther': return { ...base, kind };
    case 'choice': return { ...base, kind, options: ['', ''] };
    case 'number': return { ...base, kind, min: 0, max: 100, unit: '', integer: false };
    case 'date': return { ...base, kind };
    case 'text': return { ...base, kind, maxLength: STUDY_TEXT_MAX_LENGTH };
  }
}

export const BLANK_QUESTIONNAIRE: QuestionnaireDefinition = {
  title: '',
  questions: [newQuestion('yesNoOther', { key: '', label: '', section: 'Study data', required: true })],
};

/** What the builder holds, as the server takes it: answers offered trimmed and blank lines dropped, an empty help left out. */
export function cleanDefinition(d: QuestionnaireDefinition): QuestionnaireDefinition {
  return {
    title: d.title.trim(),
    questions: d.questions.map((q) => {
      const { help, showWhen, ...rest } = q;
      const cleaned = { ...rest, label: q.label.trim(), section: q.section.trim(), key: q.key.trim() } as StudyQuestion;
      if (help?.trim()) cleaned.help = help.trim();
      if (showWhen?.question) cleaned.showWhen = showWhen;
      if (cleaned.kind === 'choice') cleaned.options = cleaned.options.map((o) => o.trim()).filter(Boolean);
      if (cleaned.kind === 'date' && !cleaned.notBefore) delete cleaned.notBefore;
      return cleaned;
    }),
  };
}

export function QuestionnaireBuilder({ value, onChange, errors, disabled }: {
  value: QuestionnaireDefinition;
  onChange: (next: QuestionnaireDefinition) => void;
  errors: DefinitionErrors;
  disabled?: boolean;
}) {
  const setQuestion = (i: number, q: StudyQuestion) => onChange({ ...value, questions: value.questions.map((x, j) => (j === i ? q : x)) });
  const move = (i: number, by: number) => {
    const questions = [...value.questions];
    [questions[i], questions[i + by]] = [questions[i + by], questions[i]];
    onChange({ ...value, questions });
  };
  const remove = (i: number) => onChange({ ...value, questions: value.questions.filter((_, j) => j !== i) });
  const add = () => {
    const section = value.questions.at(-1)?.section ?? 'Study data';
    onChange({ ...value, questions: [...value.questions, newQuestion('yesNoOther', { key: '', label: '', section, required: true })] });
  };
  return (
    <Stack gap="md">
      <TextInput
        label="Questionnaire title"
        withAsterisk
        value={value.title}
        onChange={(e) => onChange({ ...value, title: e.currentTarget.value })}
        error={errors.title}
        disabled={disabled}
        maw={520}
      />
      {errors.questions && <Text c="red.9" fz="sm" role="alert">{errors.questions}</Text>}
      {value.questions.map((q, i) => (
        <QuestionCard
          key={i}
          index={i}
          question={q}
          earlier={value.questions.slice(0, i)}
          count={value.questions.length}
          errors={errors}
          disabled={disabled}
          onChange={(next) => setQuestion(i, next)}
          onMove={(by) => move(i, by)}
          onRemove={() => remove(i)}
        />
      ))}
      <Group>
        <Button variant="default" onClick={add} disabled={disabled}>Add question</Button>
      </Group>
    </Stack>
  );
}

function QuestionCard({ index, question: q, earlier, count, errors, disabled, onChange, onMove, onRemove }: {
  index: number;
  question: StudyQuestion;
  earlier: StudyQuestion[];
  count: number;
  errors: DefinitionErrors;
  disabled?: boolean;
  onChange: (q: StudyQuestion) => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const at = (field: string) => errors[`questions.${index}.${field}`];
  const headingId = `question-${index}-heading`;
  const setLabel = (label: string) => {
    // The key follows the label until the admin writes a key of their own.
    const follows = q.key === '' || q.key === keyFromLabel(q.label);
    onChange({ ...q, label, key: follows ? keyFromLabel(label) : q.key });
  };
  const setKind = (kind: StudyQuestionKind) => onChange(newQuestion(kind, { key: q.key, label: q.label, section: q.section, required: q.required, help: q.help, showWhen: q.showWhen }));
  const triggers = earlier.filter((e) => e.kind === 'yesNoOther' || e.kind === 'choice');
  const trigger = triggers.find((t) => t.key === q.showWhen?.question);
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} fz="md" id={headingId}>Question {n}</Title>
          <Group gap="xs">
            <Button size="xs" variant="subtle" onClick={() => onMove(-1)} disabled={disabled || index === 0} aria-label={`Move up question ${n}`}>Move up</Button>
            <Button size="xs" variant="subtle" onClick={() => onMove(1)} disabled={disabled || index === count - 1} aria-label={`Move down question ${n}`}>Move down</Button>
            <Button size="xs" variant="subtle" color={AA_COLORS.red} onClick={onRemove} disabled={disabled || count === 1} aria-label={`Remove question ${n}`}>Remove</Button>
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={`Question ${n}`} withAsterisk value={q.label} onChange={(e) => setLabel(e.currentTarget.value)} error={at('label')} disabled={disabled} />
          <NativeSelect
            label={`Kind of question ${n}`}
            data={STUDY_QUESTION_KINDS.map((k) => ({ value: k, label: STUDY_QUESTION_KIND_LABELS[k] }))}
            value={q.kind}
            onChange={(e) => setKind(e.currentTarget.value as StudyQuestionKind)}
            error={at('kind')}
            disabled={disabled}
          />
          <TextInput
            label={`Key of question ${n}`}
            description="The answer's name in the data: letters and digits, starting with a lower-case letter"
            value={q.key}
            onChange={(e) => onChange({ ...q, key: e.currentTarget.value })}
            error={at('key')}
            disabled={disabled}
          />
          <TextInput label={`Section of question ${n}`} withAsterisk value={q.section} onChange={(e) => onChange({ ...q, section: e.currentTarget.value })} error={at('section')} disabled={disabled} />
          <TextInput label={`Help for question ${n}`} value={q.help ?? ''} onChange={(e) => onChange({ ...q, help: e.currentTarget.value })} error={at('help')} disabled={disabled} />
          <Checkbox label={`Question ${n} is required`} checked={q.required} onChange={(e) => onChange({ ...q, required: e.currentTarget.checked })} error={at('required')} disabled={disabled} mt="lg" />
        </SimpleGrid>
        <KindSettings n={n} question={q} earlier={earlier} at={at} disabled={disabled} onChange={onChange} />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <NativeSelect
            label={`Question ${n} is shown`}
            data={[{ value: '', label: 'Always' }, ...triggers.map((t) => ({ value: t.key, label: `Only when ${t.label || t.key} is…` }))]}
            value={trigger ? trigger.key : ''}
            onChange={(e) => {
              const key = e.currentTarget.value;
              onChange({ ...q, showWhen: key ? { question: key, answers: [] } : undefined });
            }}
            error={at('showWhen.question')}
            disabled={disabled}
          />
          {trigger && (
            <Checkbox.Group
              label={`Answers of ${trigger.label || trigger.key} that show question ${n}`}
              value={q.showWhen?.answers ?? []}
              onChange={(answers) => onChange({ ...q, showWhen: { question: trigger.key, answers } })}
              error={at('showWhen.answers')}
            >
              <Group gap="md" mt={6}>
                {questionOptions(trigger).filter(Boolean).map((o) => <Checkbox key={o} value={o} label={o} disabled={disabled} />)}
              </Group>
            </Checkbox.Group>
          )}
        </SimpleGrid>
      </Stack>
    </Card>
  );
}

function KindSettings({ n, question: q, earlier, at, disabled, onChange }: {
  n: number;
  question: StudyQuestion;
  earlier: StudyQuestion[];
  at: (field: string) => string | undefined;
  disabled?: boolean;
  onChange: (q: StudyQuestion) => void;
}) {
  const asNumber = (v: number | string) => (v === '' ? Number.NaN : Number(v));
  switch (q.kind) {
    case 'yesNoOther':
      return <Text fz="sm" c="dimmed">Answered Yes, No or Other.</Text>;
    case 'choice':
      return (
        <Textarea
          label={`Answers offered by question ${n} (one a line)`}
          value={q.options.join('\n')}
          onChange={(e) => onChange({ ...q, options: e.currentTarget.value.split('\n') })}
          error={at('options')}
          autosize
          minRows={2}
          disabled={disabled}
        />
      );
    case 'number':
      return (
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <NumberInput label={`Minimum of question ${n}`} value={Number.isFinite(q.min) ? q.min : ''} onChange={(v) => onChange({ ...q, min: asNumber(v) })} error={at('min')} disabled={disabled} />
          <NumberInput label={`Maximum of question ${n}`} value={Number.isFinite(q.max) ? q.max : ''} onChange={(v) => onChange({ ...q, max: asNumber(v) })} error={at('max')} disabled={disabled} />
          <TextInput label={`Unit of question ${n}`} withAsterisk value={q.unit} onChange={(e) => onChange({ ...q, unit: e.currentTarget.value })} error={at('unit')} disabled={disabled} />
          <Checkbox label="Whole numbers only" checked={q.integer} onChange={(e) => onChange({ ...q, integer: e.currentTarget.checked })} disabled={disabled} mt="lg" />
        </SimpleGrid>
      );
    case 'date':
      return (
        <NativeSelect
          label={`Question ${n} is not before`}
          data={[{ value: '', label: 'No limit' }, ...earlier.filter((e) => e.kind === 'date').map((e) => ({ value: e.key, label: e.label || e.key }))]}
          value={q.notBefore ?? ''}
          onChange={(e) => onChange({ ...q, notBefore: e.currentTarget.value || undefined })}
          error={at('notBefore')}
          disabled={disabled}
          maw={360}
        />
      );
    case 'text':
      return (
        <NumberInput
          label={`Longest answer to question ${n} (characters)`}
          value={q.maxLength}
          min={1}
          max={STUDY_TEXT_MAX_LENGTH}
          allowDecimal={false}
          onChange={(v) => onChange({ ...q, maxLength: asNumber(v) })}
          error={at('maxLength')}
          disabled={disabled}
          maw={260}
        />
      );
  }
}
