/**
 * Request schemas of signing in and of people's access: sign-in, passwords, account invitations,
 * switching account, provider registration and access requests, account access and roles,
 * support staff links and lab toolbox users. Shared by api (validation) and web (forms and labels).
 */
import Joi from 'joi';
import { ACCOUNT_NAME_MAX_LENGTH, ACCOUNT_ROLES, type AccountRole as AccountRoleT } from '../accounts/accounts';
import { MAX_PAGE_SIZE, REASON_MAX_LENGTH } from '../shared/constants';
import { id, optionalText, paging, personName, search, text } from '../shared/schema-fields';
import { emailSchema } from '../shared/schemas';
import {
  ACCESS_STATUSES, AccessStatus, isValidNpi, PROVIDER_TITLES, ProviderTitle, type ProviderTitle as ProviderTitleT,
  RESET_TOKEN_HEX_LENGTH, SPECIALTIES, type Specialty,
} from './access';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_MUST_CONTAIN } from './passwords';
import { SIGN_IN_PORTALS, type SignInPortal } from './sign-in-portals';

/** Options every object schema here carries: unknown keys are an error, never silently kept or dropped. */
const STRICT_KEYS = { allowUnknown: false } as const;

const roleSchema = Joi.string()
  .valid(...ACCOUNT_ROLES)
  .label('Role')
  .messages({ 'any.only': `{#label} must be one of ${ACCOUNT_ROLES.join(', ')}` });

/** The portal a person signs in to. */
export const signInPortalSchema = Joi.string()
  .valid(...SIGN_IN_PORTALS)
  .label('Portal')
  .messages({ 'any.only': `{#label} must be one of ${SIGN_IN_PORTALS.join(', ')}` });

/** A password as typed at sign-in: any 1-200 characters (the strength rule applies when it is set). */
const enteredPasswordSchema = Joi.string().min(1).max(PASSWORD_MAX_LENGTH).label('Password');

/**
 * A new password: the rule of passwords.ts (PASSWORD_MIN_LENGTH to PASSWORD_MAX_LENGTH characters, a letter, a digit).
 * Messages never repeat the password.
 */
export const passwordSchema = Joi.string()
  .min(PASSWORD_MIN_LENGTH)
  .max(PASSWORD_MAX_LENGTH)
  .pattern(PASSWORD_MUST_CONTAIN[0].pattern, PASSWORD_MUST_CONTAIN[0].name)
  .pattern(PASSWORD_MUST_CONTAIN[1].pattern, PASSWORD_MUST_CONTAIN[1].name)
  .label('Password')
  .messages({
    'string.pattern.name': '{#label} must contain at least one {#name}',
    'string.min': `{#label} must be at least {#limit} characters long`,
    'string.max': `{#label} must be at most {#limit} characters long`,
  });

export interface LoginBody { email: string; password: string; portal: SignInPortal }
/** POST sign-in. */
export const loginBody = Joi.object<LoginBody>({
  email: emailSchema.required(),
  password: enteredPasswordSchema.required(),
  portal: signInPortalSchema.required(),
}).options(STRICT_KEYS).label('Request body');

export interface ForgotPasswordBody { email: string; portal: SignInPortal }
/** POST forgot-password: asks for a reset link (the answer never says whether the account exists). */
export const forgotPasswordBody = Joi.object<ForgotPasswordBody>({
  email: emailSchema.required(),
  portal: signInPortalSchema.required(),
}).options(STRICT_KEYS).label('Request body');

export interface ResetPasswordBody { token: string; password: string }
/** POST reset-password: the token from the emailed link (64 hex characters) and the new password. */
export const resetPasswordBody = Joi.object<ResetPasswordBody>({
  token: Joi.string()
    .hex()
    .length(RESET_TOKEN_HEX_LENGTH)
    .label('Token')
    .messages({
      'string.hex': '{#label} is not a valid reset link token',
      'string.length': '{#label} is not a valid reset link token',
    })
    .required(),
  password: passwordSchema.required(),
}).options(STRICT_KEYS).label('Request body');

export interface AccountInvitationTokenBody { token: string }
/** POST auth/account-invitation(/accept): the token from the emailed invitation link (64 hex characters). */
export const accountInvitationTokenBody = Joi.object<AccountInvitationTokenBody>({
  token: Joi.string().hex().length(RESET_TOKEN_HEX_LENGTH).label('Invitation link').required()
    .messages({ 'string.hex': '{#label} is not valid', 'string.length': '{#label} is not valid' }),
}).options(STRICT_KEYS).label('Request body');

export interface ChangePasswordBody { currentPassword: string; newPassword: string }
/** POST change-password: the current password and a new, different one. */
export const changePasswordBody = Joi.object<ChangePasswordBody>({
  currentPassword: enteredPasswordSchema.label('Current password').required(),
  newPassword: passwordSchema
    .label('New password')
    .invalid(Joi.ref('currentPassword'))
    .messages({ 'any.invalid': '{#label} must be different from the current password' })
    .required(),
}).options(STRICT_KEYS).label('Request body');

export interface SwitchAccountBody { accountId: number }
/** POST switch the current account of a provider who belongs to several. */
export const switchAccountBody = Joi.object<SwitchAccountBody>({
  accountId: Joi.number().integer().positive().label('Account').required(),
}).options(STRICT_KEYS).label('Request body');

export const npiSchema = Joi.string()
  .trim()
  .custom((v: string, h) => (isValidNpi(v) ? v : h.error('npi.invalid')))
  .label('NPI')
  .messages({ 'npi.invalid': '{#label} must be a valid 10-digit National Provider Identifier' });

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
