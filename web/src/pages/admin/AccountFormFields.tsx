/**
 * The fields of an account, as the New account page and the account page both edit them: name and
 * type, portal access and flags, phone, shipping and billing addresses, departments and ordering
 * physicians. The form holds text ('' is "not given"); accountBodyOf turns it into what the API takes.
 * The forms are uncontrolled (ACCOUNT_FORM_MODE): typing in one of its thirty fields re-renders none of the others.
 */
import { Button, Checkbox, Fieldset, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import {
  ACCOUNT_MAX_DEPARTMENTS, ACCOUNT_NAME_MAX_LENGTH, ACCOUNT_TYPES, ADDRESS_CITY_MAX_LENGTH, ADDRESS_LINE_MAX_LENGTH, ADDRESS_POSTAL_CODE_MAX_LENGTH,
  ADDRESS_STATE_MAX_LENGTH, AccountType, DEFAULT_COUNTRY, isValidNpi, PERSON_NAME_MAX_LENGTH, SPECIALTIES,
  type AdminAccountDetail, type PostalAddress, type Specialty, type UpdateAccountBody,
} from '@platform/domain';

type AddressInput = { [K in keyof PostalAddress]: string };
type AddressKey = 'shippingAddress' | 'billingAddress';
type FlagKey = 'eapPartner' | 'international' | 'clinicAccess' | 'researchAccess' | 'takesPatientOrders';

export interface AccountFormValues {
  name: string;
  type: AccountType;
  eapPartner: boolean;
  international: boolean;
  clinicAccess: boolean;
  researchAccess: boolean;
  takesPatientOrders: boolean;
  phone: string;
  shippingAddress: AddressInput;
  billingAddress: AddressInput;
  departments: string[];
  /** A physician already on the account keeps its id; a new one has none. */
  physicians: { id: number | null; firstName: string; lastName: string; npi: string; specialty: Specialty | null }[];
}

const emptyAddress = (): AddressInput => ({ addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '', country: DEFAULT_COUNTRY });

export const emptyAccountForm = (): AccountFormValues => ({
  name: '', type: AccountType.General, eapPartner: false, international: false, clinicAccess: true, researchAccess: false, takesPatientOrders: false,
  phone: '', shippingAddress: emptyAddress(), billingAddress: emptyAddress(), departments: [], physicians: [],
});

const addressInputOf = (a: PostalAddress | null): AddressInput =>
  a ? { ...a, addressLine2: a.addressLine2 ?? '', state: a.state ?? '' } : emptyAddress();

/** The form's values of a stored account. */
export const accountFormOf = (d: AdminAccountDetail): AccountFormValues => ({
  name: d.name, type: d.type, eapPartner: d.eapPartner, international: d.international, clinicAccess: d.clinicAccess, researchAccess: d.researchAccess,
  takesPatientOrders: d.takesPatientOrders, phone: d.phone ?? '', shippingAddress: addressInputOf(d.shippingAddress), billingAddress: addressInputOf(d.billingAddress),
  departments: d.departments, physicians: d.physicians.map((p) => ({ id: p.id, firstName: p.firstName, lastName: p.lastName, npi: p.npi ?? '', specialty: p.specialty })),
});

/** An address left blank (only its default country) is "none". */
function addressOf(a: AddressInput): PostalAddress | null {
  const t = (v: string) => v.trim();
  if (![a.addressLine1, a.addressLine2, a.city, a.state, a.postalCode].some((v) => t(v))) return null;
  return { addressLine1: t(a.addressLine1), addressLine2: t(a.addressLine2) || null, city: t(a.city), state: t(a.state) || null, postalCode: t(a.postalCode), country: t(a.country) };
}

/** What the API takes (PUT admin/accounts/{id}; the New account page leaves out the physicians' ids). */
export const accountBodyOf = (v: AccountFormValues): Omit<UpdateAccountBody, 'supportMailboxes'> => ({
  name: v.name.trim(), type: v.type, eapPartner: v.eapPartner, international: v.international, clinicAccess: v.clinicAccess, researchAccess: v.researchAccess,
  takesPatientOrders: v.takesPatientOrders, phone: v.phone.trim() || null, shippingAddress: addressOf(v.shippingAddress), billingAddress: addressOf(v.billingAddress),
  departments: v.departments.map((d) => d.trim()).filter(Boolean),
  physicians: v.physicians.map((p) => ({ id: p.id, firstName: p.firstName.trim(), lastName: p.lastName.trim(), npi: p.npi.trim(), specialty: p.specialty })),
});

/** How the account forms keep their values: in the inputs, read at submit (each input keyed by form.key). */
export const ACCOUNT_FORM_MODE = 'uncontrolled' as const;

/** The checks made before sending (the server checks the rest and names the field). */
export const accountFormValidation = {
  name: (v: string) => (v.trim() ? null : 'Enter the account name'),
  clinicAccess: (v: boolean, values: AccountFormValues) => (v || values.researchAccess ? null : 'An account needs clinic access, research access or both'),
  departments: (list: string[]) => {
    const names = list.map((d) => d.trim().toLowerCase()).filter(Boolean);
    return new Set(names).size === names.length ? null : 'Departments must not repeat a name';
  },
  physicians: {
    firstName: (v: string) => (v.trim() ? null : 'Enter the first name'),
    lastName: (v: string) => (v.trim() ? null : 'Enter the last name'),
    npi: (v: string) => (isValidNpi(v.trim()) ? null : 'NPI must be a valid 10-digit National Provider Identifier'),
  },
};

/** The portal flags, with what each means for the account. */
const FLAGS: { key: FlagKey; label: string; description: string }[] = [
  { key: 'clinicAccess', label: 'Clinic access', description: 'Its users may use the Clinical Portal' },
  { key: 'researchAccess', label: 'Research access', description: 'Its users may use the Research Portal' },
  { key: 'eapPartner', label: 'EAP partner', description: 'An Early Access Program partner' },
  { key: 'international', label: 'International', description: 'No US insurance and no self-pay; shipping differs' },
  { key: 'takesPatientOrders', label: 'Takes patient orders', description: 'Patients ordering PROSTOX themselves may name it as their provider' },
];

const emptyPhysician = (): AccountFormValues['physicians'][number] => ({ id: null, firstName: '', lastName: '', npi: '', specialty: null });

type Form = UseFormReturnType<AccountFormValues>;

/** Every field of an account, in the order the pages show them. */
export function AccountFormFields({ form, lockedPhysicianIds = new Set() }: { form: Form; lockedPhysicianIds?: ReadonlySet<number> }) {
  const values = form.getValues();
  const departmentError = (i: number) => {
    const name = values.departments[i].trim().toLowerCase();
    if (name && values.departments.findIndex((d) => d.trim().toLowerCase() === name) !== i) return 'Already listed';
    return form.errors[`departments.${i}`];
  };
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Account name" required maxLength={ACCOUNT_NAME_MAX_LENGTH} autoComplete="off" key={form.key('name')} {...form.getInputProps('name')} />
        <Select label="Account type" data={ACCOUNT_TYPES} allowDeselect={false} comboboxProps={{ withinPortal: true }} key={form.key('type')} {...form.getInputProps('type')} />
        <TextInput label="Phone" type="tel" autoComplete="off" maxLength={20} key={form.key('phone')} {...form.getInputProps('phone')} />
      </SimpleGrid>

      <Fieldset legend="Portal access and flags">
        <Stack gap="sm">
          {FLAGS.map((f) => (
            <Checkbox
              key={form.key(f.key)}
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

      <AddressFields form={form} field="shippingAddress" legend="Shipping address" description="Where the lab sends kits and parcels." />
      <AddressFields form={form} field="billingAddress" legend="Billing address" description="Where invoices go. Leave it blank when it is the shipping address." />

      <Fieldset legend="Departments">
        <Stack gap="sm">
          {values.departments.length === 0 && <Text c="dimmed" fz="sm">No departments. Add one for each the account orders from.</Text>}
          {values.departments.map((_, i) => (
            <Group key={i} align="flex-start" gap="sm">
              <TextInput label={`Department ${i + 1}`} maxLength={ACCOUNT_NAME_MAX_LENGTH} autoComplete="off" w={360} key={form.key(`departments.${i}`)} {...form.getInputProps(`departments.${i}`)} error={departmentError(i)} />
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
          {values.physicians.map((p, i) => (
            <Group key={i} align="flex-start" gap="sm" wrap="wrap" role="group" aria-label={`Physician ${i + 1}`}>
              <TextInput label={`Physician ${i + 1} first name`} required maxLength={PERSON_NAME_MAX_LENGTH} autoComplete="off" w={200} key={form.key(`physicians.${i}.firstName`)} {...form.getInputProps(`physicians.${i}.firstName`)} />
              <TextInput label={`Physician ${i + 1} last name`} required maxLength={PERSON_NAME_MAX_LENGTH} autoComplete="off" w={200} key={form.key(`physicians.${i}.lastName`)} {...form.getInputProps(`physicians.${i}.lastName`)} />
              <TextInput label={`Physician ${i + 1} NPI`} required inputMode="numeric" maxLength={10} autoComplete="off" w={160} key={form.key(`physicians.${i}.npi`)} {...form.getInputProps(`physicians.${i}.npi`)} />
              <Select label={`Physician ${i + 1} specialty`} data={SPECIALTIES} placeholder="None" clearable w={200} comboboxProps={{ withinPortal: true }} key={form.key(`physicians.${i}.specialty`)} {...form.getInputProps(`physicians.${i}.specialty`)} />
              {p.id !== null && lockedPhysicianIds.has(p.id) ? (
                <Text fz="sm" c="dimmed" mt={30}>Named on orders: stays</Text>
              ) : (
                <Button variant="subtle" color="red" mt={25} onClick={() => form.removeListItem('physicians', i)} aria-label={`Remove physician ${i + 1}`}>
                  Remove
                </Button>
              )}
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
    </>
  );
}

/** The inputs of one address, in envelope order: label (after the address's name), length limit, hint. */
const ADDRESS_INPUTS: { key: keyof PostalAddress; label: string; max: number; hint?: string }[] = [
  { key: 'addressLine1', label: 'line 1', max: ADDRESS_LINE_MAX_LENGTH },
  { key: 'addressLine2', label: 'line 2', max: ADDRESS_LINE_MAX_LENGTH },
  { key: 'city', label: 'city', max: ADDRESS_CITY_MAX_LENGTH },
  { key: 'state', label: 'state or region', max: ADDRESS_STATE_MAX_LENGTH, hint: 'US: two letters, e.g. CA' },
  { key: 'postalCode', label: 'postal code', max: ADDRESS_POSTAL_CODE_MAX_LENGTH, hint: 'US: ZIP code' },
  { key: 'country', label: 'country', max: 2, hint: 'Two-letter code, e.g. US' },
];

/** One address: US ones take a two-letter state and a ZIP code; the country is a two-letter code. */
function AddressFields({ form, field, legend, description }: { form: Form; field: AddressKey; legend: string; description: string }) {
  return (
    <Fieldset legend={legend}>
      <Stack gap="sm">
        <Text c="dimmed" fz="sm">{description}</Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {ADDRESS_INPUTS.map((i) => (
            <TextInput
              key={form.key(`${field}.${i.key}`)}
              label={`${legend} ${i.label}`}
              description={i.hint}
              maxLength={i.max}
              autoComplete="off"
              {...form.getInputProps(`${field}.${i.key}`)}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Fieldset>
  );
}
