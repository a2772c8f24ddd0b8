import { useState } from 'react';
import { Button, Paper, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useParams, useSearchParams } from 'react-router-dom';
import { YES_NO_OTHER, YesNoOther } from '@platform/domain';
import { answerSampleQuestion, useSampleQuestion } from '../../api/follow-ups';
import { FormError } from '../../components/FormError';
import { FollowUpLinkPage, LinkMessage, linkRefusalOf, type LinkOutcome } from '../../components/FollowUpLinkPage';
import { PageLoader } from '../../components/PageLoader';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';

const NO_TOKEN: LinkOutcome = { title: 'common.linkDoesNotWork', text: 'followUp.refusal.invalid' };
const THANKS: LinkOutcome = { title: 'common.thankYou', text: 'followUp.question.thanks' };

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
  const [done, setDone] = useState<LinkOutcome | null>(null);
  const { t } = usePatientText();

  let body;
  const refused = done ?? (token ? linkRefusalOf(error) : NO_TOKEN);
  if (refused) body = <LinkMessage {...refused} />;
  else if (isLoading || (!data && !error)) body = <PageLoader label={t('followUp.question.loading')} />;
  else if (!data) body = <LinkMessage title="followUp.question.loadFailed" text="common.checkConnection" />;
  else {
    const who = data.askedBy === 'clinic'
      ? (data.clinicName ? t('followUp.question.askedByNamedClinic', { clinic: data.clinicName }) : t('followUp.question.askedByClinic'))
      : t('followUp.question.askedByLab');
    body = (
      <Stack gap="lg">
        <Title order={1} fz={{ base: 28, xs: 32 }}>
          {data.firstName ? t('common.helloName', { name: data.firstName }) : t('common.hello')}
        </Title>
        <Text fz={18}>{t('followUp.question.intro', { who })} <Text span ff="monospace">{data.barcode}</Text>:</Text>
        <Paper withBorder radius="lg" p="lg">
          <Text fz={20} fw={600} style={{ whiteSpace: 'pre-line' }}>
            {data.question}
          </Text>
        </Paper>
        <AnswerForm followUpId={followUpId} token={token!} onDone={setDone} />
      </Stack>
    );
  }
  return <FollowUpLinkPage kicker={t('followUp.question.kicker')}>{body}</FollowUpLinkPage>;
}

function AnswerForm({ followUpId, token, onDone }: { followUpId: string; token: string; onDone: (message: LinkOutcome) => void }) {
  const { t } = usePatientText();
  const form = useForm({
    initialValues: { answer: '', comment: '' },
    validate: {
      answer: (v) => (v ? null : t('common.chooseYesNoOther')),
      comment: (v, values) => (values.answer === YesNoOther.Other && !v.trim() ? t('common.otherMeansMissing') : null),
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
        <Radio.Group label={t('followUp.question.yourAnswer')} {...form.getInputProps('answer')} key={form.key('answer')} styles={{ label: { fontSize: 18, marginBottom: 8 } }}>
          <Stack gap={10}>
            {YES_NO_OTHER.map((v) => (
              <Radio key={v} value={v} label={t(`answers.${v}`)} size="md" />
            ))}
          </Stack>
        </Radio.Group>
        <Textarea
          label={form.getValues().answer === YesNoOther.Other ? t('common.otherMeans') : t('followUp.question.addMore')}
          autosize
          minRows={3}
          {...form.getInputProps('comment')}
          key={form.key('comment')}
        />
        <FormError error={sending.error} title={t('followUp.question.notSent')} />
        <Button type="submit" size="lg" loading={sending.submitting} fullWidth>
          {t('followUp.question.send')}
        </Button>
      </Stack>
    </form>
  );
}
