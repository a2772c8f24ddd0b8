import { Button, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiError } from '../../api/fetcher';
import { verifyPatient, type PatientResultGreeting } from '../../api/reports';
import { DateOfBirthBoxes, dateFromParts, EMPTY_DOB } from '../../components/DateOfBirthBoxes';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';

/** The result page's date-of-birth check: the patient's one date-of-birth input (DateOfBirthBoxes), sent as YYYY-MM-DD. */
export function DateOfBirthForm({ barcode, token, onVerified, onLocked }: {
  barcode: string;
  token: string;
  onVerified: (greeting: PatientResultGreeting) => void;
  onLocked: () => void;
}) {
  const { t } = usePatientText();
  const form = useForm({
    initialValues: EMPTY_DOB,
    // One sentence for the three boxes, under the name the server gives the date.
    validate: (parts) => {
      const parsed = dateFromParts(parts);
      return 'problem' in parsed ? { dateOfBirth: t(parsed.problem) } : {};
    },
    transformValues: (parts) => {
      const parsed = dateFromParts(parts);
      return 'date' in parsed ? parsed.date : '';
    },
  });
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
  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label={t('dob.formLabel')}>
      <Stack gap="md">
        <DateOfBirthBoxes value={form.getValues()} onChange={(parts) => form.setValues(parts)} error={form.errors.dateOfBirth ? String(form.errors.dateOfBirth) : null} />
        {!form.errors.dateOfBirth && <FormError error={problem} />}
        <Button type="submit" size="lg" fullWidth loading={sending.submitting}>
          {t('dob.submit')}
        </Button>
      </Stack>
    </form>
  );
}
