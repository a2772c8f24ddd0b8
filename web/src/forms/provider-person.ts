/**
 * The fields that describe a provider person (name, email, phone, title, specialty, NPI): on the
 * request-access form and on a super admin's add-user form. The API's rule is the same for both
 * (domain/src/admin-schemas.ts, providerFields): NPI required for a physician.
 */
import { isValidNpi, ProviderTitle, type ProviderTitle as ProviderTitleT, type Specialty } from '@platform/domain';

export interface ProviderPersonValues {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  title: string | null;
  specialty: string | null;
  npi: string;
}

export const EMPTY_PROVIDER_PERSON: ProviderPersonValues = { firstName: '', lastName: '', email: '', phone: '', title: null, specialty: null, npi: '' };

export const NPI_REQUIRED = 'NPI is required for a physician';
export const NPI_INVALID = 'NPI must be a valid 10-digit National Provider Identifier';

/** The checks made before sending (the server checks again, and its messages land on the same fields). */
export const providerPersonRules = {
  firstName: (value: string) => (value.trim() ? null : 'Enter the first name'),
  lastName: (value: string) => (value.trim() ? null : 'Enter the last name'),
  email: (value: string) => (!value.trim() ? 'Enter the email address' : /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim()) ? null : 'Enter a valid email address'),
  title: (value: string | null) => (value ? null : 'Choose the title'),
  npi: (value: string, values: { title: string | null }) => {
    const npi = value.trim();
    if (!npi) return values.title === ProviderTitle.Physician ? NPI_REQUIRED : null;
    return isValidNpi(npi) ? null : NPI_INVALID;
  },
};

const orNull = (value: string | null) => (value && value.trim() ? value.trim() : null);

/** The values as the API takes them: trimmed, an empty optional field as null. */
export function providerPersonBody(values: ProviderPersonValues) {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    phone: orNull(values.phone),
    title: values.title as ProviderTitleT,
    specialty: orNull(values.specialty) as Specialty | null,
    npi: orNull(values.npi),
  };
}
