/**
 * The admin portal's and account administration's rules and request schemas: accounts, provider
 * registration and access requests, account access and roles, support staff links, lab toolbox
 * users, insurance plans, financial assistance, the email log and the two bulk email campaigns,
 * and the job monitor. Shared by api (validation) and web (forms and labels).
 */
import Joi from 'joi';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './constants';
import {
  ACCESS_STATUSES, ACCOUNT_ROLES, ACCOUNT_TYPES, AccessStatus, AccountType, JOB_STATUSES, PROVIDER_TITLES, ProviderTitle, SPECIALTIES,
  type AccountRole as AccountRoleT, type AccountType as AccountTypeT, type JobStatus, type ProviderTitle as ProviderTitleT, type Specialty,
} from './enums';
import { isDataDate, isValidNpi } from './identifiers';
import { EMAIL_STATUSES, type EmailStatus } from './record-values';
import { emailSchema } from './schemas';
import { ACCOUNT_MAX_DEPARTMENTS, ACCOUNT_NAME_MAX_LENGTH, PERSON_NAME_MAX_LENGTH, REASON_MAX_LENGTH } from './admin-values';

const STRICT_KEYS = { allowUnknown: false } as const;

const id = (label: string) => Joi.number().integer().positive().label(label);
const text = (label: string, max: number) => Joi.string().trim().min(1).max(max).label(label);
/** An optional text field: '' or null means "not given" (stored as null). */
const optionalText = (label: string, max: number) => Joi.string().trim().max(max).allow('', null).empty(['', null]).default(null).label(label);
const personName = (label: string) =>
  text(label, PERSON_NAME_MAX_LENGTH)
    .pattern(/^[\p{L}\p{M}' .,-]+$/u, 'name')
    .messages({ 'string.pattern.name': '{#label} may contain letters, spaces, apostrophes, hyphens and periods only' });
const dataDate = (label: string) =>
  Joi.string()
    .trim()
    .custom((v: string, h) => (isDataDate(v) ? v : h.error('date.format')))
    .label(label)
    .messages({ 'date.format': '{#label} must be a real date written YYYY-MM-DD' });
const paging = {
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
};
const search = Joi.string().trim().max(PERSON_NAME_MAX_LENGTH).allow('').default('').label('Search');

export const npiSchema = Joi.string()
  .trim()
  .custom((v: string, h) => (isValidNpi(v) ? v : h.error('npi.invalid')))
  .label('NPI')
  .messages({ 'npi.invalid': '{#label} must be a valid 10-digit National Provider Identifier' });

const roleSchema = Joi.string()
  .valid(...ACCOUNT_ROLES)
  .label('Role')
  .messages({ 'any.only': `{#label} must be one of ${ACCOUNT_ROLES.join(', ')}` });

// ---------------------------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------------------------

export interface CreateAccountBody {
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

// ---------------------------------------------------------------------------------------------
// Providers: registration, access requests, decisions
// ---------------------------------------------------------------------------------------------

export interface AccountGrant { accountId: number; role: AccountRoleT }
const accountGrants = Joi.array()
  .items(Joi.object<AccountGrant>({ accountId: id('Account').required(), role: roleSchema.required() }).options(STRICT_KEYS))
  .unique('accountId')
  .label('Accounts')
  .messages({ 'array.unique': 'Accounts must not repeat an account' });

/** A provider person as a form gives them (registration, a request for access). */
export interface ProviderPerson {
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  title: ProviderTitleT;
  specialty: Specialty | null;
  /** Required for a physician (title Physician), optional otherwise. */
  npi: string | null;
}

export interface RegisterProviderBody extends ProviderPerson {
  accounts: AccountGrant[];
}

const providerFields = {
  firstName: personName('First name').required(),
  lastName: personName('Last name').required(),
  email: emailSchema.required(),
  phone: optionalText('Phone', 30),
  title: Joi.string().valid(...PROVIDER_TITLES).label('Title').messages({ 'any.only': `{#label} must be one of ${PROVIDER_TITLES.join(', ')}` }).required(),
  specialty: Joi.string().valid(...SPECIALTIES).allow('', null).empty(['', null]).default(null).label('Specialty')
    .messages({ 'any.only': `{#label} must be one of ${SPECIALTIES.join(', ')}` }),
  npi: npiSchema.allow('', null).empty(['', null]).default(null)
    .when('title', { is: ProviderTitle.Physician, then: Joi.required().invalid(null).messages({ 'any.invalid': 'NPI is required for a physician' }) }),
};

/** POST admin/contacts/create and provider-clinic/{accountId}/contacts/create: a provider user, emailed a set-password link. */
export const registerProviderBody = Joi.object<RegisterProviderBody>({
  ...providerFields,
  accounts: accountGrants.min(1).required().messages({ 'array.min': 'Choose at least one account' }),
}).options(STRICT_KEYS).label('Request body');

export interface RequestAccessBody extends ProviderPerson {
  /** The practice or clinic they work for, as they name it. */
  accountName: string;
  note: string | null;
}

/** POST auth/request-access (no sign-in): a Pending contact; the answer is the same whether or not the email is known. */
export const requestAccessBody = Joi.object<RequestAccessBody>({
  ...providerFields,
  accountName: text('Practice name', ACCOUNT_NAME_MAX_LENGTH).required(),
  note: optionalText('Note', REASON_MAX_LENGTH),
}).options(STRICT_KEYS).label('Request body');

export interface UpdateAccessBody {
  contactId: number;
  decision: typeof AccessStatus.Approved | typeof AccessStatus.Denied;
  /** Approval: the accounts and roles the provider gets. */
  accounts: AccountGrant[];
  /** Denial: told to the provider in the email. */
  reason: string | null;
  /** Approval: the NPI, when the provider gave none and a role needs one (Physician). */
  npi?: string | null;
}

/** POST admin/contacts/update-access: approve (accounts and roles) or deny (with a reason) a Pending contact. */
export const updateAccessBody = Joi.object<UpdateAccessBody>({
  contactId: id('Contact').required(),
  decision: Joi.string().valid(AccessStatus.Approved, AccessStatus.Denied).label('Decision').required()
    .messages({ 'any.only': '{#label} must be Approved or Denied' }),
  accounts: accountGrants.when('decision', {
    is: AccessStatus.Approved,
    then: Joi.array().min(1).required().messages({ 'array.min': 'Choose at least one account', 'any.required': 'Choose at least one account' }),
    otherwise: Joi.array().max(0).default([]),
  }),
  reason: Joi.string().trim().max(REASON_MAX_LENGTH).label('Reason').when('decision', {
    is: AccessStatus.Denied,
    then: Joi.string().min(1).required().messages({ 'any.required': 'Give a reason for the denial', 'string.empty': 'Give a reason for the denial' }),
    otherwise: Joi.valid(null, '').empty(['', null]).default(null),
  }),
  npi: npiSchema.allow('', null).empty(['', null]).default(null),
}).options(STRICT_KEYS).label('Request body');

export interface ContactNpiBody { npi: string | null }
/** POST contacts/{contactId}/npi (admin): a provider's NPI set or corrected (null clears it). */
export const contactNpiBody = Joi.object<ContactNpiBody>({
  npi: npiSchema.allow('', null).empty(['', null]).default(null),
}).options(STRICT_KEYS).label('Request body');

export interface ContactsQuery {
  q: string;
  accountId: number | null;
  status: AccessStatus | null;
  page: number;
  pageSize: number;
}
/** GET admin/contacts?q=&accountId=&status=&page=&pageSize=: q matches name or email. */
export const contactsQuery = Joi.object<ContactsQuery>({
  q: search,
  accountId: id('Account').allow('', null).empty(['', null]).default(null),
  status: Joi.string().valid(...ACCESS_STATUSES).allow('', null).empty(['', null]).default(null).label('Status'),
  ...paging,
}).options(STRICT_KEYS).label('Query');

// ---------------------------------------------------------------------------------------------
// Account access (admins everywhere; an account's Super Admin in that account only)
// ---------------------------------------------------------------------------------------------

export interface AccountAccessBody { contactId: number; accountId: number; role: AccountRoleT }
/** POST add-account-access: the contact may act in the account with the role (re-activates a removed one). */
export const addAccountAccessBody = Joi.object<AccountAccessBody>({
  contactId: id('Contact').required(),
  accountId: id('Account').required(),
  role: roleSchema.required(),
}).options(STRICT_KEYS).label('Request body');

export interface ContactInAccountBody { contactId: number; accountId: number }
/** POST remove-account-access and add-super-admin. */
export const contactInAccountBody = Joi.object<ContactInAccountBody>({
  contactId: id('Contact').required(),
  accountId: id('Account').required(),
}).options(STRICT_KEYS).label('Request body');

export interface ActivateDeactivateBody { contactId: number; active: boolean; accountId: number | null }
/**
 * POST activate-deactivate: with an account, the user's access to that account (a Super Admin's
 * only kind); without, the user as a whole (admins only). Sessions end at once on deactivation.
 */
export const activateDeactivateBody = Joi.object<ActivateDeactivateBody>({
  contactId: id('Contact').required(),
  active: Joi.boolean().strict().label('Active').required(),
  accountId: id('Account').allow(null).default(null),
}).options(STRICT_KEYS).label('Request body');

export interface StaffLinksBody { accountId: number; staffContactId: number; physicianContactIds: number[] }
/** POST provider-staff-relationships/upsert: the physicians a support staff member works for in an account (replaces the list). */
export const staffLinksBody = Joi.object<StaffLinksBody>({
  accountId: id('Account').required(),
  staffContactId: id('Support staff').required(),
  physicianContactIds: Joi.array().items(id('Physician')).unique().max(MAX_PAGE_SIZE).required().label('Physicians'),
}).options(STRICT_KEYS).label('Request body');

export interface SupportStaffQuery { accountId: number }
/** GET provider-staff-relationships/get-support-staff?accountId= */
export const supportStaffQuery = Joi.object<SupportStaffQuery>({ accountId: id('Account').required() }).options(STRICT_KEYS).label('Query');

// ---------------------------------------------------------------------------------------------
// Lab toolbox users
// ---------------------------------------------------------------------------------------------

export interface CreateLabUserBody { firstName: string; lastName: string; email: string }
/** POST admin/lab-toolbox/users/create: emailed a set-password link. */
export const createLabUserBody = Joi.object<CreateLabUserBody>({
  firstName: personName('First name').required(),
  lastName: personName('Last name').required(),
  email: emailSchema.required(),
}).options(STRICT_KEYS).label('Request body');

export interface UserIdBody { userId: number }
/** POST admin/lab-toolbox/users/delete (deactivates; the user's history stays) and admin/lab-toolbox/users/reactivate. */
export const userIdBody = Joi.object<UserIdBody>({ userId: id('User').required() }).options(STRICT_KEYS).label('Request body');

// ---------------------------------------------------------------------------------------------
// Insurance plans
// ---------------------------------------------------------------------------------------------

export interface InsurancePlanBody { name: string; payerCode: string | null; isActive: boolean }
/** POST admin/insurance-plans/create and admin/insurance-plans/{id}/update (isActive false retires a plan). */
export const insurancePlanBody = Joi.object<InsurancePlanBody>({
  name: text('Plan name', ACCOUNT_NAME_MAX_LENGTH).required(),
  payerCode: optionalText('Payer code', 40),
  isActive: Joi.boolean().default(true).label('Active'),
}).options(STRICT_KEYS).label('Request body');

// ---------------------------------------------------------------------------------------------
// Financial assistance
// ---------------------------------------------------------------------------------------------

export interface CreateFinancialAidBody {
  /** An existing patient, or the identity of a new one (a patient ordering for themselves later). */
  patientId?: number;
  patient?: { firstName: string; lastName: string; dateOfBirth: string; email: string };
  approvedPriceCents: number;
  validUntil: string;
  note: string | null;
}

/** POST admin/patients/financial-assistance/create */
export const createFinancialAidBody = Joi.object<CreateFinancialAidBody>({
  patientId: id('Patient'),
  patient: Joi.object({
    firstName: personName('First name').required(),
    lastName: personName('Last name').required(),
    dateOfBirth: dataDate('Date of birth').required(),
    email: emailSchema.required(),
  }).options(STRICT_KEYS).label('Patient'),
  approvedPriceCents: Joi.number().integer().min(0).max(1_000_000).label('Approved price').required(),
  validUntil: dataDate('Valid until').required(),
  note: optionalText('Note', REASON_MAX_LENGTH),
})
  .xor('patientId', 'patient')
  .messages({ 'object.xor': 'Choose an existing patient or enter a new one, not both', 'object.missing': 'Choose a patient or enter a new one' })
  .options(STRICT_KEYS)
  .label('Request body');

export interface AdminPatientSearchBody { q: string }
/** POST admin/patients/search { q }: patients of every account (and self-ordering ones) by name, email or date of birth. */
export const adminPatientSearchBody = Joi.object<AdminPatientSearchBody>({
  q: Joi.string().trim().min(1).max(PERSON_NAME_MAX_LENGTH).label('Search').required(),
}).options(STRICT_KEYS).label('Request body');

export interface FinancialAidQuery { patientId: number | null; page: number; pageSize: number }
/**
 * GET admin/patients/financial-assistance?patientId=: newest first, or one patient's. No name in
 * the query: names stay out of URLs; the page finds the patient with POST admin/patients/search.
 */
export const financialAidQuery = Joi.object<FinancialAidQuery>({
  patientId: id('Patient').allow('', null).empty(['', null]).default(null),
  ...paging,
}).options(STRICT_KEYS).label('Query');

// ---------------------------------------------------------------------------------------------
// Emails and campaigns
// ---------------------------------------------------------------------------------------------

export interface EmailsQuery { q: string; status: EmailStatus | null; template: string | null; page: number; pageSize: number }
/** GET admin/emails?q=&status=&template=: q matches the recipient or the subject. */
export const emailsQuery = Joi.object<EmailsQuery>({
  q: Joi.string().trim().max(254).allow('').default('').label('Search'),
  status: Joi.string().valid(...EMAIL_STATUSES).allow('', null).empty(['', null]).default(null).label('Status'),
  template: Joi.string().trim().max(60).allow('', null).empty(['', null]).default(null).label('Template'),
  ...paging,
}).options(STRICT_KEYS).label('Query');

/** Who a campaign writes to: approved provider users with an active sign-in, narrowed by these. */
export interface CampaignAudience {
  accountIds: number[];
  roles: AccountRoleT[];
  /** Only those who never signed in (the usual audience of a signup reminder). */
  neverSignedIn: boolean;
}

export interface CampaignBody { audience: CampaignAudience; preview: boolean }
/** POST admin/send-email/{campaign}: preview: true answers the audience and the email; false sends. */
export const campaignBody = Joi.object<CampaignBody>({
  audience: Joi.object<CampaignAudience>({
    accountIds: Joi.array().items(id('Account')).unique().max(MAX_PAGE_SIZE).default([]).label('Accounts'),
    roles: Joi.array().items(roleSchema).unique().default([]).label('Roles'),
    neverSignedIn: Joi.boolean().default(false).label('Never signed in'),
  }).options(STRICT_KEYS).default({ accountIds: [], roles: [], neverSignedIn: false }).label('Audience'),
  preview: Joi.boolean().default(false).label('Preview'),
}).options(STRICT_KEYS).label('Request body');

// ---------------------------------------------------------------------------------------------
// Job monitor
// ---------------------------------------------------------------------------------------------

export interface JobsQuery { status: JobStatus | null; name: string | null; page: number; pageSize: number }
/** GET admin/jobs?status=&name= */
export const jobsQuery = Joi.object<JobsQuery>({
  status: Joi.string().valid(...JOB_STATUSES).allow('', null).empty(['', null]).default(null).label('Status'),
  name: Joi.string().trim().max(60).allow('', null).empty(['', null]).default(null).label('Job'),
  ...paging,
}).options(STRICT_KEYS).label('Query');

