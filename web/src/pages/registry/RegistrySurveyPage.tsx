import { Button, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useParams } from 'react-router-dom';
import { PROSTOX_REGISTRY_SURVEY, SURVEY_SECTIONS, SURVEY_SECTIONS_ES, YesNoOther } from '@platform/domain';
import { answerRegistrySurvey, useRegistrySurvey } from '../../api/follow-ups';
import { FormError } from '../../components/FormError';
import { TokenLinkPage, useLinkToken, type TokenLinkAnswered } from '../../components/FollowUpLinkPage';
import { nestedFieldOf } from '../../forms/server-errors';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';
import { SurveyQuestion, type SurveyValues } from './SurveyQuestion';

/**
 * /registry/study/prostox/{sampleId}/survey/new?token=…: the PROSTOX registry's follow-up survey,
 * from the emailed single-use link. Plain layout, phone first: one question after another, large
 * radio buttons; answered once (a second use of the link, or an expired one, says so).
 */
export function RegistrySurveyPage() {
  const { sampleId = '' } = useParams();
  const token = useLinkToken();
  const survey = useRegistrySurvey(sampleId, token);
  const { t } = usePatientText();

  return (
    <TokenLinkPage texts="followUp.survey" token={token} query={survey}>
      {(data, linkToken, answered) => (
        <>
          <Text fz={18}>
            {t('followUp.survey.intro', { months: data.months })}
          </Text>
          <SurveyForm sampleId={sampleId} token={linkToken} answered={answered} />
        </>
      )}
    </TokenLinkPage>
  );
}

function SurveyForm({ sampleId, token, answered }: { sampleId: string; token: string; answered: TokenLinkAnswered }) {
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
      ...answered,
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
