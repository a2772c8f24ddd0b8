/**
 * Questions to a patient about a sample, shared by the clinic's patient page and the Lab Toolbox
 * (docs/registry-and-follow-ups.md): the form that asks (emailed with a single-use link) and the
 * table of follow-ups with where each stands and the patient's answer. Each portal passes its own
 * call; a refusal says 'Error submitting form' (SPEC §8) with the server's reason, naming the
 * sample when the server names it (a patient with no email address, say).
 */
import { Badge, Button, Group, Stack, Table, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { FOLLOW_UP_QUESTION_MAX_LENGTH, FollowUpKind } from '@platform/domain';
import { ApiError } from '../api/fetcher';
import type { FollowUpView } from '../api/follow-ups';
import { useFormSubmit } from '../forms/use-form-submit';
import { showSuccessToast } from '../shell/success-toast';
import { statusColor } from '../status-colors';
import { FormError } from './FormError';
import { formatDate } from '../format';

export const SUBMIT_ERROR = 'Error submitting form';

export const QUESTION_EMAILED = 'The question was emailed to the patient';

/** The server's words for a refusal about the sample itself (the form has no field for it): named by its barcode. */
function sampleRefusal(error: unknown, barcode: string): string | undefined {
  const message = error instanceof ApiError ? error.fieldMessage('sampleId') : undefined;
  return message ? `Sample ${barcode}: ${message}` : undefined;
}

/** Asks the patient a question about one sample; `ask` is the portal's call. */
export function AskPatientForm({ barcode, ask, onDone }: { barcode: string; ask: (question: string) => Promise<FollowUpView>; onDone: (asked: FollowUpView) => void }) {
  const form = useForm({
    initialValues: { question: '' },
    validate: { question: (v) => (v.trim() ? null : 'Write the question') },
  });
  const sending = useFormSubmit(form, (v: { question: string }) => ask(v.question.trim()), {
    onSuccess: (asked) => {
      showSuccessToast(QUESTION_EMAILED);
      form.reset();
      onDone(asked);
    },
  });
  return (
    <form onSubmit={sending.onSubmit} noValidate>
      <Stack gap="md">
        <Text fz="sm">The patient gets an email with a link that works once; their answer appears on this sample&apos;s timeline.</Text>
        <Textarea label="Question" autosize minRows={3} maxLength={FOLLOW_UP_QUESTION_MAX_LENGTH} {...form.getInputProps('question')} key={form.key('question')} />
        <FormError error={sending.error} title={SUBMIT_ERROR} message={sampleRefusal(sending.error, barcode)} />
        <Group justify="flex-end">
          <Button type="submit" loading={sending.submitting}>
            Email the question
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function followUpWhat(f: FollowUpView): string {
  return f.kind === FollowUpKind.RegistrySurvey ? `${f.months}-month registry survey` : `Question: ${f.question}`;
}

/** Follow-ups (registry surveys and questions) with their status, when sent or due, and the answer; `withSample` adds the barcode column. */
export function FollowUpTable({ followUps, label, withSample = false }: { followUps: FollowUpView[]; label: string; withSample?: boolean }) {
  return (
    <Table.ScrollContainer minWidth={withSample ? 640 : 520}>
      <Table verticalSpacing="xs" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            {withSample && <Table.Th>Sample</Table.Th>}
            <Table.Th>Follow-up</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Due or sent</Table.Th>
            <Table.Th>Answer</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {followUps.map((f) => (
            <Table.Tr key={f.id}>
              {withSample && <Table.Td ff="monospace">{f.barcode}</Table.Td>}
              <Table.Td style={{ whiteSpace: 'pre-line' }}>{followUpWhat(f)}</Table.Td>
              <Table.Td>
                <Badge color={statusColor(f.status)} variant="light">
                  {f.status}
                </Badge>
                {f.notSendableReason && <Text fz="xs">{f.notSendableReason}</Text>}
              </Table.Td>
              <Table.Td>{formatDate(f.sentAt ?? f.dueAt)}</Table.Td>
              <Table.Td>
                {f.answer ? `${f.answer.answer}${f.answer.comment ? `: ${f.answer.comment}` : ''}` : f.answeredAt ? `Answered ${formatDate(f.answeredAt)}` : '—'}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
