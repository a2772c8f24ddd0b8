/**
 * What the auth endpoints (/api/auth/…) and the people pages of the admin portal and the clinic
 * answer, as JSON: who is signed in, contacts and their memberships, invitations, support staff,
 * lab users. Answer shapes (shared/shapes.ts), each a type too; the request schemas are in schemas.ts.
 */
import * as s from '../shared/shapes';
import { ACCOUNT_ROLES } from '../accounts/accounts';
import { AccountSummary } from '../accounts/views';
import { ACCESS_STATUSES, PROVIDER_TITLES, SPECIALTIES, USER_KINDS } from './access';

/** The signed-in person: what a signed-in request carries, and Me.user. */
export const SessionUser = s.object({
  id: s.integer,
  kind: s.oneOf(USER_KINDS),
  email: s.string,
  firstName: s.string,
  lastName: s.string,
});
export type SessionUser = s.Infer<typeof SessionUser>;

/** GET auth/me, and the answer to signing in and switching account. */
export const Me = s.object({
  user: SessionUser,
  accounts: s.array(AccountSummary),
  currentAccount: s.nullable(AccountSummary),
});
export type Me = s.Infer<typeof Me>;

/** An answer that is one sentence for the person (POST auth/request-access: the same whether or not the email is known). */
export const MessageAnswer = s.object({ message: s.string });
export type MessageAnswer = s.Infer<typeof MessageAnswer>;

/** POST auth/forgot-password: the same sentence whether or not the email has an account. */
export const ForgotPasswordAnswer = MessageAnswer;
export type ForgotPasswordAnswer = MessageAnswer;

/** GET auth/csrf: the token every state-changing request carries in x-csrf-token. */
export const CsrfTokenAnswer = s.object({ csrfToken: s.string });
export type CsrfTokenAnswer = s.Infer<typeof CsrfTokenAnswer>;

/** GET admin/attention: what needs an admin now (the home page). */
export const AdminAttention = s.object({
  pendingProviders: s.integer,
  failedJobs: s.integer,
  failedEmails: s.integer,
});
export type AdminAttention = s.Infer<typeof AdminAttention>;

/** One account a contact may act in, with the role and whether that access is active. */
export const ContactMembership = s.object({
  accountId: s.integer,
  accountName: s.string,
  role: s.oneOf(ACCOUNT_ROLES),
  isActive: s.boolean,
});
export type ContactMembership = s.Infer<typeof ContactMembership>;

/** GET admin/contacts, admin/contacts/pending and provider-clinic/{id}/contacts (rows); contacts/{id}. */
export const ContactRow = s.object({
  id: s.integer,
  firstName: s.string,
  lastName: s.string,
  email: s.string,
  phone: s.nullable(s.string),
  title: s.nullable(s.oneOf(PROVIDER_TITLES)),
  specialty: s.nullable(s.oneOf(SPECIALTIES)),
  npi: s.nullable(s.string),
  accessStatus: s.oneOf(ACCESS_STATUSES),
  /** The practice named when asking for access. */
  requestedAccountName: s.nullable(s.string),
  requestNote: s.nullable(s.string),
  decisionReason: s.nullable(s.string),
  decidedAt: s.nullable(s.string),
  /** The sign-in user: null until access is granted. */
  userId: s.nullable(s.integer),
  userActive: s.nullable(s.boolean),
  lastLoginAt: s.nullable(s.string),
  memberships: s.array(ContactMembership),
  createdAt: s.string,
});
export type ContactRow = s.Infer<typeof ContactRow>;

const PersonRef = s.object({ contactId: s.integer, name: s.string });

/** A contact with whom they work in one account: staff → their physicians, physician → their staff. */
export const ContactDetail = s.extend(ContactRow, {
  /** Per account: the physicians a support staff member is linked to (contact ids and names). */
  staffLinks: s.array(s.object({ accountId: s.integer, physicians: s.array(PersonRef) })),
});
export type ContactDetail = s.Infer<typeof ContactDetail>;

/** POST contacts/create (201; admin and an account's super admin): the toast text and the new user. */
export const ProviderRegistered = s.object({
  message: s.string,
  contact: ContactDetail,
});
export type ProviderRegistered = s.Infer<typeof ProviderRegistered>;

/** One invitation on an account's users page: Invited, awaiting acceptance (only what the Super Admin typed). */
export const AccountInvitationRow = s.object({
  id: s.integer,
  email: s.string,
  firstName: s.string,
  lastName: s.string,
  title: s.oneOf(PROVIDER_TITLES),
  role: s.oneOf(ACCOUNT_ROLES),
  invitedBy: s.nullable(s.string),
  createdAt: s.string,
  expiresAt: s.string,
  /** Past its last day: the link no longer works; cancel it and invite again. */
  expired: s.boolean,
});
export type AccountInvitationRow = s.Infer<typeof AccountInvitationRow>;

/** POST contacts/create by an account's Super Admin (201): the same answer whoever the address belongs to. */
export const AccountUserInvited = s.object({
  message: s.string,
  invitation: AccountInvitationRow,
});
export type AccountUserInvited = s.Infer<typeof AccountUserInvited>;

/** POST auth/account-invitation: what the emailed link opens (to the holder of the link only). */
export const AccountInvitationPreview = s.object({
  accountName: s.string,
  invitedBy: s.nullable(s.string),
  email: s.string,
  role: s.oneOf(ACCOUNT_ROLES),
  expiresAt: s.string,
});
export type AccountInvitationPreview = s.Infer<typeof AccountInvitationPreview>;

/** POST auth/account-invitation/accept: what was done, and where the person goes next. */
export const AccountInvitationAccepted = s.object({
  message: s.string,
  /** 'sign-in': they already had a sign-in (the account is added to it); 'set-password': a new person chooses a password at `path`. */
  next: s.oneOf(['sign-in', 'set-password']),
  path: s.string,
});
export type AccountInvitationAccepted = s.Infer<typeof AccountInvitationAccepted>;

/** GET provider-staff-relationships/get-support-staff?accountId= */
export const SupportStaffRow = s.object({
  contactId: s.integer,
  name: s.string,
  email: s.string,
  physicians: s.array(PersonRef),
});
export type SupportStaffRow = s.Infer<typeof SupportStaffRow>;

/** GET admin/lab-toolbox/users (rows). POST …/create answers { message, user }. */
export const LabUserRow = s.object({
  id: s.integer,
  firstName: s.string,
  lastName: s.string,
  email: s.string,
  isActive: s.boolean,
  lastLoginAt: s.nullable(s.string),
  createdAt: s.string,
});
export type LabUserRow = s.Infer<typeof LabUserRow>;

export const LabUserCreated = s.object({
  /** The toast text (SPEC §8: lab toolbox user creation shows the server's message). */
  message: s.string,
  user: LabUserRow,
});
export type LabUserCreated = s.Infer<typeof LabUserCreated>;

/** GET lims/contact/technicians: the lab's people; userId is their lab user (what the review list filters on). */
export const LimsTechnician = s.object({
  id: s.integer,
  userId: s.nullable(s.integer),
  name: s.string,
  firstName: s.string,
  lastName: s.string,
  email: s.nullable(s.string),
  active: s.boolean,
});
export type LimsTechnician = s.Infer<typeof LimsTechnician>;
