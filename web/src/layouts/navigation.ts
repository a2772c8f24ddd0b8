/**
 * The sidebar's links per portal. Only pages that exist are linked; each later feature adds its
 * own entry here (orders, pending, completed, shipments, the lab tools, the admin areas).
 */
import type { ComponentType } from 'react';
import type { SignInPortal } from '@platform/domain';
import { ClipboardIcon, FlaskIcon, HomeIcon, StethoscopeIcon } from '../components/icons';
import { ADMIN_HOME_PATH, clinicHomePath, LAB_HOME_PATH, researchHomePath, SIGN_IN_PORTAL_INFO } from '../portals';
import type { StoredSessionUser } from '../session/stored-user';

export interface NavigationLink {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number }>;
  /** Active only on exactly this path (home pages), not below it. */
  end?: boolean;
}

export function navigationFor(portal: SignInPortal | null, user: StoredSessionUser | null): NavigationLink[] {
  if (!portal || !user || user.kind !== SIGN_IN_PORTAL_INFO[portal].userKind) return [];
  switch (portal) {
    case 'admin':
      return [{ label: 'Home', to: ADMIN_HOME_PATH, icon: HomeIcon, end: true }];
    case 'lab':
      return [{ label: 'Toolbox', to: LAB_HOME_PATH, icon: FlaskIcon, end: true }];
    case 'provider':
    case 'research': {
      const id = user.currentAccountId;
      if (id === null) return [];
      const links: NavigationLink[] = [];
      if (user.clinicAccess) links.push({ label: 'Clinic', to: clinicHomePath(id), icon: StethoscopeIcon, end: true });
      if (user.researchAccess) links.push({ label: 'Research', to: researchHomePath(id), icon: ClipboardIcon, end: true });
      return links;
    }
  }
}
