/**
 * What the auth endpoints answer (/api/auth/…), as JSON: who is signed in and the accounts they
 * may act in. The API's services return these shapes and the SPA reads them; types only (no
 * runtime code, no joi). The request schemas are in schemas.ts.
 */
import type { AccountRole, AccountType, UserKind } from './enums';

/** The signed-in person: what a signed-in request carries, and Me.user. */
export interface SessionUser {
  id: number;
  kind: UserKind;
  email: string;
  firstName: string;
  lastName: string;
}

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
