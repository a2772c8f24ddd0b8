import { Button, Radio, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { REFERRAL_OTHER_MAX_LENGTH, REFERRAL_SOURCES, REFERRAL_SOURCES_ES, type PatientOrderKey, type PatientOrderSummary, type ReferralSource } from '@platform/domain';
import { setReferralSource } from '../../api/patient-portal';
import { FormError } from '../FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';

/** Step 3: how the patient heard of the test. */
export function ReferralStep({ orderKey, onDone }: { orderKey: PatientOrderKey; onDone: (summary: PatientOrderSummary) => void }) {
  const { t, language } = usePatientText();
  const form = useForm({
    initialValues: { referralSource: '', referralOther: '' },
    validate: {
      referralSource: (v: string) => (v ? null : t('order.referral.chooseOne')),
      referralOther: (v: string, values: { referralSource: string }) => (values.referralSource === 'Other' && !v.trim() ? t('order.referral.tellWhere') : null),
    },
  });
  const sending = useFormSubmit(
    form,
    (values) =>
      setReferralSource({
        ...orderKey,
        referralSource: values.referralSource as ReferralSource,
        referralOther: values.referralSource === 'Other' ? values.referralOther.trim() : null,
      }),
    { onSuccess: onDone },
  );
  const { referralSource } = form.getValues();
  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label={t('order.referral.formLabel')}>
      <Stack gap="md">
        <Radio.Group label={t('order.referral.question')} withAsterisk size="md" {...form.getInputProps('referralSource')}>
          <Stack gap="xs" mt="xs">
            {REFERRAL_SOURCES.map((s) => (
              <Radio key={s} value={s} label={language === 'es' ? REFERRAL_SOURCES_ES[s] : s} size="md" />
            ))}
          </Stack>
        </Radio.Group>
        {referralSource === 'Other' && (
          <TextInput label={t('order.referral.where')} maxLength={REFERRAL_OTHER_MAX_LENGTH} withAsterisk {...form.getInputProps('referralOther')} />
        )}
        <FormError error={sending.error} />
        <Button type="submit" size="lg" fullWidth loading={sending.submitting}>
          {t('common.continue')}
        </Button>
      </Stack>
    </form>
  );
}
