import { useState, type FormEvent } from 'react';
import { Alert, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import type { DemographicField } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { updateDemographicInfo } from '../../api/reports';

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
  const [values, setValues] = useState<Record<DemographicField, string>>(
    () => Object.fromEntries(FIELDS.map(({ field }) => [field, contact[field] ?? ''])) as Record<DemographicField, string>,
  );
  const [errors, setErrors] = useState<Partial<Record<DemographicField, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [saving, setSaving] = useState(false);

  const changed = FIELDS.map(({ field }) => field).filter((f) => values[f].trim() !== (saved[f] ?? ''));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    setProblem(null);
    if (!changed.length) {
      setProblem('Nothing has changed yet.');
      return;
    }
    const empty = changed.filter((f) => f !== 'addressLine2' && values[f].trim() === '');
    if (empty.length) {
      setErrors(Object.fromEntries(empty.map((f) => [f, 'Please fill this in (it cannot be removed here)'])));
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const body = Object.fromEntries(changed.map((f) => [f, values[f].trim()]));
      const answer = await updateDemographicInfo({ barcode, token, ...body });
      setSaved(answer.contact);
      setDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.fields.length) {
        setErrors(Object.fromEntries(error.fields.map((f) => [f.field, f.message])));
      } else if (error instanceof ApiError && error.status > 0 && error.status < 500 && error.serverMessage) {
        setProblem(error.serverMessage);
      } else {
        setProblem('Your details were not saved. Please try again in a moment.');
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Your contact details">
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
            value={values[field]}
            error={errors[field]}
            onChange={(e) => {
              const v = e.currentTarget.value;
              setValues((prev) => ({ ...prev, [field]: v }));
              setDone(false);
            }}
          />
        ))}
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
        {done && (
          <Alert color="green" variant="light" role="status">
            Thank you. Your contact details were saved.
          </Alert>
        )}
        <Button type="submit" size="lg" fullWidth variant="light" loading={saving}>
          Save my contact details
        </Button>
      </Stack>
    </form>
  );
}
