import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { SIDEBAR_WIDTH_PX } from '@platform/domain';
import { ErrorModalHost } from '../components/ErrorModalHost';
import { markToastContainerMounted } from '../shell/success-toast';
import { SuccessToasts } from '../shell/SuccessToasts';
import { MAIN_CONTENT_ID } from '../shell/RouteAnnouncer';
import classes from './layouts.module.css';
import { Sidebar, sidebarWidthStyle } from './Sidebar';
import { useViewport } from './use-viewport';

/**
 * Every page outside the research portal and the registry (SPEC §2): a 110px sidebar (a top bar
 * on phones), the error modal centred beside it, and success toasts.
 */
export function ProviderLayout() {
  const viewport = useViewport();
  const phone = viewport === 'phone';
  useEffect(() => markToastContainerMounted(), []);
  return (
    <div className={classes.providerRoot} data-layout="provider" data-viewport={viewport} style={sidebarWidthStyle(SIDEBAR_WIDTH_PX)}>
      <a className={classes.skipLink} href={`#${MAIN_CONTENT_ID}`}>
        Skip to content
      </a>
      <Sidebar compact={phone} />
      <main className={classes.providerMain} id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Outlet />
      </main>
      <ErrorModalHost offsetLeftPx={phone ? 0 : SIDEBAR_WIDTH_PX} />
      <SuccessToasts position="top-right" zIndex={1000} />
    </div>
  );
}
