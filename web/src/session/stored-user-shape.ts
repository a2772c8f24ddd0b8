/**
 * The shape of the stored session user and its localStorage key, apart from the code that reads
 * and writes it (so tests running in Node can read it too).
 */
import type { AccountRole, SignInPortal, UserKind } from '@platform/domain';

/** The key named for the authentication provider's user. */
export const STORED_USER_KEY = 'platform.authUser';

export interface StoredCurrentAccount {
  currentAccountId: number | null;
  currentAccountName: string | null;
  /** The person's role in the current account (what the sidebar offers, e.g. a super admin's Users page). */
  currentAccountRole: AccountRole | null;
  eapPartner: boolean;
  international: boolean;
  clinicAccess: boolean;
  researchAccess: boolean;
}

export interface StoredSessionUser extends StoredCurrentAccount {
  /** The portal the person signed in through. */
  portal: SignInPortal;
  userId: number;
  kind: UserKind;
  email: string;
  firstName: string;
  lastName: string;
}
