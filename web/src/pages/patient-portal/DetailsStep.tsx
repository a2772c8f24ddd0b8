import { Button, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { dateOfBirthMessage, type CreatedPatientOrder, type EligibilityAnswers, type OrderingPatient, type PatientProduct } from '@platform/domain';
import { ApiError } from '../../api/fetcher';
import { createPatientOrder, usePrpAccounts } from '../../api/patient-portal';
import { FormError } from '../../components/FormError';
import { useFormSubmit } from '../../forms/use-form-submit';

export type PatientValues = Record<keyof OrderingPatient, string>;

export const EMPTY_PATIENT: PatientValues = {
  firstName: '', lastName: '', dateOfBirth: '', email: '', phone: '', addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '',
};

interface DetailsValues extends PatientValues {
  accountId: string | null;
}

const PATIENT_FIELDS = Object.keys(EMPTY_PATIENT) as (keyof OrderingPatient)[];

const REQUIRED: Partial<Record<keyof OrderingPatient, string>> = {
  firstName: 'Enter your first name',
  lastName: 'Enter your last name',
  email: 'Enter your email address',
  addressLine1: 'Enter the street address',
  city: 'Enter the city',
  state: 'Enter the state',
  postalCode: 'Enter the ZIP code',
};

/**
 * The checks made before sending: what is missing, and the date of birth by the domain's rule in
 * the API's words. The server checks everything again (names, email, state, ZIP, phone) and its
 * messages land on the same fields.
 */
function patientErrors(values: PatientValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, message] of Object.entries(REQUIRED)) if (!values[field as keyof OrderingPatient].trim()) errors[field] = message;
  const dob = values.dateOfBirth.trim() ? dateOfBirthMessage(values.dateOfBirth) : 'Enter your date of birth';
  if (dob) errors.dateOfBirth = dob;
  return errors;
}

/** Where the server's paths ('patient.dateOfBirth', 'accountId') land on this form. */
function detailsFieldOf(field: string): string | undefined {
  const name = field.replace(/^patient\./, '');
  if ((PATIENT_FIELDS as string[]).includes(name)) return name;
  return field === 'accountId' ? 'accountId' : undefined;
}

/** The treating provider when it is not the patient's to choose (an invitation, or the clinic's own MiraKind order). */
export interface FixedAccount {
  id: number;
  name: string;
}

/**
 * Step 2: who the patient is, where the kit goes, and the treating provider; sending it creates
 * the order (waiting for payment). The server's field messages land on their fields.
 */
export function DetailsStep({ product, answers, patient, fixedAccount, invitationToken, mirakind, onCreated }: {
  product: PatientProduct;
  answers: EligibilityAnswers;
  patient: PatientValues;
  fixedAccount: FixedAccount | null;
  invitationToken: string | null;
  mirakind: boolean;
  onCreated: (created: CreatedPatientOrder, patient: PatientValues) => void;
}) {
  const accounts = usePrpAccounts(fixedAccount === null);
  const form = useForm<DetailsValues>({
    initialValues: { ...patient, accountId: fixedAccount ? String(fixedAccount.id) : null },
    validate: (values) => {
      const { accountId, ...person } = values;
      return { ...patientErrors(person), ...(accountId ? {} : { accountId: 'Choose your treating provider' }) };
    },
  });
  const sending = useFormSubmit(
    form,
    ({ accountId, ...person }) =>
      createPatientOrder({
        product,
        answers,
        patient: { ...person, phone: person.phone.trim() || null, addressLine2: person.addressLine2.trim() || null, state: person.state.trim().toUpperCase() },
        accountId: Number(accountId),
        invitationToken,
        mirakind,
      }),
    {
      fieldOf: detailsFieldOf,
      onSuccess: (created, { accountId: _accountId, ...person }) => onCreated(created, person),
    },
  );
  const field = (name: keyof DetailsValues) => form.getInputProps(name);
  const refused = sending.error instanceof ApiError && sending.error.status === 410;

  return (
    <form onSubmit={sending.onSubmit} noValidate aria-label="Your details">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <TextInput label="First name" autoComplete="given-name" withAsterisk {...field('firstName')} />
          <TextInput label="Last name" autoComplete="family-name" withAsterisk {...field('lastName')} />
        </SimpleGrid>
        <TextInput
          label="Date of birth"
          description="Year-month-day, for example 1957-08-19"
          placeholder="YYYY-MM-DD"
          inputMode="numeric"
          autoComplete="bday"
          maxLength={10}
          withAsterisk
          {...field('dateOfBirth')}
        />
        <TextInput label="Email" type="email" autoComplete="email" description="Your receipt and updates are sent here" withAsterisk {...field('email')} />
        <TextInput label="Phone" type="tel" autoComplete="tel" {...field('phone')} />
        <Text fw={600} mt="sm">
          Where should we send your kit?
        </Text>
        <TextInput label="Address line 1" autoComplete="address-line1" withAsterisk {...field('addressLine1')} />
        <TextInput label="Address line 2" autoComplete="address-line2" {...field('addressLine2')} />
        <TextInput label="City" autoComplete="address-level2" withAsterisk {...field('city')} />
        <SimpleGrid cols={2} spacing="md">
          <TextInput label="State" description="Two letters, e.g. CA" autoComplete="address-level1" maxLength={2} withAsterisk {...field('state')} />
          <TextInput label="ZIP code" autoComplete="postal-code" inputMode="numeric" maxLength={10} withAsterisk {...field('postalCode')} />
        </SimpleGrid>
        <Text fw={600} mt="sm">
          Your treating provider
        </Text>
        {fixedAccount ? (
          <Text data-testid="treating-provider">{fixedAccount.name}</Text>
        ) : (
          <Select
            label="Treating provider"
            description="The clinic whose physician reviews and signs off your order"
            placeholder={accounts.isLoading ? 'Loading…' : 'Choose your clinic'}
            data={(accounts.data ?? []).map((a) => ({ value: String(a.id), label: a.name }))}
            searchable
            allowDeselect={false}
            nothingFoundMessage="No clinic matches"
            // On a phone (mobile viewport) Mantine took the field for detached and hid the list.
            comboboxProps={{ hideDetached: false }}
            withAsterisk
            {...field('accountId')}
          />
        )}
        <FormError title={refused ? 'This invitation cannot be used' : 'Your order was not created'} error={sending.error} />
        <Button type="submit" size="lg" fullWidth loading={sending.submitting}>
          Continue
        </Button>
      </Stack>
    </form>
  );
}
