import { useState } from 'react';
import { Anchor, Button, Checkbox, Fieldset, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useForm } from '@mantine/form';
import {
  ACCOUNT_MAX_DEPARTMENTS, ACCOUNT_NAME_MAX_LENGTH, ACCOUNT_TYPES, ADMIN_TOASTS, AccountType, isValidNpi, PERSON_NAME_MAX_LENGTH, SPECIALTIES,
  type AdminAccountRow, type CreateAccountBody,
} from '@platform/domain';
import { createAccount, useRefreshAdmin } from '../../api/admin';
import { Notice } from '../../components/Notice';
import { nestedFieldOf } from '../../forms/server-errors';
import { useFormSubmit } from '../../forms/use-form-submit';
import { showSuccessToast } from '../../shell/success-toast';
import { AdminPageFrame } from './AdminPageFrame';
import { ADMIN_PATHS } from './paths';
import { onCommandError } from './errors';
import { FormFooter } from './FormFooter';

// The form holds the account as it is sent: the domain's CreateAccountBody.
const EMPTY: CreateAccountBody = {
  name: '', type: AccountType.General, eapPartner: false, international: false, clinicAccess: true, researchAccess: false, takesPatientOrders: false,
  shippingAddress: null, billingAddress: null, phone: null, departments: [], physicians: [],
};
const emptyPhysician = (): CreateAccountBody['physicians'][number] => ({ firstName: '', lastName: '', npi: '', specialty: null });

/** The portal flags, with what each means for the account. */
const FLAGS: { key: 'eapPartner' | 'international' | 'clinicAccess' | 'researchAccess' | 'takesPatientOrders'; label: string; description: string }[] = [
  { key: 'clinicAccess', label: 'Clinic access', description: 'Its users may use the Clinical Portal' },
  { key: 'researchAccess', label: 'Research access', description: 'Its users may use the Research Portal' },
  { key: 'eapPartner', label: 'EAP partner', description: 'An Early Access Program partner' },
  { key: 'international', label: 'International', description: 'No US insurance and no self-pay; shipping differs' },
  { key: 'takesPatientOrders', label: 'Takes patient orders', description: 'Patients ordering PROSTOX themselves may name it as their provider' },
];

/** /admin/provider/account/new: a clinic or research account, its portal access, departments and ordering physicians. */
export function NewAccountPage() {
  const [created, setCreated] = useState<AdminAccountRow | null>(null);
  const refresh = useRefreshAdmin();
  const form = useForm<CreateAccountBody>({
    initialValues: EMPTY,
    validate: {
      name: (v) => (v.trim() ? null : 'Enter the account name'),
      clinicAccess: (v, values) => (v || values.researchAccess ? null : 'An account needs clinic access, research access or both'),
      departments: (list) => {
        const names = list.map((d) => d.trim().toLowerCase()).filter(Boolean);
        return new Set(names).size === names.length ? null : 'Departments must not repeat a name';
      },
      physicians: {
        firstName: (v: string) => (v.trim() ? null : 'Enter the first name'),
        lastName: (v: string) => (v.trim() ? null : 'Enter the last name'),
        npi: (v: string) => (isValidNpi(v.trim()) ? null : 'NPI must be a valid 10-digit National Provider Identifier'),
      },
    },
  });
  const values = form.getValues();

  const sending = useFormSubmit(
    form,
    (v) =>
      createAccount({
        ...v,
        name: v.name.trim(),
        departments: v.departments.map((d) => d.trim()).filter(Boolean),
        physicians: v.physicians.map((p) => ({ firstName: p.firstName.trim(), lastName: p.lastName.trim(), npi: p.npi.trim(), specialty: p.specialty })),
      }),
    {
      fieldOf: nestedFieldOf(() => form.getValues()),
      onSuccess: (account) => {
        showSuccessToast(ADMIN_TOASTS.accountCreated);
        setCreated(account);
        form.setValues(EMPTY);
        form.resetDirty(EMPTY);
        void refresh();
      },
      onError: onCommandError,
    },
  );

  const departmentError = (i: number) => {
    const name = values.departments[i].trim().toLowerCase();
    if (name && values.departments.findIndex((d) => d.trim().toLowerCase() === name) !== i) return 'Already listed';
    return form.errors[`departments.${i}`];
  };

  return (
    <AdminPageFrame title="New account" subtitle="A clinic or research account, its portal access, departments and ordering physicians." maxWidth={960}>
      {/* The toast said it was created; this says what comes next (not the same news twice). */}
      {created && (
        <Notice color="blue" title="Next: its providers" onClose={sending.returnFocusAfter(() => setCreated(null))}>
          {created.name} ({created.type}) has no users yet.{' '}
          <Anchor component={Link} to={ADMIN_PATHS.register}>Register a provider</Anchor> to give its physicians and staff access.
        </Notice>
      )}
      <Paper withBorder p="lg">
        <form onSubmit={sending.onSubmit} noValidate aria-label="New account">
          <Fieldset variant="unstyled" disabled={sending.submitting}>
            <Stack gap="lg">
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="Account name" required maxLength={ACCOUNT_NAME_MAX_LENGTH} autoComplete="off" {...form.getInputProps('name')} />
                <Select label="Account type" data={ACCOUNT_TYPES} allowDeselect={false} comboboxProps={{ withinPortal: true }} {...form.getInputProps('type')} />
              </SimpleGrid>

              <Fieldset legend="Portal access and flags">
                <Stack gap="sm">
                  {FLAGS.map((f) => (
                    <Checkbox
                      key={f.key}
                      label={f.label}
                      description={f.description}
                      {...form.getInputProps(f.key, { type: 'checkbox' })}
                      error={f.key === 'clinicAccess' ? undefined : form.errors[f.key]}
                      onChange={(e) => {
                        form.setFieldValue(f.key, e.currentTarget.checked);
                        if (form.errors.clinicAccess) form.validateField('clinicAccess');
                      }}
                    />
                  ))}
                  {form.errors.clinicAccess && (
                    <Text c="red.9" fz="sm" role="alert">
                      {form.errors.clinicAccess}
                    </Text>
                  )}
                </Stack>
              </Fieldset>

              <Fieldset legend="Departments">
                <Stack gap="sm">
                  {values.departments.length === 0 && <Text c="dimmed" fz="sm">No departments. Add one for each the account orders from.</Text>}
                  {values.departments.map((_, i) => (
                    <Group key={i} align="flex-start" gap="sm">
                      <TextInput label={`Department ${i + 1}`} maxLength={ACCOUNT_NAME_MAX_LENGTH} autoComplete="off" w={360} {...form.getInputProps(`departments.${i}`)} error={departmentError(i)} />
                      <Button variant="subtle" color="red" mt={25} onClick={() => form.removeListItem('departments', i)} aria-label={`Remove department ${i + 1}`}>
                        Remove
                      </Button>
                    </Group>
                  ))}
                  {form.errors.departments && <Text c="red.9" fz="sm" role="alert">{form.errors.departments}</Text>}
                  <Group>
                    <Button variant="light" onClick={() => form.insertListItem('departments', '')} disabled={values.departments.length >= ACCOUNT_MAX_DEPARTMENTS}>
                      Add department
                    </Button>
                  </Group>
                </Stack>
              </Fieldset>

              <Fieldset legend="Ordering physicians">
                <Stack gap="md">
                  {values.physicians.length === 0 && <Text c="dimmed" fz="sm">No ordering physicians yet. They need not use the portal themselves.</Text>}
                  {values.physicians.map((_, i) => (
                    <Group key={i} align="flex-start" gap="sm" wrap="wrap" role="group" aria-label={`Physician ${i + 1}`}>
                      <TextInput label={`Physician ${i + 1} first name`} required maxLength={PERSON_NAME_MAX_LENGTH} autoComplete="off" w={200} {...form.getInputProps(`physicians.${i}.firstName`)} />
                      <TextInput label={`Physician ${i + 1} last name`} required maxLength={PERSON_NAME_MAX_LENGTH} autoComplete="off" w={200} {...form.getInputProps(`physicians.${i}.lastName`)} />
                      <TextInput label={`Physician ${i + 1} NPI`} required inputMode="numeric" maxLength={10} autoComplete="off" w={160} {...form.getInputProps(`physicians.${i}.npi`)} />
                      <Select label={`Physician ${i + 1} specialty`} data={SPECIALTIES} placeholder="None" clearable w={200} comboboxProps={{ withinPortal: true }} {...form.getInputProps(`physicians.${i}.specialty`)} />
                      <Button variant="subtle" color="red" mt={25} onClick={() => form.removeListItem('physicians', i)} aria-label={`Remove physician ${i + 1}`}>
                        Remove
                      </Button>
                    </Group>
                  ))}
                  {form.errors.physicians && <Text c="red.9" fz="sm" role="alert">{form.errors.physicians}</Text>}
                  <Group>
                    <Button variant="light" onClick={() => form.insertListItem('physicians', emptyPhysician())} disabled={values.physicians.length >= ACCOUNT_MAX_DEPARTMENTS}>
                      Add physician
                    </Button>
                  </Group>
                </Stack>
              </Fieldset>

              <FormFooter sending={sending} errorTitle="The account was not created" submitLabel="Create account" />
            </Stack>
          </Fieldset>
        </form>
      </Paper>
    </AdminPageFrame>
  );
}
