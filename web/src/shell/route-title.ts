/**
 * Every route names its page (`handle: pageTitle('Pending tests')` in routes.tsx); the document
 * title is that name, then where the person is (the account of the URL, else the portal), then
 * the platform: "Pending tests · Riverside Oncology · Prostox Platform" (WCAG 2.4.2). Patient
 * pages name no portal, and their name comes from the message catalogue in the page's language
 * (`patientPageTitle('result')`): "Your test result · Prostox Platform", "Su resultado de la
 * prueba · Prostox Platform".
 */
import type { UIMatch } from 'react-router-dom';
import { PLATFORM_TITLE } from '../brand';
import { portalOfPath, SIGN_IN_PORTAL_INFO } from '../portals';
import type { StoredSessionUser } from '../session/stored-user-shape';
import { currentPatientTitleTranslator, type PatientTitleKey, type TitleTranslator } from './patient-titles';

export interface RouteTitleHandle {
  title: string;
}

/** A patient page's name: its key under `titles` in the message catalogue, and the values it needs. */
export interface PatientRouteTitleHandle {
  titleKey: PatientTitleKey;
  titleValues?: Record<string, string>;
}

export const pageTitle = (title: string): RouteTitleHandle => ({ title });

export const patientPageTitle = (titleKey: PatientTitleKey, titleValues?: Record<string, string>): PatientRouteTitleHandle => ({ titleKey, titleValues });

export const TITLE_SEPARATOR = ' · ';

function isTitled(handle: unknown): handle is RouteTitleHandle | PatientRouteTitleHandle {
  if (typeof handle !== 'object' || handle === null) return false;
  return typeof (handle as RouteTitleHandle).title === 'string' || typeof (handle as PatientRouteTitleHandle).titleKey === 'string';
}

/** The page's own name: a staff page's as written, a patient page's in the page's language (none before its i18n loads). */
function pageNameOf(handle: RouteTitleHandle | PatientRouteTitleHandle, translate: TitleTranslator | null): string | null {
  if ('title' in handle) return handle.title;
  return translate ? translate(`titles.${handle.titleKey}`, handle.titleValues) : null;
}

/** The deepest titled route: the one that names the page. */
const titledPage = (matches: readonly Pick<UIMatch, 'handle' | 'params' | 'pathname'>[]) => [...matches].reverse().find((m) => isTitled(m.handle));

/** Whether the page is a patient's (its name in the patient pages' language). */
export const isPatientPage = (matches: readonly Pick<UIMatch, 'handle' | 'params' | 'pathname'>[]): boolean =>
  typeof (titledPage(matches)?.handle as PatientRouteTitleHandle | undefined)?.titleKey === 'string';

/** The document title for the matched routes (the deepest titled one names the page). */
export function documentTitleOf(
  matches: readonly Pick<UIMatch, 'handle' | 'params' | 'pathname'>[],
  user: StoredSessionUser | null,
  translate: TitleTranslator | null = currentPatientTitleTranslator(),
): string {
  const page = titledPage(matches);
  if (!page) return PLATFORM_TITLE;
  const handle = page.handle as RouteTitleHandle | PatientRouteTitleHandle;
  const portal = portalOfPath(page.pathname);
  const accountId = Number(page.params.accountId);
  const accountName = accountId > 0 && user?.currentAccountId === accountId ? user.currentAccountName : null;
  const where = accountName ?? (portal ? SIGN_IN_PORTAL_INFO[portal].title : null);
  return [pageNameOf(handle, translate), where, PLATFORM_TITLE].filter(Boolean).join(TITLE_SEPARATOR);
}
