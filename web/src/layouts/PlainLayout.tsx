import { Group, Text } from '@mantine/core';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { PLATFORM_TITLE } from '../brand';
import { BrandMark } from '../components/BrandMark';
import { LazyUserMenu as UserMenu } from '../components/LazyUserMenu';
import { ErrorModalHost } from '../components/ErrorModalHost';
import { portalOfPath, SIGN_IN_PORTAL_INFO } from '../portals';
import { homePathOfStoredUser } from '../session/home-path';
import { useStoredUser } from '../session/stored-user';
import { MAIN_CONTENT_ID } from '../shell/RouteAnnouncer';
import classes from './layouts.module.css';
import { useViewport } from './use-viewport';

/**
 * The research portal and the registry (SPEC §2): a plain themed page with a header and no
 * sidebar; the error modal sits at its default position; no success toasts.
 */
export function PlainLayout() {
  const viewport = useViewport();
  const { pathname } = useLocation();
  const user = useStoredUser();
  const portal = portalOfPath(pathname);
  const signedInHere = portal === 'research' && user !== null && user.kind === SIGN_IN_PORTAL_INFO.research.userKind;
  const home = (signedInHere && homePathOfStoredUser(user, 'research')) || pathname;
  return (
    <div className={classes.plainRoot} data-layout="plain" data-viewport={viewport}>
      <a className={classes.skipLink} href={`#${MAIN_CONTENT_ID}`}>
        Skip to content
      </a>
      <header className={classes.plainHeader}>
        <Group gap="sm" wrap="nowrap">
          <Link to={home} aria-label={`${PLATFORM_TITLE} home`} style={{ textDecoration: 'none' }}>
            <BrandMark size={viewport === 'phone' ? 28 : 32} withName={viewport !== 'phone'} />
          </Link>
          {portal === 'research' && (
            <Text fw={600} c="dimmed" fz="sm" visibleFrom="xs" style={{ borderLeft: '1px solid var(--mantine-color-gray-4)', paddingLeft: 12 }}>
              {SIGN_IN_PORTAL_INFO.research.title}
            </Text>
          )}
        </Group>
        {signedInHere && user && <UserMenu user={user} portal="research" compact />}
      </header>
      <main className={classes.plainMain} id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Outlet />
      </main>
      <ErrorModalHost />
    </div>
  );
}
