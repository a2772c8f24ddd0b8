import { Button, Radio, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { REFERRAL_OTHER_MAX_LENGTH, REFERRAL_SOURCES, type PatientOrderKey, type PatientOrderSummary, type ReferralSource } from '@platform/domain';
import { setReferralSource } from '../../api/patient-portal';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';

/** Step 3: how the patient heard of the test. */
export function ReferralStep({ orderKey, onDone }: { orderKey: PatientOrderKey; onDone: (summary: PatientOrderSummary) => void }) {
  const form = useForm({
    initialValues: { referralSource: '', referralOther: '' },
    validate: {
      referralSource: (v: string) => (v ? null : 'Please choose one'),
      referralOther: (v: string, values: { referralSource: string }) => (values.referralSource === 'Other' && !v.trim() ? 'Please tell us where' : null),
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
    <form onSubmit={sending.onSubmit} noValidate aria-label="How you heard about the test">
      <Stack gap="md">
        <Radio.Group label="How did you hear about the test?" withAsterisk size="md" {...form.getInputProps('referralSource')}>
          <Stack gap="xs" mt="xs">
            {REFERRAL_SOURCES.map((s) => (
              <Radio key={s} value={s} label={s} size="md" />
            ))}
          </Stack>
        </Radio.Group>
        {referralSource === 'Other' && (
          <TextInput label="Where did you hear about it?" maxLength={REFERRAL_OTHER_MAX_LENGTH} withAsterisk {...form.getInputProps('referralOther')} />
        )}
        <FormError error={sending.error} />
        <Button type="submit" size="lg" fullWidth loading={sending.submitting}>
          Continue
        </Button>
      </Stack>
    </form>
  );
}
