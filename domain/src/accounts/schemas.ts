/** Request schemas of accounts: creating one (with its departments and ordering physicians) and the account lists. */
import Joi from 'joi';
import { SPECIALTIES, type Specialty } from '../access/access';
import { npiSchema } from '../access/schemas';
import { phoneSchema, postalAddressSchema, type PostalAddress } from '../shared/addresses';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/constants';
import { paging, personName, search, text } from '../shared/schema-fields';
import { ACCOUNT_MAX_DEPARTMENTS, ACCOUNT_NAME_MAX_LENGTH, ACCOUNT_TYPES, AccountType, type AccountType as AccountTypeT } from './accounts';

const STRICT_KEYS = { allowUnknown: false } as const;

/** How the lab reaches an account: its addresses (either may be unknown: null) and its phone. */
export interface AccountContactDetails {
  /** Where kits and parcels go. */
  shippingAddress: PostalAddress | null;
  /** Where invoices go. */
  billingAddress: PostalAddress | null;
  phone: string | null;
}

/** The account's addresses and phone, as a new account and an edited one give them. */
export const accountContactDetailsFields = {
  shippingAddress: postalAddressSchema('Shipping address').allow(null).default(null),
  billingAddress: postalAddressSchema('Billing address').allow(null).default(null),
  phone: phoneSchema,
};

export interface CreateAccountBody extends AccountContactDetails {
  name: string;
  type: AccountTypeT;
  eapPartner: boolean;
  international: boolean;
  clinicAccess: boolean;
  researchAccess: boolean;
  takesPatientOrders: boolean;
  departments: string[];
  /** Ordering physicians of the account (they need not use the portal). */
  physicians: { firstName: string; lastName: string; npi: string; specialty: Specialty | null }[];
}

/** POST admin/accounts/create */
export const createAccountBody = Joi.object<CreateAccountBody>({
  name: text('Account name', ACCOUNT_NAME_MAX_LENGTH).required(),
  type: Joi.string().valid(...ACCOUNT_TYPES).default(AccountType.General).label('Account type')
    .messages({ 'any.only': `{#label} must be one of ${ACCOUNT_TYPES.join(', ')}` }),
  eapPartner: Joi.boolean().default(false).label('EAP partner'),
  international: Joi.boolean().default(false).label('International'),
  clinicAccess: Joi.boolean().default(true).label('Clinic access'),
  researchAccess: Joi.boolean().default(false).label('Research access'),
  takesPatientOrders: Joi.boolean().default(false).label('Takes patient orders'),
  ...accountContactDetailsFields,
  departments: Joi.array()
    .items(text('Department', ACCOUNT_NAME_MAX_LENGTH))
    .max(ACCOUNT_MAX_DEPARTMENTS)
    .unique((a: string, b: string) => a.toLowerCase() === b.toLowerCase())
    .default([])
    .label('Departments')
    .messages({ 'array.unique': 'Departments must not repeat a name' }),
  physicians: Joi.array()
    .items(
      Joi.object({
        firstName: personName('Physician first name').required(),
        lastName: personName('Physician last name').required(),
        npi: npiSchema.required(),
        specialty: Joi.string().valid(...SPECIALTIES).allow(null).default(null).label('Specialty'),
      }).options(STRICT_KEYS),
    )
    .max(ACCOUNT_MAX_DEPARTMENTS)
    .unique('npi')
    .default([])
    .label('Ordering physicians')
    .messages({ 'array.unique': 'Ordering physicians must not repeat an NPI' }),
})
  .custom((body: CreateAccountBody, h) => (body.clinicAccess || body.researchAccess ? body : h.error('account.noPortal')))
  .messages({ 'account.noPortal': 'An account needs clinic access, research access or both' })
  .options(STRICT_KEYS)
  .label('Request body');

export interface AccountsQuery { q: string; page: number; pageSize: number }
/** GET admin/accounts?q=&page=&pageSize= */
export const accountsQuery = Joi.object<AccountsQuery>({ q: search, ...paging }).options(STRICT_KEYS).label('Query');

export interface LimsAccountsQuery { q: string; page: number; pageSize: number }
/** GET lims/accounts?q=&page=&pageSize=: every account (active or not), by name. */
export const limsAccountsQuery = /*#__PURE__*/ Joi.object<LimsAccountsQuery>({
  q: Joi.string().trim().max(100).allow('').default('').label('Search'),
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
}).options(STRICT_KEYS).label('Query');
