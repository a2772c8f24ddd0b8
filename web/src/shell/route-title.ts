/**
 * Every route names its page (`handle: pageTitle('Pending tests')` in routes.tsx); the document
 * title is that name, then where the person is (the account of the URL, else the portal), then
 * the platform: "Pending tests · Riverside Oncology · Prostox Platform" (WCAG 2.4.2). Patient
 * pages name no portal: "Your test result · Prostox Platform".
 */
import type { UIMatch } from 'react-router-dom';
import { PLATFORM_TITLE } from '../brand';
import { portalOfPath, SIGN_IN_PORTAL_INFO } from '../portals';
import type { StoredSessionUser } from '../session/stored-user-shape';

export interface RouteTitleHandle {
  title: string;
}

export const pageTitle = (title: string): RouteTitleHandle => ({ title });

export const TITLE_SEPARATOR = ' · ';

function isTitled(handle: unknown): handle is RouteTitleHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as RouteTitleHandle).title === 'string';
}

/** The document title for the matched routes (the deepest titled one names the page). */
export function documentTitleOf(matches: readonly Pick<UIMatch, 'handle' | 'params' | 'pathname'>[], user: StoredSessionUser | null): string {
  const page = [...matches].reverse().find((m) => isTitled(m.handle));
  if (!page) return PLATFORM_TITLE;
  const portal = portalOfPath(page.pathname);
  const accountId = Number(page.params.accountId);
  const accountName = accountId > 0 && user?.currentAccountId === accountId ? user.currentAccountName : null;
  const where = accountName ?? (portal ? SIGN_IN_PORTAL_INFO[portal].title : null);
  return [(page.handle as RouteTitleHandle).title, where, PLATFORM_TITLE].filter(Boolean).join(TITLE_SEPARATOR);
}
