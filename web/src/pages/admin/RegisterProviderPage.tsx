import { useState } from 'react';
import { Anchor, Fieldset, Paper, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Link } from 'react-router-dom';
import {
  ADMIN_TOASTS, fullName, isValidNpi, PERSON_NAME_MAX_LENGTH, PROVIDER_TITLES, ProviderTitle, SPECIALTIES, type ContactDetail, type Specialty,
} from '@platform/domain';
import { registerProvider, useRefreshAdmin } from '../../api/admin';
import { Notice } from '../../components/Notice';
import { nestedFieldOf } from '../../forms/server-errors';
import { useFormSubmit } from '../../forms/use-form-submit';
import { showSuccessToast } from '../../shell/success-toast';
import { AccountGrantsField, emptyGrant, grantRowsProblem, grantsOf, roleForTitle, type GrantRow } from './AccountGrantsField';
import { AdminPageFrame } from './AdminPageFrame';
import { onCommandError } from './errors';
import { FormFooter } from './FormFooter';
import { ADMIN_PATHS, adminUserPath } from './paths';

interface RegisterValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  title: ProviderTitle | null;
  specialty: Specialty | null;
  npi: string;
  accounts: GrantRow[];
}

const EMPTY: RegisterValues = { firstName: '', lastName: '', email: '', phone: '', title: null, specialty: null, npi: '', accounts: [emptyGrant()] };

const required = (what: string) => (v: string) => (v.trim() ? null : `Enter the ${what}`);

/** /admin/provider/register: a provider user made by an admin, emailed a link to set their password. */
export function RegisterProviderPage() {
  const [created, setCreated] = useState<ContactDetail | null>(null);
  const refresh = useRefreshAdmin();
  const form = useForm<RegisterValues>({
    initialValues: EMPTY,
    validate: {
      firstName: required('first name'),
      lastName: required('last name'),
      email: (v) => (!v.trim() ? 'Enter the email address' : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? null : 'Enter a valid email address'),
      title: (v) => (v ? null : 'Choose the title'),
      npi: (v, values) => {
        const npi = v.trim();
        if (!npi) return values.title === ProviderTitle.Physician ? 'NPI is required for a physician' : null;
        return isValidNpi(npi) ? null : 'NPI must be a valid 10-digit National Provider Identifier';
      },
      accounts: (rows) => grantRowsProblem(rows),
    },
  });
  const values = form.getValues();

  const sending = useFormSubmit(
    form,
    (v) =>
      registerProvider({
        firstName: v.firstName.trim(),
        lastName: v.lastName.trim(),
        email: v.email.trim(),
        phone: v.phone.trim() || null,
        title: v.title!,
        specialty: v.specialty,
        npi: v.npi.trim() || null,
        accounts: grantsOf(v.accounts),
      }),
    {
      fieldOf: nestedFieldOf(() => form.getValues()),
      onSuccess: (answer) => {
        showSuccessToast(ADMIN_TOASTS.userCreated);
        setCreated(answer.contact);
        form.setValues(EMPTY);
        form.resetDirty(EMPTY);
        void refresh();
      },
      onError: onCommandError,
    },
  );

  return (
    <AdminPageFrame
      title="Register a provider"
      subtitle="A physician or staff member added on their behalf: they get an email with a link to set their password."
      maxWidth={880}
      actions={<Anchor component={Link} to={ADMIN_PATHS.users}>Provider users</Anchor>}
    >
      {created && (
        <Notice color="green" title="Provider registered" onClose={sending.returnFocusAfter(() => setCreated(null))}>
          {fullName(created)} ({created.email}) is registered and was emailed a link to set a password.{' '}
          <Anchor component={Link} to={adminUserPath(created.id)}>
            Open their page
          </Anchor>
        </Notice>
      )}
      <Paper withBorder p="lg">
        <form onSubmit={sending.onSubmit} noValidate aria-label="Register a provider">
          <Fieldset variant="unstyled" disabled={sending.submitting}>
            <Stack gap="md">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="First name" required maxLength={PERSON_NAME_MAX_LENGTH} autoComplete="off" {...form.getInputProps('firstName')} />
                <TextInput label="Last name" required maxLength={PERSON_NAME_MAX_LENGTH} autoComplete="off" {...form.getInputProps('lastName')} />
                <TextInput label="Email" type="email" required autoComplete="off" {...form.getInputProps('email')} />
                <TextInput label="Phone" type="tel" autoComplete="off" {...form.getInputProps('phone')} />
                <Select
                  label="Title"
                  data={PROVIDER_TITLES}
                  required
                  placeholder="Choose a title"
                  allowDeselect={false}
                  comboboxProps={{ withinPortal: true }}
                  {...form.getInputProps('title')}
                  onChange={(v) => {
                    form.setFieldValue('title', v as ProviderTitle | null);
                    // New rows (and an untouched first row) take the role that goes with the title.
                    const rows = form.getValues().accounts;
                    if (rows.length === 1 && rows[0].accountId === null) form.setFieldValue('accounts', [{ ...rows[0], role: roleForTitle(v) }]);
                    if (form.errors.npi) form.validateField('npi');
                  }}
                />
                <Select
                  label="Specialty"
                  data={SPECIALTIES}
                  placeholder="None"
                  clearable
                  comboboxProps={{ withinPortal: true }}
                  {...form.getInputProps('specialty')}
                />
                <TextInput
                  label="NPI"
                  description={values.title === ProviderTitle.Physician ? 'Required for a physician' : 'Optional unless a physician'}
                  required={values.title === ProviderTitle.Physician}
                  inputMode="numeric"
                  maxLength={10}
                  autoComplete="off"
                  {...form.getInputProps('npi')}
                />
              </SimpleGrid>
              <AccountGrantsField
                rows={values.accounts}
                onChange={(rows) => {
                  form.setFieldValue('accounts', rows);
                  if (form.errors.accounts) form.validateField('accounts');
                }}
                errorOf={(path) => form.errors[path]}
                error={form.errors.accounts}
                defaultRole={values.title ? roleForTitle(values.title) : null}
              />
              <FormFooter sending={sending} errorTitle="The user was not created" submitLabel="Register provider" />
            </Stack>
          </Fieldset>
        </form>
      </Paper>
    </AdminPageFrame>
  );
}
