import { useRef } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiError } from '../../api/fetcher';
import { verifyPatient, type PatientResultGreeting } from '../../api/reports';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';

const digits = (value: string, max: number) => value.replace(/\D/g, '').slice(0, max);

/** What is wrong with the typed date: its sentence's key in the message catalogue. */
type DateProblem = 'dob.missing' | 'dob.yearDigits' | 'dob.notReal';

/** The typed parts as YYYY-MM-DD, or what to fix. */
export function dateFromParts(month: string, day: string, year: string): { date: string } | { problem: DateProblem } {
  if (!month || !day || !year) return { problem: 'dob.missing' };
  const m = Number(month);
  const d = Number(day);
  const y = Number(year);
  if (year.length !== 4) return { problem: 'dob.yearDigits' };
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || m > 12 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || y < 1900 || date.getTime() > Date.now()) {
    return { problem: 'dob.notReal' };
  }
  return { date: `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}` };
}

/**
 * Date of birth as three boxes (MM / DD / YYYY) with number keypads on phones; the cursor moves
 * on by itself when a box is full. Sent as YYYY-MM-DD.
 */
export function DateOfBirthForm({ barcode, token, onVerified, onLocked }: {
  barcode: string;
  token: string;
  onVerified: (greeting: PatientResultGreeting) => void;
  onLocked: () => void;
}) {
  const { t } = usePatientText();
  const form = useForm({
    initialValues: { month: '', day: '', year: '' },
    // One sentence for the three boxes, under the name the server gives the date.
    validate: ({ month, day, year }) => {
      const parsed = dateFromParts(month, day, year);
      return 'problem' in parsed ? { dateOfBirth: t(parsed.problem) } : {};
    },
    transformValues: ({ month, day, year }) => {
      const parsed = dateFromParts(month, day, year);
      return 'date' in parsed ? parsed.date : '';
    },
  });
  const { month, day, year } = form.getValues();
  const sending = useFormSubmit(form, (dateOfBirth) => verifyPatient({ barcode, token, dateOfBirth }), {
    fieldOf: (field) => (field === 'dateOfBirth' ? 'dateOfBirth' : undefined),
    onSuccess: onVerified,
    onError: (error) => {
      if (error instanceof ApiError && error.status === 423) onLocked();
    },
  });
  const failure = sending.error;
  const problem =
    form.errors.dateOfBirth ??
    (failure === undefined || (failure instanceof ApiError && failure.status === 423)
      ? undefined
      : failure instanceof ApiError && failure.status > 0 && failure.status < 500 && failure.serverMessage
        ? failure.serverMessage
        : t('common.serverTrouble'));
  const dayRef = useRef<HTMLInputElement>(null);
  const yearRef = useRef<HTMLInputElement>(null);

  const big = { input: { fontSize: 22, height: 56, textAlign: 'center' as const }, label: { fontSize: 16 } };
  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label={t('dob.formLabel')}>
      <Stack gap="md">
        <fieldset style={{ border: 0, padding: 0, margin: 0 }} aria-describedby="dob-hint">
          <legend style={{ fontSize: 18, fontWeight: 600, marginBottom: 4 }}>{t('dob.legend')}</legend>
          <Text id="dob-hint" fz="md" c="dimmed" mb="xs">
            {t('dob.hint')}
          </Text>
          <Group gap="sm" wrap="nowrap" align="flex-end">
            <TextInput
              label={t('dob.month')}
              placeholder="MM"
              inputMode="numeric"
              autoComplete="bday-month"
              maxLength={2}
              w={76}
              styles={big}
              value={month}
              onChange={(e) => {
                const v = digits(e.currentTarget.value, 2);
                form.setFieldValue('month', v);
                if (v.length === 2) dayRef.current?.focus();
              }}
            />
            <TextInput
              ref={dayRef}
              label={t('dob.day')}
              placeholder="DD"
              inputMode="numeric"
              autoComplete="bday-day"
              maxLength={2}
              w={76}
              styles={big}
              value={day}
              onChange={(e) => {
                const v = digits(e.currentTarget.value, 2);
                form.setFieldValue('day', v);
                if (v.length === 2) yearRef.current?.focus();
              }}
            />
            <TextInput
              ref={yearRef}
              label={t('dob.year')}
              placeholder="YYYY"
              inputMode="numeric"
              autoComplete="bday-year"
              maxLength={4}
              w={110}
              styles={big}
              value={year}
              onChange={(e) => form.setFieldValue('year', digits(e.currentTarget.value, 4))}
            />
          </Group>
        </fieldset>
        <FormError error={problem} />
        <Button type="submit" size="lg" fullWidth loading={sending.submitting}>
          {t('dob.submit')}
        </Button>
      </Stack>
    </form>
  );
}
