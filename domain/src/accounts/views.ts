/** What the account endpoints answer, as JSON (the admin's list, the LIMS calls, a provider's accounts): answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { SPECIALTIES } from '../access/access';
import { TEST_LINES } from '../catalogue/test-lines';
import { ACCOUNT_ROLES, ACCOUNT_TYPES } from './accounts';

/** An account a provider user may act in, with their role in it. */
export const AccountSummary = s.object({
  id: s.integer,
  name: s.string,
  type: s.oneOf(ACCOUNT_TYPES),
  role: s.oneOf(ACCOUNT_ROLES),
  eapPartner: s.boolean,
  international: s.boolean,
  clinicAccess: s.boolean,
  researchAccess: s.boolean,
});
export type AccountSummary = s.Infer<typeof AccountSummary>;

/** GET admin/accounts (rows), POST admin/accounts/create (201). */
export const AdminAccountRow = s.object({
  id: s.integer,
  name: s.string,
  type: s.oneOf(ACCOUNT_TYPES),
  eapPartner: s.boolean,
  international: s.boolean,
  clinicAccess: s.boolean,
  researchAccess: s.boolean,
  takesPatientOrders: s.boolean,
  isActive: s.boolean,
  departments: s.array(s.string),
  physicianCount: s.integer,
  userCount: s.integer,
  /** Samples of the account, whatever their status. */
  sampleCount: s.integer,
  phone: s.nullable(s.string),
  createdAt: s.string,
});
export type AdminAccountRow = s.Infer<typeof AdminAccountRow>;

/** An address as the account endpoints answer it (domain/src/shared/addresses.ts PostalAddress). */
export const PostalAddressView = s.object({
  addressLine1: s.string,
  addressLine2: s.nullable(s.string),
  city: s.string,
  state: s.nullable(s.string),
  postalCode: s.string,
  country: s.string,
});

/** GET and PUT admin/accounts/{accountId}: everything the admin edits, with the physicians' ids. */
export const AdminAccountDetail = s.extend(s.pick(AdminAccountRow, [
  'id', 'name', 'type', 'eapPartner', 'international', 'clinicAccess', 'researchAccess', 'takesPatientOrders', 'isActive', 'phone', 'departments',
  'userCount', 'sampleCount', 'createdAt',
]), {
  shippingAddress: s.nullable(PostalAddressView),
  billingAddress: s.nullable(PostalAddressView),
  physicians: s.array(s.object({
    id: s.integer,
    firstName: s.string,
    lastName: s.string,
    npi: s.nullable(s.string),
    specialty: s.nullable(s.oneOf(SPECIALTIES)),
    /** Orders name this physician: they cannot be removed from the account. */
    hasOrders: s.boolean,
  })),
  supportMailboxes: s.array(s.object({ testLine: s.oneOf(TEST_LINES), email: s.string })),
  updatedAt: s.string,
});
export type AdminAccountDetail = s.Infer<typeof AdminAccountDetail>;

/** GET lims/accounts (rows; x-total-count). */
export const LimsAccountRow = s.object({
  id: s.integer,
  name: s.string,
  type: s.string,
  isActive: s.boolean,
  clinicAccess: s.boolean,
  researchAccess: s.boolean,
  eapPartner: s.boolean,
  international: s.boolean,
});
export type LimsAccountRow = s.Infer<typeof LimsAccountRow>;

/** GET lims/accounts/{id}/departments */
export const LimsDepartment = s.object({ id: s.integer, name: s.string });
export type LimsDepartment = s.Infer<typeof LimsDepartment>;

/** GET lims/accounts/{id}/physicians */
export const LimsPhysician = s.object({ id: s.integer, name: s.string, firstName: s.string, lastName: s.string, npi: s.nullable(s.string), specialty: s.nullable(s.string) });
export type LimsPhysician = s.Infer<typeof LimsPhysician>;
