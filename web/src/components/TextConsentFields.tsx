import { Checkbox, Stack, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/** The words of the two fields, in the page's language (the patient's pages) or the staff portal's English. */
export interface TextConsentLabels {
  mobile: string;
  mobileHint: string;
  consent: string;
  consentHint: string;
}

type InputProps = ReturnType<UseFormReturnType<Record<string, unknown>>['getInputProps']>;

/**
 * A mobile number for texts and the consent to them (docs/sms.md): the patient's result page, the
 * patient's order and the clinic's new-patient form. The number is typed as people write it; the
 * server reads it as E.164.
 */
export function TextConsentFields({ labels, mobileProps, consentProps, size }: {
  labels: TextConsentLabels;
  /** form.getInputProps('mobilePhone') */
  mobileProps: InputProps;
  /** form.getInputProps('smsConsent', { type: 'checkbox' }) */
  consentProps: InputProps;
  size?: 'sm' | 'md' | 'lg';
}) {
  return (
    <Stack gap="sm">
      <TextInput label={labels.mobile} description={labels.mobileHint} type="tel" inputMode="tel" autoComplete="tel" size={size} {...mobileProps} />
      <Checkbox label={labels.consent} description={labels.consentHint} size={size === 'lg' ? 'md' : size} {...consentProps} />
    </Stack>
  );
}
