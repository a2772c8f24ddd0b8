import { useState } from 'react';
import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { DemographicField } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { updateDemographicInfo } from '../../api/reports';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';

type Contact = Record<DemographicField, string | null>;

const FIELDS: { field: DemographicField; label: string; type?: string; inputMode?: 'email' | 'tel' | 'numeric' | 'text'; autoComplete: string }[] = [
  { field: 'email', label: 'Email', type: 'email', inputMode: 'email', autoComplete: 'email' },
  { field: 'phone', label: 'Phone', type: 'tel', inputMode: 'tel', autoComplete: 'tel' },
  { field: 'addressLine1', label: 'Street address', autoComplete: 'address-line1' },
  { field: 'addressLine2', label: 'Apartment, suite (optional)', autoComplete: 'address-line2' },
  { field: 'city', label: 'City', autoComplete: 'address-level2' },
  { field: 'state', label: 'State', autoComplete: 'address-level1' },
  { field: 'postalCode', label: 'ZIP code', inputMode: 'numeric', autoComplete: 'postal-code' },
];

/** The verified patient keeps their contact details up to date (only changed fields are sent). */
export function ContactDetailsForm({ barcode, token, contact }: { barcode: string; token: string; contact: Contact }) {
  const [saved, setSaved] = useState<Contact>(contact);
  const [done, setDone] = useState(false);
  const changedOf = (values: Record<DemographicField, string>) => FIELDS.map(({ field }) => field).filter((f) => values[f].trim() !== (saved[f] ?? ''));
  const form = useForm<Record<DemographicField, string>>({
    initialValues: Object.fromEntries(FIELDS.map(({ field }) => [field, contact[field] ?? ''])) as Record<DemographicField, string>,
    validate: (values) => {
      const changed = changedOf(values);
      // 'form' is no field: the sentence for the whole form.
      if (!changed.length) return { form: 'Nothing has changed yet.' };
      const empty = changed.filter((f) => f !== 'addressLine2' && values[f].trim() === '');
      return Object.fromEntries(empty.map((f) => [f, 'Please fill this in (it cannot be removed here)']));
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
        : 'Your details were not saved. Please try again in a moment.');

  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label="Your contact details">
      <Stack gap="md">
        <Title order={2} fz={22}>
          Your contact details
        </Title>
        <Text fz={17}>Please check these, so the lab and your doctor can reach you.</Text>
        {FIELDS.map(({ field, label, type, inputMode, autoComplete }) => (
          <TextInput
            key={field}
            label={label}
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
            Thank you. Your contact details were saved.
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth variant="light" loading={sending.submitting}>
          Save my contact details
        </Button>
      </Stack>
    </form>
  );
}
