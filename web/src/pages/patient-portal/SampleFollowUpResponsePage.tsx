import { useState } from 'react';
import { Button, Paper, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useParams, useSearchParams } from 'react-router-dom';
import { FOLLOW_UP_LINK_MESSAGES, YES_NO_OTHER, YesNoOther } from '@platform/domain';
import { answerSampleQuestion, useSampleQuestion } from '../../api/follow-ups';
import { FormError } from '../../components/FormError';
import { FollowUpLinkPage, LinkMessage, linkRefusalOf } from '../../components/FollowUpLinkPage';
import { PageLoader } from '../../components/PageLoader';
import { useFormSubmit } from '../../forms/use-form-submit';

const NO_TOKEN = { title: 'This link does not work', text: FOLLOW_UP_LINK_MESSAGES.invalid };
const THANKS = { title: 'Thank you', text: 'Your answer was sent. The team looking after your sample can read it now.' };

/**
 * /patient-portal/sample-follow-up/{id}/response?token=…: the lab's or the clinic's question about
 * the patient's sample, answered Yes / No / Other (with a comment) through the emailed single-use
 * link. Phone first. The answer goes on the sample's timeline.
 */
export function SampleFollowUpResponsePage() {
  const { followUpId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token');
  const { data, error, isLoading } = useSampleQuestion(followUpId, token);
  const [done, setDone] = useState<{ title: string; text: string } | null>(null);

  let body;
  const refused = done ?? (token ? linkRefusalOf(error) : NO_TOKEN);
  if (refused) body = <LinkMessage {...refused} />;
  else if (isLoading || (!data && !error)) body = <PageLoader label="Loading the question" />;
  else if (!data) body = <LinkMessage title="We could not load the question" text="Please check your connection and reload this page." />;
  else {
    const who = data.askedBy === 'clinic' ? (data.clinicName ? `Your clinic, ${data.clinicName},` : 'Your clinic') : 'The laboratory';
    body = (
      <Stack gap="lg">
        <Title order={1} fz={{ base: 28, xs: 32 }}>
          {data.firstName ? `Hello ${data.firstName}.` : 'Hello.'}
        </Title>
        <Text fz={18}>{who} has a question about your sample <Text span ff="monospace">{data.barcode}</Text>:</Text>
        <Paper withBorder radius="lg" p="lg">
          <Text fz={20} fw={600} style={{ whiteSpace: 'pre-line' }}>
            {data.question}
          </Text>
        </Paper>
        <AnswerForm followUpId={followUpId} token={token!} onDone={setDone} />
      </Stack>
    );
  }
  return <FollowUpLinkPage kicker="A question about your sample">{body}</FollowUpLinkPage>;
}

function AnswerForm({ followUpId, token, onDone }: { followUpId: string; token: string; onDone: (message: { title: string; text: string }) => void }) {
  const form = useForm({
    initialValues: { answer: '', comment: '' },
    validate: {
      answer: (v) => (v ? null : 'Choose Yes, No or Other'),
      comment: (v, values) => (values.answer === YesNoOther.Other && !v.trim() ? 'Please say what "Other" means' : null),
    },
  });
  const sending = useFormSubmit(form, (v: { answer: string; comment: string }) =>
    answerSampleQuestion(followUpId, { token, answer: v.answer as YesNoOther, ...(v.comment.trim() ? { comment: v.comment.trim() } : {}) }), {
    onSuccess: () => onDone(THANKS),
    onError: (error) => {
      const refusal = linkRefusalOf(error);
      if (refusal) onDone(refusal);
    },
  });
  return (
    <form onSubmit={sending.onSubmit} noValidate>
      <Stack gap="lg">
        <Radio.Group label="Your answer" {...form.getInputProps('answer')} key={form.key('answer')} styles={{ label: { fontSize: 18, marginBottom: 8 } }}>
          <Stack gap={10}>
            {YES_NO_OTHER.map((v) => (
              <Radio key={v} value={v} label={v} size="md" />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label={form.getValues().answer === YesNoOther.Other ? 'Please say what “Other” means' : 'Anything you would like to add (optional)'}
          autosize
          minRows={3}
          {...form.getInputProps('comment')}
          key={form.key('comment')}
        />
        <FormError error={sending.error} title="Your answer could not be sent" />
        <Button type="submit" size="lg" loading={sending.submitting} fullWidth>
          Send my answer
        </Button>
      </Stack>
    </form>
  );
}
