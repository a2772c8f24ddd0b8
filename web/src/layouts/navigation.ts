/**
 * The sidebar's links per portal. Only pages that exist are linked; each later feature adds its
 * own entry here (orders, pending, completed, shipments, the lab tools, the admin areas).
 */
import type { ComponentType } from 'react';
import { AccountRole, type SignInPortal } from '@platform/domain';
import { ClipboardIcon, DocumentIcon, FlaskIcon, HomeIcon, KeyIcon, StethoscopeIcon } from '../components/icons';
import { ADMIN_PATHS } from '../pages/admin/paths';
import { LAB_PATHS } from '../pages/lab/paths';
import { CompletedIcon, EnvelopeIcon, OrderIcon, PendingIcon, TruckIcon, UsersIcon } from '../pages/clinic/clinic-icons';
import { ADMIN_HOME_PATH, clinicHomePath, LAB_HOME_PATH, researchHomePath, SIGN_IN_PORTAL_INFO, signInPath } from '../portals';
import type { StoredSessionUser } from '../session/stored-user';

export interface NavigationLink {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number }>;
  /** Active only on exactly this path (home pages), not below it. */
  end?: boolean;
}

export function navigationFor(portal: SignInPortal | null, user: StoredSessionUser | null): NavigationLink[] {
  if (!portal) return [];
  // Signed out (sign-in, forgot, reset and set-password pages): the way back to the portal's sign-in, never an empty bar.
  if (!user || user.kind !== SIGN_IN_PORTAL_INFO[portal].userKind) return [{ label: 'Sign in', to: signInPath(portal), icon: KeyIcon, end: true }];
  switch (portal) {
    case 'admin':
      return [
        { label: 'Home', to: ADMIN_HOME_PATH, icon: HomeIcon, end: true },
        { label: 'Approvals', to: ADMIN_PATHS.approve, icon: StethoscopeIcon },
        { label: 'Users', to: ADMIN_PATHS.users, icon: KeyIcon },
        { label: 'Emails', to: ADMIN_PATHS.emails, icon: DocumentIcon },
        { label: 'Jobs', to: ADMIN_PATHS.jobs, icon: ClipboardIcon },
      ];
    case 'lab':
      return [
        { label: 'Toolbox', to: LAB_HOME_PATH, icon: HomeIcon, end: true },
        { label: 'Worklist', to: LAB_PATHS.worklist, icon: ClipboardIcon },
        { label: 'Intake', to: LAB_PATHS.intake, icon: ClipboardIcon },
        { label: 'PCR', to: LAB_PATHS.pcrRegister, icon: FlaskIcon },
        { label: 'Import', to: LAB_PATHS.toxicityImport, icon: DocumentIcon },
        { label: 'Review', to: LAB_PATHS.review, icon: KeyIcon },
      ];
    case 'provider':
    case 'research': {
      const id = user.currentAccountId;
      if (id === null) return [];
      const links: NavigationLink[] = [];
      if (user.clinicAccess) links.push({ label: 'Clinic', to: clinicHomePath(id), icon: StethoscopeIcon, end: true });
      if (user.clinicAccess && portal === 'provider') {
        links.push(
          { label: 'Order', to: `${clinicHomePath(id)}/order`, icon: OrderIcon },
          { label: 'Pending', to: `${clinicHomePath(id)}/pending`, icon: PendingIcon },
          { label: 'Completed', to: `${clinicHomePath(id)}/completed`, icon: CompletedIcon },
          { label: 'Shipments', to: `${clinicHomePath(id)}/shipments`, icon: TruckIcon },
          { label: 'Invitations', to: `${clinicHomePath(id)}/patient-invitations`, icon: EnvelopeIcon },
        );
        // The account's users are its super admins' to manage (the API refuses anyone else).
        if (user.currentAccountRole === AccountRole.SuperAdmin) links.push({ label: 'Users', to: `${clinicHomePath(id)}/users`, icon: UsersIcon });
      }
      if (user.researchAccess) links.push({ label: 'Research', to: researchHomePath(id), icon: ClipboardIcon, end: true });
      return links;
    }
  }
}
