/**
 * Who may sign in, and how: user kinds, sessions and sign-in throttling, password reset links,
 * provider access requests and their decisions, provider titles and specialties, NPIs, account
 * invitations, lab toolbox users, and the admin pages' toasts of SPEC §8. Plain values (no joi:
 * the SPA imports these); the request schemas are in schemas.ts.
 */
import { valuesOf } from '../shared/values';

export const AccessStatus = { Pending: 'Pending', Approved: 'Approved', Denied: 'Denied' } as const;
export type AccessStatus = (typeof AccessStatus)[keyof typeof AccessStatus];
export const ACCESS_STATUSES = valuesOf(AccessStatus);

export const Specialty = {
  RadiationOncology: 'Radiation Oncology',
  Urology: 'Urology',
  MedicalOncology: 'Medical Oncology',
} as const;
export type Specialty = (typeof Specialty)[keyof typeof Specialty];
export const SPECIALTIES = valuesOf(Specialty);

export const ProviderTitle = { Physician: 'Physician', Nurse: 'Nurse', Other: 'Other' } as const;
export type ProviderTitle = (typeof ProviderTitle)[keyof typeof ProviderTitle];
export const PROVIDER_TITLES = valuesOf(ProviderTitle);

/** Who a signed-in user is. Patients never sign in with a password: they reach results by link. */
export const UserKind = { Admin: 'admin', Provider: 'provider', Lab: 'lab' } as const;
export type UserKind = (typeof UserKind)[keyof typeof UserKind];
export const USER_KINDS = valuesOf(UserKind);

/** Sign-in throttling: failures allowed per window, per account and per address. */
export const LOGIN_FAILURES_PER_ACCOUNT = 5;
export const LOGIN_FAILURES_PER_ADDRESS = 20;
export const LOGIN_THROTTLE_WINDOW_SECONDS = 15 * 60;
/** How long a browser that signed in to an account keeps its own allowance of failures for that account. */
export const DEVICE_COOKIE_DAYS = 180;

/** A password reset token: 32 random bytes, hex. */
export const RESET_TOKEN_HEX_LENGTH = 64;
export const PASSWORD_RESET_TOKEN_MINUTES = 60;
/** Idle session timeout; the SPA warns a little before. */
export const SESSION_IDLE_MINUTES = 30;
/** However active, a session ends this many hours after its sign-in: staff who hold the lab's and every account's data sooner. */
export const SESSION_ABSOLUTE_HOURS = { admin: 8, lab: 8, provider: 12 } as const;

/**
 * A US National Provider Identifier: 10 digits whose last is a Luhn check digit computed over the
 * card-issuer prefix 80840 and the first nine (CMS's NPI check-digit rule).
 */
export function isValidNpi(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const digits = `80840${value}`.split('').map(Number);
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i--, double = !double) {
    let d = digits[i];
    if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** How long a set-password link from an approval or a registration works. */
export const SET_PASSWORD_LINK_DAYS = 7;
/** How long an account invitation's link works. */
export const ACCOUNT_INVITATION_DAYS = 14;

/**
 * An account invitation (a Super Admin adding someone to their account): Pending until the
 * person accepts through the emailed link, or the Super Admin cancels it.
 */
export const AccountInvitationStatus = { Pending: 'Pending', Accepted: 'Accepted', Cancelled: 'Cancelled' } as const;
export type AccountInvitationStatus = (typeof AccountInvitationStatus)[keyof typeof AccountInvitationStatus];
export const ACCOUNT_INVITATION_STATUSES: readonly AccountInvitationStatus[] = Object.values(AccountInvitationStatus);

/** What a Super Admin is told after adding a user: the same words whoever the address belongs to. */
export const accountUserInvitedMessage = (email: string) =>
  `Invitation sent to ${email}: they join this account when they accept it from the email`;

/** The success toasts of SPEC §8 the admin pages show, word for word. */
export const ADMIN_TOASTS = {
  userCreated: 'User Created Successfully',
  accountCreated: 'Account Created Successfully',
  /** Ours (the spec names no toast for it), in the spec's toasts' form. */
  accountUpdated: 'Account Updated Successfully',
  labUserFailed: 'Adding lab toolbox user failed',
} as const;
