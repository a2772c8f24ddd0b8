import { Button, Paper, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useParams } from 'react-router-dom';
import { YES_NO_OTHER, YesNoOther } from '@platform/domain';
import { answerSampleQuestion, useSampleQuestion } from '../../api/follow-ups';
import { FormError } from '../../components/FormError';
import { TokenLinkPage, useLinkToken, type TokenLinkAnswered } from '../../components/FollowUpLinkPage';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';

/**
 * /patient-portal/sample-follow-up/{id}/response?token=…: the lab's or the clinic's question about
 * the patient's sample, answered Yes / No / Other (with a comment) through the emailed single-use
 * link. Phone first. The answer goes on the sample's timeline.
 */
export function SampleFollowUpResponsePage() {
  const { followUpId = '' } = useParams();
  const token = useLinkToken();
  const question = useSampleQuestion(followUpId, token);
  const { t } = usePatientText();

  return (
    <TokenLinkPage texts="followUp.question" token={token} query={question}>
      {(data, linkToken, answered) => {
        const who = data.askedBy === 'clinic'
          ? (data.clinicName ? t('followUp.question.askedByNamedClinic', { clinic: data.clinicName }) : t('followUp.question.askedByClinic'))
          : t('followUp.question.askedByLab');
        return (
          <>
            <Text fz={18}>{t('followUp.question.intro', { who })} <Text span ff="monospace">{data.barcode}</Text>:</Text>
            <Paper withBorder radius="lg" p="lg">
              <Text fz={20} fw={600} style={{ whiteSpace: 'pre-line' }}>
                {data.question}
              </Text>
            </Paper>
            <AnswerForm followUpId={followUpId} token={linkToken} answered={answered} />
          </>
        );
      }}
    </TokenLinkPage>
  );
}

function AnswerForm({ followUpId, token, answered }: { followUpId: string; token: string; answered: TokenLinkAnswered }) {
  const { t } = usePatientText();
  const form = useForm({
    initialValues: { answer: '', comment: '' },
    validate: {
      answer: (v) => (v ? null : t('common.chooseYesNoOther')),
      comment: (v, values) => (values.answer === YesNoOther.Other && !v.trim() ? t('common.otherMeansMissing') : null),
    },
  });
  const sending = useFormSubmit(form, (v: { answer: string; comment: string }) =>
    answerSampleQuestion(followUpId, { token, answer: v.answer as YesNoOther, ...(v.comment.trim() ? { comment: v.comment.trim() } : {}) }), answered);
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
