/** What the account endpoints answer, as JSON (the admin's list, the LIMS calls, a provider's accounts). Types only. */
import type { AccountRole, AccountType } from './accounts';

/** An account a provider user may act in, with their role in it. */
export interface AccountSummary {
  id: number;
  name: string;
  type: AccountType;
  role: AccountRole;
  eapPartner: boolean;
  international: boolean;
  clinicAccess: boolean;
  researchAccess: boolean;
}

/** GET admin/accounts (rows), POST admin/accounts/create (201). */
export interface AdminAccountRow {
  id: number;
  name: string;
  type: AccountType;
  eapPartner: boolean;
  international: boolean;
  clinicAccess: boolean;
  researchAccess: boolean;
  takesPatientOrders: boolean;
  isActive: boolean;
  departments: string[];
  physicianCount: number;
  userCount: number;
  createdAt: string;
}

/** GET lims/accounts (rows; x-total-count). */
export interface LimsAccountRow {
  id: number;
  name: string;
  type: string;
  isActive: boolean;
  clinicAccess: boolean;
  researchAccess: boolean;
  eapPartner: boolean;
  international: boolean;
}

/** GET lims/accounts/{id}/departments */
export interface LimsDepartment { id: number; name: string }

/** GET lims/accounts/{id}/physicians */
export interface LimsPhysician { id: number; name: string; firstName: string; lastName: string; npi: string | null; specialty: string | null }
