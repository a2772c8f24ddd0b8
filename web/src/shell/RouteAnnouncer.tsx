import { useEffect, useRef, useState } from 'react';
import { VisuallyHidden } from '@mantine/core';
import { useLocation, useMatches } from 'react-router-dom';
import { useStoredUser } from '../session/stored-user';
import { usePatientTitleTranslator } from './patient-titles';
import { documentTitleOf, isPatientPage } from './route-title';

export const MAIN_CONTENT_ID = 'main-content';

/**
 * Names every page: sets the document title from the routes (route-title.ts) and, when the page
 * changes, says the new title in a live region and moves the focus to the page's content, so a
 * screen reader hears where the person went and Tab goes on from the top of the page (WCAG 2.4.2,
 * 4.1.3). A field the new page focused itself (a scan box) keeps the focus.
 */
export function RouteAnnouncer() {
  const matches = useMatches();
  const user = useStoredUser();
  const { pathname } = useLocation();
  const title = documentTitleOf(matches, user, usePatientTitleTranslator(isPatientPage(matches)));
  const [announced, setAnnounced] = useState('');
  const shownPath = useRef<string | null>(null);

  useEffect(() => {
    document.title = title;
  }, [title]);

  useEffect(() => {
    const first = shownPath.current === null;
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    if (first) return;
    setAnnounced(document.title);
    const main = document.getElementById(MAIN_CONTENT_ID);
    const focused = document.activeElement;
    if (main && (!focused || focused === document.body || !main.contains(focused))) main.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announced}
    </VisuallyHidden>
  );
}
