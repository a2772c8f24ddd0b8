/** Request schemas of accounts: creating one (with its departments and ordering physicians) and the account lists. */
import Joi from 'joi';
import { SPECIALTIES, type Specialty } from '../access/access';
import { TEST_LINES, type TestLine } from '../catalogue/test-lines';
import { npiSchema } from '../access/schemas';
import { phoneSchema, postalAddressSchema, type PostalAddress } from '../shared/addresses';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/constants';
import { emailSchema } from '../shared/schemas';
import { id, paging, personName, search, text } from '../shared/schema-fields';
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

/** An ordering physician of an account (they need not use the portal). */
export interface AccountPhysicianInput { firstName: string; lastName: string; npi: string; specialty: Specialty | null }

const physicianFields = {
  firstName: personName('Physician first name').required(),
  lastName: personName('Physician last name').required(),
  npi: npiSchema.required(),
  specialty: Joi.string().valid(...SPECIALTIES).allow(null).default(null).label('Specialty'),
};

/** The portal flags and the fields a new and an edited account share. */
const accountFields = {
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
};

const physiciansOf = (item: Joi.ObjectSchema) => Joi.array()
  .items(item.options(STRICT_KEYS))
  .max(ACCOUNT_MAX_DEPARTMENTS)
  .unique('npi')
  .default([])
  .label('Ordering physicians')
  .messages({ 'array.unique': 'Ordering physicians must not repeat an NPI' });

/** An account needs at least one portal. */
const withPortal = <T extends { clinicAccess: boolean; researchAccess: boolean }>(schema: Joi.ObjectSchema<T>) => schema
  .custom((body: T, h) => (body.clinicAccess || body.researchAccess ? body : h.error('account.noPortal')))
  .messages({ 'account.noPortal': 'An account needs clinic access, research access or both' })
  .options(STRICT_KEYS)
  .label('Request body');

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
  physicians: AccountPhysicianInput[];
}

/** POST admin/accounts/create */
export const createAccountBody = withPortal(Joi.object<CreateAccountBody>({
  ...accountFields,
  physicians: physiciansOf(Joi.object(physicianFields)),
}));

/** Where the clinic's questions about one test line go (SPEC §9), for one account. */
export interface SupportMailbox { testLine: TestLine; email: string }

/** An edited account: what a new one has, its physicians with their ids (new ones without), and its support mailboxes. */
export interface UpdateAccountBody extends Omit<CreateAccountBody, 'physicians'> {
  physicians: (AccountPhysicianInput & { id: number | null })[];
  supportMailboxes: SupportMailbox[];
}

/** PUT admin/accounts/{accountId}: the whole account as edited (a physician with orders stays: it cannot be removed). */
export const updateAccountBody = withPortal(Joi.object<UpdateAccountBody>({
  ...accountFields,
  physicians: physiciansOf(Joi.object({ id: id('Physician').allow(null).default(null), ...physicianFields })),
  supportMailboxes: Joi.array()
    .items(Joi.object({
      testLine: Joi.string().valid(...TEST_LINES).required().label('Test line')
        .messages({ 'any.only': `{#label} must be one of ${TEST_LINES.join(', ')}` }),
      email: emailSchema.required().label('Support mailbox'),
    }).options(STRICT_KEYS))
    .unique('testLine')
    .default([])
    .label('Support mailboxes')
    .messages({ 'array.unique': 'Support mailboxes must not repeat a test line' }),
}));

/** The portal an account list is filtered by. */
export const ACCOUNT_ACCESS_FILTERS = ['clinic', 'research'] as const;
export type AccountAccessFilter = (typeof ACCOUNT_ACCESS_FILTERS)[number];

export interface AccountsQuery { q: string; access?: AccountAccessFilter; type?: AccountTypeT; page: number; pageSize: number }
/** GET admin/accounts?q=&access=&type=&page=&pageSize=: by name, the accounts with that portal's access, of that type. */
export const accountsQuery = Joi.object<AccountsQuery>({
  q: search,
  access: Joi.string().valid(...ACCOUNT_ACCESS_FILTERS).label('Portal access')
    .messages({ 'any.only': `{#label} must be one of ${ACCOUNT_ACCESS_FILTERS.join(', ')}` }),
  type: Joi.string().valid(...ACCOUNT_TYPES).label('Account type')
    .messages({ 'any.only': `{#label} must be one of ${ACCOUNT_TYPES.join(', ')}` }),
  ...paging,
}).options(STRICT_KEYS).label('Query');

export interface LimsAccountsQuery { q: string; page: number; pageSize: number }
/** GET lims/accounts?q=&page=&pageSize=: every account (active or not), by name. */
export const limsAccountsQuery = /*#__PURE__*/ Joi.object<LimsAccountsQuery>({
  q: Joi.string().trim().max(100).allow('').default('').label('Search'),
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
}).options(STRICT_KEYS).label('Query');
