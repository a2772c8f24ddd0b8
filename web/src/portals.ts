/**
 * The four portals a person signs in to, where each lives in the URL, and where each goes after
 * sign-in. The base paths and user kinds are the domain's (the API builds the emailed reset
 * links from the same table).
 */
import { SIGN_IN_PORTAL_PATHS, SIGN_IN_PORTAL_TITLES, SIGN_IN_PORTAL_USER_KIND, type PatientProduct, type SignInPortal, type UserKind } from '@platform/domain';

export interface SignInPortalInfo {
  portal: SignInPortal;
  /** The name shown on its pages. */
  title: string;
  /** The user kind that may sign in here. */
  userKind: UserKind;
  /** Where its login, forgot-password and reset-password pages live. */
  authBasePath: string;
  /** One sentence on the sign-in page saying who the portal is for. */
  audience: string;
}

export const SIGN_IN_PORTAL_INFO: Record<SignInPortal, SignInPortalInfo> = {
  admin: {
    portal: 'admin',
    title: SIGN_IN_PORTAL_TITLES.admin,
    userKind: SIGN_IN_PORTAL_USER_KIND.admin,
    authBasePath: SIGN_IN_PORTAL_PATHS.admin,
    audience: 'For lab administrators: providers, accounts, users and programs.',
  },
  provider: {
    portal: 'provider',
    title: SIGN_IN_PORTAL_TITLES.provider,
    userKind: SIGN_IN_PORTAL_USER_KIND.provider,
    authBasePath: SIGN_IN_PORTAL_PATHS.provider,
    audience: 'For physicians and clinic staff: order tests, track samples and read results.',
  },
  research: {
    portal: 'research',
    title: SIGN_IN_PORTAL_TITLES.research,
    userKind: SIGN_IN_PORTAL_USER_KIND.research,
    authBasePath: SIGN_IN_PORTAL_PATHS.research,
    audience: 'For research partners: order research panels and follow participants.',
  },
  lab: {
    portal: 'lab',
    title: SIGN_IN_PORTAL_TITLES.lab,
    userKind: SIGN_IN_PORTAL_USER_KIND.lab,
    authBasePath: SIGN_IN_PORTAL_PATHS.lab,
    audience: 'For lab staff: intake, resulting, imports and review.',
  },
};

export const signInPath = (portal: SignInPortal) => `${SIGN_IN_PORTAL_INFO[portal].authBasePath}/login`;
export const forgotPasswordPath = (portal: SignInPortal) => `${SIGN_IN_PORTAL_INFO[portal].authBasePath}/forgot-password`;
export const resetPasswordPath = (portal: SignInPortal) => `${SIGN_IN_PORTAL_INFO[portal].authBasePath}/reset-password`;

export const CLINIC_BASE_PATH = '/provider-clinic';
export const RESEARCH_BASE_PATH = SIGN_IN_PORTAL_PATHS.research;
export const clinicHomePath = (accountId: number) => `${CLINIC_BASE_PATH}/${accountId}`;
export const researchHomePath = (accountId: number) => `${RESEARCH_BASE_PATH}/${accountId}`;
export const ADMIN_HOME_PATH = SIGN_IN_PORTAL_PATHS.admin;
export const LAB_HOME_PATH = SIGN_IN_PORTAL_PATHS.lab;

/*
 * Pages that other portals' pages link to, apart from the pages themselves so the links load none
 * of them: the public information pages for physicians (SPEC §2), under the provider sign-in base
 * path, and the Patient Portal's order.
 */
const PROVIDER_BASE_PATH = SIGN_IN_PORTAL_PATHS.provider;

export const PROVIDER_INFO_PATHS = {
  prostoxFaq: `${PROVIDER_BASE_PATH}/prostox-faq`,
  prostoxUltraBilling: `${PROVIDER_BASE_PATH}/prostox-ultra-billing`,
} as const;

/** Where a provider without an account asks for one (linked from the provider sign-in page). */
export const REQUEST_ACCESS_PATH = `${PROVIDER_BASE_PATH}/request-access`;

export const PROVIDER_INFO_LINKS = [
  { to: PROVIDER_INFO_PATHS.prostoxFaq, label: 'PROSTOX questions and answers' },
  { to: PROVIDER_INFO_PATHS.prostoxUltraBilling, label: 'PROSTOX ultra billing and prices' },
] as const;

/** The Patient Portal's stepped order of a product (/patient-portal/order/{product}/new). */
export const patientOrderPath = (product: PatientProduct) => `/patient-portal/order/${product}/new`;

/** Where a patient's order ends (and the payment provider sends the patient back): its number only, never its token. */
export const completePath = (orderNumber: string) => `/patient-portal/order/complete?order=${encodeURIComponent(orderNumber)}`;

/** The portal a path belongs to, by its first segment; null for pages of no sign-in portal. */
export function portalOfPath(pathname: string): SignInPortal | null {
  const first = pathname.split('/')[1] ?? '';
  switch (first) {
    case 'admin':
      return 'admin';
    case 'lab_toolbox':
      return 'lab';
    case 'provider-research':
      return 'research';
    case 'provider':
    case 'provider-clinic':
      return 'provider';
    default:
      return null;
  }
}

/**
 * The account a clinic or research path is under (/provider-clinic/{id}/…, /provider-research/{id}/…;
 * the API's account routes, below /api, read the same), or null.
 */
export function accountIdOfPath(pathname: string): number | null {
  const match = /^\/(?:provider-clinic|provider-research)\/(\d+)(?:[/?#]|$)/.exec(pathname);
  const id = match ? Number(match[1]) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Two portals share their people when the same kind of user signs in to both (clinic and research). */
export function sameUserKind(a: SignInPortal, b: SignInPortal): boolean {
  return SIGN_IN_PORTAL_INFO[a].userKind === SIGN_IN_PORTAL_INFO[b].userKind;
}

/**
 * Where to return after sign-in: only a path on this site (never '//host' or a full URL) that
 * belongs to a portal this kind of user may use, and never back to an auth page.
 */
export function safeReturnPath(next: string | null, portal: SignInPortal): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  const nextPortal = portalOfPath(next);
  if (!nextPortal || !sameUserKind(nextPortal, portal)) return null;
  if (/\/(login|forgot-password|reset-password)(?:[/?#]|$)/.test(next)) return null;
  return next;
}

/** The sign-in page of a portal, carrying where to come back to. */
export function signInPathReturningTo(portal: SignInPortal, next: string): string {
  return `${signInPath(portal)}?next=${encodeURIComponent(next)}`;
}
