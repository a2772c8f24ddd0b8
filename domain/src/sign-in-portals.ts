import { UserKind } from './enums';
import type { SignInPortal } from './schemas';

/** Where each sign-in portal lives in the SPA (its login, forgot- and reset-password pages hang below). */
export const SIGN_IN_PORTAL_PATHS: Record<SignInPortal, string> = {
  admin: '/admin',
  provider: '/provider',
  research: '/provider-research',
  lab: '/lab_toolbox',
};

/** Which kind of user may sign in through each portal. */
export const SIGN_IN_PORTAL_USER_KIND: Record<SignInPortal, UserKind> = {
  admin: UserKind.Admin,
  provider: UserKind.Provider,
  research: UserKind.Provider,
  lab: UserKind.Lab,
};
