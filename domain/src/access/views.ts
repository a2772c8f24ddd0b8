/**
 * What the auth endpoints (/api/auth/…) and the people pages of the admin portal and the clinic
 * answer, as JSON: who is signed in, contacts and their memberships, invitations, support staff,
 * lab users. Types only (no runtime code, no joi); the request schemas are in schemas.ts.
 */
import type { AccountRole } from '../accounts/accounts';
import type { AccountSummary } from '../accounts/views';
import type { AccessStatus, ProviderTitle, Specialty, UserKind } from './access';

/** The signed-in person: what a signed-in request carries, and Me.user. */
export interface SessionUser {
  id: number;
  kind: UserKind;
  email: string;
  firstName: string;
  lastName: string;
}

/** GET auth/me, and the answer to signing in and switching account. */
export interface Me {
  user: SessionUser;
  accounts: AccountSummary[];
  currentAccount: AccountSummary | null;
}

/** POST auth/forgot-password: the same sentence whether or not the email has an account. */
export interface ForgotPasswordAnswer {
  message: string;
}

/** GET admin/attention: what needs an admin now (the home page). */
export interface AdminAttention {
  pendingProviders: number;
  failedJobs: number;
  failedEmails: number;
}

/** One account a contact may act in, with the role and whether that access is active. */
export interface ContactMembership {
  accountId: number;
  accountName: string;
  role: AccountRole;
  isActive: boolean;
}

/** GET admin/contacts, admin/contacts/pending and provider-clinic/{id}/contacts (rows); contacts/{id}. */
export interface ContactRow {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  title: ProviderTitle | null;
  specialty: Specialty | null;
  npi: string | null;
  accessStatus: AccessStatus;
  /** The practice named when asking for access. */
  requestedAccountName: string | null;
  requestNote: string | null;
  decisionReason: string | null;
  decidedAt: string | null;
  /** The sign-in user: null until access is granted. */
  userId: number | null;
  userActive: boolean | null;
  lastLoginAt: string | null;
  memberships: ContactMembership[];
  createdAt: string;
}

/** A contact with whom they work in one account: staff → their physicians, physician → their staff. */
export interface ContactDetail extends ContactRow {
  /** Per account: the physicians a support staff member is linked to (contact ids and names). */
  staffLinks: { accountId: number; physicians: { contactId: number; name: string }[] }[];
}

/** POST contacts/create (201; admin and an account's super admin): the toast text and the new user. */
export interface ProviderRegistered {
  message: string;
  contact: ContactDetail;
}

/** One invitation on an account's users page: Invited, awaiting acceptance (only what the Super Admin typed). */
export interface AccountInvitationRow {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  title: ProviderTitle;
  role: AccountRole;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  /** Past its last day: the link no longer works; cancel it and invite again. */
  expired: boolean;
}

/** POST contacts/create by an account's Super Admin (201): the same answer whoever the address belongs to. */
export interface AccountUserInvited {
  message: string;
  invitation: AccountInvitationRow;
}

/** POST auth/account-invitation: what the emailed link opens (to the holder of the link only). */
export interface AccountInvitationPreview {
  accountName: string;
  invitedBy: string | null;
  email: string;
  role: AccountRole;
  expiresAt: string;
}

/** POST auth/account-invitation/accept: what was done, and where the person goes next. */
export interface AccountInvitationAccepted {
  message: string;
  /** 'sign-in': they already had a sign-in (the account is added to it); 'set-password': a new person chooses a password at `path`. */
  next: 'sign-in' | 'set-password';
  path: string;
}

/** GET provider-staff-relationships/get-support-staff?accountId= */
export interface SupportStaffRow {
  contactId: number;
  name: string;
  email: string;
  physicians: { contactId: number; name: string }[];
}

/** GET admin/lab-toolbox/users (rows). POST …/create answers { message, user }. */
export interface LabUserRow {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  isActive: boolean;
  lastLoginAt: string | null;
  createdAt: string;
}

export interface LabUserCreated {
  /** The toast text (SPEC §8: lab toolbox user creation shows the server's message). */
  message: string;
  user: LabUserRow;
}

/** GET lims/contact/technicians: the lab's people; userId is their lab user (what the review list filters on). */
export interface LimsTechnician { id: number; userId: number | null; name: string; firstName: string; lastName: string; email: string | null; active: boolean }
