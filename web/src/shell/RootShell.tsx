import { useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { portalOfPath, signInPathReturningTo } from '../portals';
import { signInPathAfterInactivity } from '../session/idle-timeout';
import { signedOutForInactivityJustNow } from '../session/last-api-activity';
import { setUnauthorizedRedirect } from '../session/unauthorized';
import { isAuthPage } from './auth-pages';
import { BrowserSupportModal } from './BrowserSupportModal';
import { useBuildCheck } from './build-check';
import { IdleSessionWarning } from './IdleSessionWarning';
import { RouteAnnouncer } from './RouteAnnouncer';
import { shellSwrConfig } from './report-error';

/** On a 401: to the sign-in page of the portal the person is in, then back here. */
function useUnauthorizedRedirect(): void {
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location);
  here.current = location;
  useEffect(
    () =>
      setUnauthorizedRedirect(() => {
        const { pathname, search, hash } = here.current;
        const portal = portalOfPath(pathname);
        if (!portal || isAuthPage(pathname)) return;
        const returnTo = `${pathname}${search}${hash}`;
        // Two tabs timing out together: the one whose request met the ended session still says why.
        navigate(signedOutForInactivityJustNow() ? signInPathAfterInactivity(portal, returnTo) : signInPathReturningTo(portal, returnTo), { replace: true });
      }),
    [navigate],
  );
}

/**
 * Around every route: the build check, query failures to the error modal (SWRConfig `onError`),
 * the 401 redirect, the document title and the page-change announcement, the idle-session warning
 * and the browser-support modal.
 */
export function RootShell() {
  useBuildCheck();
  useUnauthorizedRedirect();
  return (
    <SWRConfig value={shellSwrConfig}>
      <Outlet />
      <RouteAnnouncer />
      <IdleSessionWarning />
      <BrowserSupportModal />
    </SWRConfig>
  );
}
