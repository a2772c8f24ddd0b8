import { useState } from 'react';
import { Button, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useParams, useSearchParams } from 'react-router-dom';
import { PROSTOX_REGISTRY_SURVEY, SURVEY_SECTIONS, SURVEY_SECTIONS_ES, YesNoOther } from '@platform/domain';
import { answerRegistrySurvey, useRegistrySurvey } from '../../api/follow-ups';
import { FormError } from '../../components/FormError';
import { FollowUpLinkPage, LinkMessage, linkRefusalOf, type LinkOutcome } from '../../components/FollowUpLinkPage';
import { PageLoader } from '../../components/PageLoader';
import { nestedFieldOf } from '../../forms/server-errors';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';
import { SurveyQuestion, type SurveyValues } from './SurveyQuestion';

const NO_TOKEN: LinkOutcome = { title: 'common.linkDoesNotWork', text: 'followUp.refusal.invalid' };
const THANKS: LinkOutcome = { title: 'common.thankYou', text: 'followUp.survey.thanks' };

/**
 * /registry/study/prostox/{sampleId}/survey/new?token=…: the PROSTOX registry's follow-up survey,
 * from the emailed single-use link. Plain layout, phone first: one question after another, large
 * radio buttons; answered once (a second use of the link, or an expired one, says so).
 */
export function RegistrySurveyPage() {
  const { sampleId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token');
  const { data, error, isLoading } = useRegistrySurvey(sampleId, token);
  const [refusal, setRefusal] = useState<LinkOutcome | null>(null);
  const { t } = usePatientText();

  let body;
  const refused = refusal ?? (token ? linkRefusalOf(error) : NO_TOKEN);
  if (refused) body = <LinkMessage {...refused} />;
  else if (isLoading || (!data && !error)) body = <PageLoader label={t('followUp.survey.loading')} />;
  else if (!data) body = <LinkMessage title="followUp.survey.loadFailed" text="common.checkConnection" />;
  else {
    body = (
      <Stack gap="lg">
        <Title order={1} fz={{ base: 28, xs: 32 }}>
          {data.firstName ? t('common.helloName', { name: data.firstName }) : t('common.hello')}
        </Title>
        <Text fz={18}>
          {t('followUp.survey.intro', { months: data.months })}
        </Text>
        <SurveyForm sampleId={sampleId} token={token!} onDone={setRefusal} />
      </Stack>
    );
  }
  return <FollowUpLinkPage kicker={t('followUp.survey.kicker')}>{body}</FollowUpLinkPage>;
}


function SurveyForm({ sampleId, token, onDone }: { sampleId: string; token: string; onDone: (message: LinkOutcome) => void }) {
  const { t, language } = usePatientText();
  const form = useForm<SurveyValues>({
    initialValues: {
      answers: Object.fromEntries(PROSTOX_REGISTRY_SURVEY.map((q) => [q.id, ''])),
      details: Object.fromEntries(PROSTOX_REGISTRY_SURVEY.filter((q) => q.kind === 'yes-no-other').map((q) => [q.id, ''])),
    },
    validate: (values) => {
      const errors: Record<string, string> = {};
      for (const q of PROSTOX_REGISTRY_SURVEY) {
        if (!values.answers[q.id]) errors[`answers.${q.id}`] = q.kind === 'scale' ? t('followUp.survey.chooseOne') : t('common.chooseYesNoOther');
        else if (values.answers[q.id] === YesNoOther.Other && !values.details[q.id]?.trim()) errors[`details.${q.id}`] = t('common.otherMeansMissing');
      }
      return errors;
    },
  });
  const sending = useFormSubmit(
    form,
    (values: SurveyValues) => answerRegistrySurvey(sampleId, {
      token,
      answers: Object.fromEntries(PROSTOX_REGISTRY_SURVEY.map((q) => [q.id, q.kind === 'scale' ? Number(values.answers[q.id]) : values.answers[q.id]])),
      details: Object.fromEntries(Object.entries(values.details).filter(([id, text]) => values.answers[id] === YesNoOther.Other && text.trim())),
    }),
    {
      fieldOf: nestedFieldOf(() => form.getValues()),
      onSuccess: () => onDone(THANKS),
      onError: (error) => {
        const refusal = linkRefusalOf(error);
        if (refusal) onDone(refusal);
      },
    },
  );
  return (
    <form onSubmit={sending.onSubmit} noValidate>
      <Stack gap="xl">
        {SURVEY_SECTIONS.map((section) => (
          <Stack key={section} gap="lg" component="section" aria-label={language === 'es' ? SURVEY_SECTIONS_ES[section] : section}>
            <Title order={2} fz={22}>
              {language === 'es' ? SURVEY_SECTIONS_ES[section] : section}
            </Title>
            {PROSTOX_REGISTRY_SURVEY.filter((q) => q.section === section).map((q) => (
              <SurveyQuestion key={q.id} question={q} form={form} />
            ))}
          </Stack>
        ))}
        <FormError error={sending.error} title={t('followUp.survey.notSent')} />
        <Button type="submit" size="lg" loading={sending.submitting} fullWidth>
          {t('followUp.survey.send')}
        </Button>
      </Stack>
    </form>
  );
}
