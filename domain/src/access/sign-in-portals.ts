/** Sign-in portals: where each lives in the SPA, its name, and which kind of user signs in through it. */
import { Portal } from '../orders/orders';
import { UserKind } from './access';

/** The portals a person signs in to (patients never sign in with a password). */
export const SIGN_IN_PORTALS = ['admin', 'provider', 'research', 'lab'] as const;
export type SignInPortal = (typeof SIGN_IN_PORTALS)[number];

/** Where each sign-in portal lives in the SPA (its login, forgot- and reset-password pages hang below). */
export const SIGN_IN_PORTAL_PATHS: Record<SignInPortal, string> = {
  admin: '/admin',
  provider: '/provider',
  research: '/provider-research',
  lab: '/lab_toolbox',
};

/** The name of each sign-in portal, as its pages and messages say it. */
export const SIGN_IN_PORTAL_TITLES: Record<SignInPortal, string> = {
  admin: 'Administration',
  provider: Portal.Clinical,
  research: Portal.Research,
  lab: Portal.LabToolbox,
};

/** Said to a person whose password is right but who signs in somewhere else. */
export const wrongPortalMessage = (portal: SignInPortal) =>
  `This account signs in at the ${SIGN_IN_PORTAL_TITLES[portal]}: ${SIGN_IN_PORTAL_PATHS[portal]}/login`;

/** Which kind of user may sign in through each portal. */
export const SIGN_IN_PORTAL_USER_KIND: Record<SignInPortal, UserKind> = {
  admin: UserKind.Admin,
  provider: UserKind.Provider,
  research: UserKind.Provider,
  lab: UserKind.Lab,
};
