import { Navigate, Outlet, useLocation } from 'react-router-dom';
import type { SignInPortal } from '@platform/domain';
import { SIGN_IN_PORTAL_INFO, signInPathReturningTo } from '../portals';
import { useStoredUser } from './stored-user';

/**
 * Pages behind sign-in: without a stored user of the right kind the person goes to the portal's
 * sign-in page and comes back here afterwards. The API still decides: a 401 on any query drops
 * the stored user and does the same.
 */
export function RequireSignIn({ portal }: { portal: SignInPortal }) {
  const user = useStoredUser();
  const location = useLocation();
  if (!user || user.kind !== SIGN_IN_PORTAL_INFO[portal].userKind) {
    const here = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={signInPathReturningTo(portal, here)} replace />;
  }
  return <Outlet />;
}
