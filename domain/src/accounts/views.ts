/** What the account endpoints answer, as JSON (the admin's list, the LIMS calls, a provider's accounts): answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
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
  createdAt: s.string,
});
export type AdminAccountRow = s.Infer<typeof AdminAccountRow>;

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
