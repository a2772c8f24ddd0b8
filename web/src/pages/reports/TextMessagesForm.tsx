import { useState } from 'react';
import { Alert, Button, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { SmsContact } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { setTextMessages } from '../../api/reports';
import { FormError } from '../../components/FormError';
import { TextConsentFields } from '../../components/TextConsentFields';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';

/** The verified patient's mobile number and whether they want texts about their kit and results (docs/sms.md). */
export function TextMessagesForm({ barcode, token, texts }: { barcode: string; token: string; texts: SmsContact }) {
  const { t } = usePatientText();
  const [done, setDone] = useState(false);
  const form = useForm({
    initialValues: { mobilePhone: texts.mobilePhone ?? '', smsConsent: texts.smsConsent },
    validate: {
      mobilePhone: (value, values) => (values.smsConsent && !value.trim() ? t('texts.needsNumber') : null),
    },
    onValuesChange: () => setDone(false),
  });
  const sending = useFormSubmit(
    form,
    (values) => {
      setDone(false);
      return setTextMessages({ barcode, token, mobilePhone: values.mobilePhone.trim() || null, smsConsent: values.smsConsent });
    },
    {
      onSuccess: (answer) => {
        form.setValues({ mobilePhone: answer.mobilePhone ?? '', smsConsent: answer.smsConsent });
        form.resetDirty();
        setDone(true);
      },
    },
  );
  const failure = sending.error;
  const problem = failure === undefined
    ? undefined
    : failure instanceof ApiError && failure.status > 0 && failure.status < 500 && failure.serverMessage ? failure.serverMessage : t('texts.notSaved');

  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label={t('texts.title')}>
      <Stack gap="md">
        <Title order={2} fz={22}>
          {t('texts.title')}
        </Title>
        <Text fz={17}>{t('texts.intro')}</Text>
        <TextConsentFields
          size="lg"
          labels={{ mobile: t('texts.mobilePhone'), mobileHint: t('texts.mobileHint'), consent: t('texts.consent'), consentHint: t('texts.consentHint') }}
          mobileProps={form.getInputProps('mobilePhone')}
          consentProps={form.getInputProps('smsConsent', { type: 'checkbox' })}
        />
        <FormError error={problem} />
        {done && (
          <Alert color="green" variant="light" role="status">
            {t('texts.saved')}
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth variant="light" loading={sending.submitting} h="auto" mih={50} py={8} styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}>
          {t('texts.save')}
        </Button>
      </Stack>
    </form>
  );
}
