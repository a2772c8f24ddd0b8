import type { SignInPortal } from '@platform/domain';
import type { Me, MeAccount } from '../api/auth';
import { ADMIN_HOME_PATH, clinicHomePath, LAB_HOME_PATH, researchHomePath, signInPath, SIGN_IN_PORTAL_INFO } from '../portals';
import type { StoredSessionUser } from './stored-user';

type PortalAccess = 'clinicAccess' | 'researchAccess';

/** The account a provider works in on a portal: the current one if it has access, else the first that does. */
export function accountForPortal(me: Me, access: PortalAccess): MeAccount | null {
  if (me.currentAccount?.[access]) return me.currentAccount;
  return me.accounts.find((account) => account[access]) ?? null;
}

/** The home page a person lands on after signing in; null when a provider has no account with access. */
export function homePathAfterSignIn(portal: SignInPortal, me: Me): string | null {
  switch (portal) {
    case 'admin':
      return ADMIN_HOME_PATH;
    case 'lab':
      return LAB_HOME_PATH;
    case 'provider': {
      const account = accountForPortal(me, 'clinicAccess');
      return account ? clinicHomePath(account.id) : null;
    }
    case 'research': {
      const account = accountForPortal(me, 'researchAccess');
      return account ? researchHomePath(account.id) : null;
    }
  }
}

/**
 * The home page of whoever is stored as signed in, for "back home" links: of the portal given
 * when the person may use it (a provider moves between clinic and research), else of the portal
 * they signed in to.
 */
export function homePathOfStoredUser(user: StoredSessionUser | null, inPortal?: SignInPortal | null): string | null {
  if (!user) return null;
  const portal = inPortal && SIGN_IN_PORTAL_INFO[inPortal].userKind === user.kind ? inPortal : user.portal;
  switch (portal) {
    case 'admin':
      return ADMIN_HOME_PATH;
    case 'lab':
      return LAB_HOME_PATH;
    case 'provider':
      return user.currentAccountId !== null ? clinicHomePath(user.currentAccountId) : signInPath('provider');
    case 'research':
      return user.currentAccountId !== null ? researchHomePath(user.currentAccountId) : signInPath('research');
  }
}
