/**
 * The public information pages for physicians (SPEC §2), under the provider sign-in base path.
 * Apart from the pages themselves so the sign-in page can link them without loading them.
 */
import { SIGN_IN_PORTAL_INFO } from '../../portals';

const base = SIGN_IN_PORTAL_INFO.provider.authBasePath;

export const PROVIDER_INFO_PATHS = {
  prostoxFaq: `${base}/prostox-faq`,
  prostoxUltraBilling: `${base}/prostox-ultra-billing`,
} as const;

/** Where a provider without an account asks for one (linked from the provider sign-in page). */
export const REQUEST_ACCESS_PATH = `${base}/request-access`;

export const PROVIDER_INFO_LINKS = [
  { to: PROVIDER_INFO_PATHS.prostoxFaq, label: 'PROSTOX questions and answers' },
  { to: PROVIDER_INFO_PATHS.prostoxUltraBilling, label: 'PROSTOX ultra billing and prices' },
] as const;
