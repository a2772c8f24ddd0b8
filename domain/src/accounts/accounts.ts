/** Accounts (the clinics and research partners the lab works with): their types, the roles people have in them, field limits. */
import { valuesOf } from '../shared/values';

export const AccountType = {
  ProstoxResearchPartner: 'PROSTOX Research Partner',
  General: 'General',
  MiraKind: 'MiraKind',
} as const;
export type AccountType = (typeof AccountType)[keyof typeof AccountType];
export const ACCOUNT_TYPES = valuesOf(AccountType);

/** Account roles. The spec writes the third as '{product} Super Admin'; the product name is PROSTOX. */
export const AccountRole = {
  Physician: 'Physician',
  SupportStaff: 'Support Staff',
  SuperAdmin: 'PROSTOX Super Admin',
} as const;
export type AccountRole = (typeof AccountRole)[keyof typeof AccountRole];
export const ACCOUNT_ROLES = valuesOf(AccountRole);

export const ACCOUNT_NAME_MAX_LENGTH = 200;
export const ACCOUNT_MAX_DEPARTMENTS = 50;

/** The addresses an account keeps: where the lab sends kits and parcels, and where invoices go. */
export const AccountAddressKind = {
  Shipping: 'shipping',
  Billing: 'billing',
} as const;
export type AccountAddressKind = (typeof AccountAddressKind)[keyof typeof AccountAddressKind];
export const ACCOUNT_ADDRESS_KINDS = valuesOf(AccountAddressKind);
