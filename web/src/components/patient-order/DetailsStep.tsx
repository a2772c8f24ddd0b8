import { useState } from 'react';
import { Button, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { dateOfBirthProblem, EARLIEST_DATE_OF_BIRTH, type CreatedPatientOrder, type EligibilityAnswers, type OrderingPatient, type PatientOrderKey, type PatientProduct } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { createPatientOrder, usePrpAccounts } from '../../api/patient-portal';
import { composeDate, DateOfBirthBoxes, dateFromParts, partsOf } from '../DateOfBirthBoxes';
import { FormError } from '../FormError';
import { TextConsentFields } from '../TextConsentFields';
import { useFormSubmit } from '../../forms/use-form-submit';
import { usePatientText } from '../../i18n/patient-language';
import { EMPTY_PATIENT, type FixedAccount, type PatientValues } from './patient-values';


interface DetailsValues extends PatientValues {
  accountId: string | null;
  /** Texts about the kit and the result (docs/sms.md). */
  mobilePhone: string;
  smsConsent: boolean;
}

const PATIENT_FIELDS = Object.keys(EMPTY_PATIENT) as (keyof OrderingPatient)[];

/** The fields that must be filled in; each one's sentence is order.details.required.<field>. */
const REQUIRED: (keyof OrderingPatient)[] = ['firstName', 'lastName', 'email', 'addressLine1', 'city', 'state', 'postalCode'];

/** The date-of-birth rule's problems (domain's dateOfBirthProblem) as catalogue keys: the API's words, in the page's language. */
const DOB_PROBLEM_KEYS = {
  'date.format': 'order.details.dateOfBirthFormat',
  'date.early': 'order.details.dateOfBirthEarly',
  'date.future': 'order.details.dateOfBirthFuture',
} as const;

/**
 * The checks made before sending: what is missing, and the date of birth by the domain's rule in
 * the API's words. The server checks everything again (names, email, state, ZIP, phone) and its
 * messages land on the same fields.
 */
function patientErrors(values: PatientValues, t: (key: string, values?: Record<string, string>) => string): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of REQUIRED) if (!values[field].trim()) errors[field] = t(`order.details.required.${field}`);
  // The boxes first (every box, four-digit year, a real date), then the domain's rule (not before the earliest, not in the future).
  const typed = dateFromParts(partsOf(values.dateOfBirth));
  const problem = 'date' in typed ? dateOfBirthProblem(typed.date) : null;
  if (!values.dateOfBirth.trim()) errors.dateOfBirth = t('order.details.required.dateOfBirth');
  else if ('problem' in typed) errors.dateOfBirth = t(typed.problem);
  else if (problem) errors.dateOfBirth = t(DOB_PROBLEM_KEYS[problem], { date: EARLIEST_DATE_OF_BIRTH });
  return errors;
}

/** The date the boxes make, as YYYY-MM-DD (the form's check has passed: it is a real date). */
const dateOfBirthOf = (value: string) => {
  const typed = dateFromParts(partsOf(value));
  return 'date' in typed ? typed.date : value;
};

/** Where the server's paths ('patient.dateOfBirth', 'accountId', 'mobilePhone') land on this form. */
function detailsFieldOf(field: string): string | undefined {
  const name = field.replace(/^patient\./, '');
  if ((PATIENT_FIELDS as string[]).includes(name)) return name;
  return ['accountId', 'mobilePhone', 'smsConsent'].includes(field) ? field : undefined;
}


/**
 * Step 2: who the patient is, where the kit goes, and the treating provider; sending it creates
 * the order (waiting for payment). The server's field messages land on their fields.
 */
export function DetailsStep({ product, answers, patient, fixedAccount, invitationToken, mirakind, replaces = null, onCreated }: {
  product: PatientProduct;
  answers: EligibilityAnswers;
  patient: PatientValues;
  fixedAccount: FixedAccount | null;
  invitationToken: string | null;
  mirakind: boolean;
  /** The unpaid order this one replaces: cancelled with this one's creation. */
  replaces?: PatientOrderKey | null;
  onCreated: (created: CreatedPatientOrder, patient: PatientValues) => void;
}) {
  const accounts = usePrpAccounts(fixedAccount === null);
  const { t, language } = usePatientText();
  const form = useForm<DetailsValues>({
    initialValues: { ...patient, accountId: fixedAccount ? String(fixedAccount.id) : null, mobilePhone: '', smsConsent: false },
    validate: (values) => {
      const { accountId, mobilePhone, smsConsent, ...person } = values;
      return {
        ...patientErrors(person, t),
        ...(accountId ? {} : { accountId: t('order.details.required.accountId') }),
        ...(smsConsent && !mobilePhone.trim() ? { mobilePhone: t('texts.needsNumber') } : {}),
      };
    },
  });
  const sending = useFormSubmit(
    form,
    ({ accountId, mobilePhone, smsConsent, ...person }) =>
      createPatientOrder({
        product,
        answers,
        patient: { ...person, dateOfBirth: dateOfBirthOf(person.dateOfBirth), phone: person.phone.trim() || null, addressLine2: person.addressLine2.trim() || null, state: person.state.trim().toUpperCase() },
        accountId: Number(accountId),
        invitationToken,
        mirakind,
        ...(replaces ? { replaces } : {}),
        // The page's language is the patient's: their emails and texts are written in it.
        language,
        mobilePhone: mobilePhone.trim() || null,
        smsConsent,
      }),
    {
      fieldOf: detailsFieldOf,
      onSuccess: (created, { accountId: _accountId, mobilePhone: _mobilePhone, smsConsent: _smsConsent, ...person }) => onCreated(created, person),
    },
  );
  const field = (name: keyof DetailsValues) => form.getInputProps(name);
  // The boxes as typed (the form holds the date they make, which the rule checks).
  const [dob, setDob] = useState(() => partsOf(patient.dateOfBirth));
  const refused = sending.error instanceof ApiError && sending.error.status === 410;

  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label={t('order.details.formLabel')}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput label={t('order.details.firstName')} autoComplete="given-name" withAsterisk {...field('firstName')} />
          <TextInput label={t('order.details.lastName')} autoComplete="family-name" withAsterisk {...field('lastName')} />
        </SimpleGrid>
        <DateOfBirthBoxes
          required
          value={dob}
          onChange={(parts) => {
            setDob(parts);
            form.setFieldValue('dateOfBirth', composeDate(parts));
          }}
          error={form.errors.dateOfBirth ? String(form.errors.dateOfBirth) : null}
        />
        <TextInput label={t('order.details.email')} type="email" autoComplete="email" description={t('order.details.emailHint')} withAsterisk {...field('email')} />
        <TextInput label={t('order.details.phone')} type="tel" autoComplete="tel" {...field('phone')} />
        <TextConsentFields
          labels={{ mobile: t('texts.mobilePhone'), mobileHint: t('texts.mobileHint'), consent: t('texts.consent'), consentHint: t('texts.consentHint') }}
          mobileProps={field('mobilePhone')}
          consentProps={form.getInputProps('smsConsent', { type: 'checkbox' })}
        />
        <Text fw={600} mt="sm">
          {t('order.details.kitAddress')}
        </Text>
        <TextInput label={t('order.details.addressLine1')} autoComplete="address-line1" withAsterisk {...field('addressLine1')} />
        <TextInput label={t('order.details.addressLine2')} autoComplete="address-line2" {...field('addressLine2')} />
        <TextInput label={t('order.details.city')} autoComplete="address-level2" withAsterisk {...field('city')} />
        <SimpleGrid cols={2} spacing="md">
          <TextInput label={t('order.details.state')} description={t('order.details.stateHint')} autoComplete="address-level1" maxLength={2} withAsterisk {...field('state')} />
          <TextInput label={t('order.details.postalCode')} autoComplete="postal-code" inputMode="numeric" maxLength={10} withAsterisk {...field('postalCode')} />
        </SimpleGrid>
        <Text fw={600} mt="sm">
          {t('order.details.treatingProvider')}
        </Text>
        {fixedAccount ? (
          <Text data-testid="treating-provider">{fixedAccount.name}</Text>
        ) : (
          <Select
            label={t('order.details.providerLabel')}
            description={t('order.details.providerHint')}
            placeholder={accounts.isLoading ? t('common.loading') : t('order.details.chooseClinic')}
            data={(accounts.data ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
            searchable
            allowDeselect={false}
            nothingFoundMessage={t('order.details.noClinic')}
            // On a phone (mobile viewport) Mantine took the field for detached and hid the list.
            comboboxProps={{ hideDetached: false }}
            withAsterisk
            {...field('accountId')}
          />
        )}
        <FormError title={refused ? t('order.invitationUnusable') : t('order.details.notCreated')} error={sending.error} />
        <Button type="submit" size="lg" fullWidth loading={sending.submitting}>
          {t('common.continue')}
        </Button>
      </Stack>
    </form>
  );
}
