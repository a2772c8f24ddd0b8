import type { CSSProperties } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { BrandMark } from '../components/BrandMark';
import { LazyUserMenu as UserMenu } from '../components/LazyUserMenu';
import { PLATFORM_TITLE } from '../brand';
import { portalOfPath, SIGN_IN_PORTAL_INFO } from '../portals';
import { homePathOfStoredUser } from '../session/home-path';
import { useStoredUser } from '../session/stored-user';
import classes from './layouts.module.css';
import { navigationFor } from './navigation';

/** The provider layout's sidebar: the mark, the portal's links and the signed-in person. */
export function Sidebar({ compact }: { compact: boolean }) {
  const { pathname } = useLocation();
  const user = useStoredUser();
  const portal = portalOfPath(pathname);
  const links = navigationFor(portal, user);
  const signedInHere = portal !== null && user !== null && user.kind === SIGN_IN_PORTAL_INFO[portal].userKind;
  const home = (signedInHere && homePathOfStoredUser(user, portal)) || pathname;
  return (
    <aside className={classes.sidebar} aria-label="Sidebar" data-testid="sidebar">
      <Link to={home} className={classes.sidebarBrand} aria-label={`${PLATFORM_TITLE} home`}>
        <BrandMark size={compact ? 30 : 40} withName={false} inverted />
      </Link>
      <nav className={classes.sidebarNav} aria-label="Main navigation">
        {links.map(({ label, to, icon: Icon, end }) => (
          <NavLink key={to} to={to} end={end} className={classes.navLink}>
            <Icon size={compact ? 20 : 24} />
            <span>{label}</span>
          </NavLink>
        ))}
      </nav>
      {signedInHere && user && portal && (
        <div className={classes.sidebarFooter}>
          <UserMenu user={user} portal={portal} compact={compact} inverted />
        </div>
      )}
    </aside>
  );
}

export const sidebarWidthStyle = (widthPx: number) => ({ '--sidebar-width': `${widthPx}px` }) as CSSProperties;
