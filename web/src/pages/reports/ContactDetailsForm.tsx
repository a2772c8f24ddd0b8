import { useState } from 'react';
import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { DemographicField } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { updateDemographicInfo } from '../../api/reports';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';

type Contact = Record<DemographicField, string | null>;

// Each field's label is contact.<field> in the message catalogue.
const FIELDS: { field: DemographicField; type?: string; inputMode?: 'email' | 'tel' | 'numeric' | 'text'; autoComplete: string }[] = [
  { field: 'email', type: 'email', inputMode: 'email', autoComplete: 'email' },
  { field: 'phone', type: 'tel', inputMode: 'tel', autoComplete: 'tel' },
  { field: 'addressLine1', autoComplete: 'address-line1' },
  { field: 'addressLine2', autoComplete: 'address-line2' },
  { field: 'city', autoComplete: 'address-level2' },
  { field: 'state', autoComplete: 'address-level1' },
  { field: 'postalCode', inputMode: 'numeric', autoComplete: 'postal-code' },
];

/** The verified patient keeps their contact details up to date (only changed fields are sent). */
export function ContactDetailsForm({ barcode, token, contact }: { barcode: string; token: string; contact: Contact }) {
  const { t } = usePatientText();
  const [saved, setSaved] = useState<Contact>(contact);
  const [done, setDone] = useState(false);
  const changedOf = (values: Record<DemographicField, string>) => FIELDS.map(({ field }) => field).filter((f) => values[f].trim() !== (saved[f] ?? ''));
  const form = useForm<Record<DemographicField, string>>({
    initialValues: Object.fromEntries(FIELDS.map(({ field }) => [field, contact[field] ?? ''])) as Record<DemographicField, string>,
    validate: (values) => {
      const changed = changedOf(values);
      // 'form' is no field: the sentence for the whole form.
      if (!changed.length) return { form: t('contact.nothingChanged') };
      const empty = changed.filter((f) => f !== 'addressLine2' && values[f].trim() === '');
      return Object.fromEntries(empty.map((f) => [f, t('contact.cannotRemove')]));
    },
    onValuesChange: () => setDone(false),
  });
  const sending = useFormSubmit(
    form,
    (values) => {
      setDone(false);
      return updateDemographicInfo({ barcode, token, ...Object.fromEntries(changedOf(values).map((f) => [f, values[f].trim()])) });
    },
    {
      onSuccess: (answer) => {
        setSaved(answer.contact);
        setDone(true);
      },
    },
  );
  const failure = sending.error;
  const problem =
    (form.errors.form as string | undefined) ??
    (failure === undefined
      ? undefined
      : failure instanceof ApiError && failure.status > 0 && failure.status < 500 && failure.serverMessage
        ? failure.serverMessage
        : t('contact.notSaved'));

  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label={t('contact.title')}>
      <Stack gap="md">
        <Title order={2} fz={22}>
          {t('contact.title')}
        </Title>
        <Text fz={17}>{t('contact.intro')}</Text>
        {FIELDS.map(({ field, type, inputMode, autoComplete }) => (
          <TextInput
            key={field}
            label={t(`contact.${field}`)}
            type={type ?? 'text'}
            inputMode={inputMode}
            autoComplete={autoComplete}
            size="lg"
            {...form.getInputProps(field)}
          />
        ))}
        <FormError error={problem} />
        {done && (
          <Alert color="green" variant="light" role="status">
            {t('contact.saved')}
          </Alert>
        )}
        {/* A long label (Spanish, on a 390 px phone) wraps instead of being cut. */}
        <Button type="submit" size="lg" fullWidth variant="light" loading={sending.submitting} h="auto" mih={50} py={8} styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}>
          {t('contact.save')}
        </Button>
      </Stack>
    </form>
  );
}
