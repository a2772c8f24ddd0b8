/**
 * The idle-session warning (DESIGN "idle timeout with warning"). The session ends
 * SESSION_IDLE_MINUTES after the last API request from any tab; two minutes before, a modal counts
 * down and offers to stay signed in (one request renews the session) or to sign out. At zero the
 * person is signed out and the sign-in page says why. Only for someone signed in, on their
 * portal's pages: not on sign-in pages, nor on the patient result page.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import type { SignInPortal } from '@platform/domain';
import { ApiError } from '../api/fetcher';
import { LazyModal } from '../components/LazyModal';
import { portalOfPath, SIGN_IN_PORTAL_INFO } from '../portals';
import {
  formatCountdown,
  IDLE_TIMEOUT_MS,
  IDLE_WARNING_BEFORE_MS,
  IDLE_WARNING_TITLE,
  signInPathAfterInactivity,
} from '../session/idle-timeout';
import { announceIdleSignOut, onIdleSignOutElsewhere, useLastApiActivity } from '../session/last-api-activity';
import { clearStoredUser, useStoredUser } from '../session/stored-user';
import { useSignOut, useStaySignedIn } from '../session/use-session-actions';
import { isAuthPage } from './auth-pages';

/** Mounted once by the app shell: follows API activity always, warns only where it applies. */
export function IdleSessionWarning() {
  const lastActivityAt = useLastApiActivity();
  const user = useStoredUser();
  const { pathname, search, hash } = useLocation();
  const pathPortal = portalOfPath(pathname);
  if (!user || !pathPortal || isAuthPage(pathname)) return null;
  // A provider may be in the research portal; someone on another kind's page goes back to their own.
  const portal = SIGN_IN_PORTAL_INFO[pathPortal].userKind === user.kind ? pathPortal : user.portal;
  return (
    <IdleCountdown
      key={user.userId}
      expiresAt={lastActivityAt + IDLE_TIMEOUT_MS}
      portal={portal}
      returnTo={`${pathname}${search}${hash}`}
    />
  );
}

/** What a screen reader hears while the countdown runs: a few milestones, not every second. */
function milestone(seconds: number): string {
  if (seconds <= 10) return 'Less than 10 seconds left before you are signed out.';
  if (seconds <= 30) return 'Less than 30 seconds left before you are signed out.';
  if (seconds <= 60) return 'Less than 1 minute left before you are signed out.';
  return '';
}

function IdleCountdown({ expiresAt, portal, returnTo }: { expiresAt: number; portal: SignInPortal; returnTo: string }) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const signOut = useSignOut(portal);
  const staySignedIn = useStaySignedIn();
  const [, setTick] = useState(0);
  const [staying, setStaying] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  /** Set once this tab is signing out (or following another tab out): nothing else happens then. */
  const leaving = useRef(false);

  const now = Date.now();
  const remainingMs = expiresAt - now;
  const warning = remainingMs <= IDLE_WARNING_BEFORE_MS;
  const expired = remainingMs <= 0;
  const afterInactivity = signInPathAfterInactivity(portal, returnTo);
  const afterInactivityRef = useRef(afterInactivity);
  afterInactivityRef.current = afterInactivity;

  // Wake at the next moment that matters: the warning, then each second of the countdown.
  useEffect(() => {
    const left = expiresAt - Date.now();
    if (left <= 0) {
      // Time ran out between this render and its effect (a tab asleep or its timers throttled): no
      // timer is due any more, so render again now, and that render signs out.
      if (!expired) setTick((n) => n + 1);
      return;
    }
    const delay = left > IDLE_WARNING_BEFORE_MS ? left - IDLE_WARNING_BEFORE_MS : left % 1000 || 1000;
    const timer = window.setTimeout(() => setTick((n) => n + 1), delay);
    return () => window.clearTimeout(timer);
  });

  // Time is up: sign out, tell the other tabs, and say why on the sign-in page.
  useEffect(() => {
    if (!expired || leaving.current) return;
    leaving.current = true;
    announceIdleSignOut();
    void signOut({ to: afterInactivityRef.current });
  }, [expired, signOut]);

  // Another tab's time ran out (it shares this tab's last activity): the same here, without a second API call.
  useEffect(
    () =>
      onIdleSignOutElsewhere(() => {
        if (leaving.current) return;
        leaving.current = true;
        clearStoredUser();
        void mutate(() => true, undefined, { revalidate: false });
        navigate(afterInactivityRef.current, { replace: true });
      }),
    [mutate, navigate],
  );

  const stay = async () => {
    if (leaving.current || staying) return;
    setStaying(true);
    setProblem(null);
    try {
      await staySignedIn(); // the answer moves the last activity on, which closes this modal
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        // The session had already ended on the server.
        leaving.current = true;
        void signOut({ to: afterInactivityRef.current });
      } else {
        setProblem(error instanceof Error ? `${error.message}. You are still signed in for now; please try again.` : 'Please try again.');
      }
    } finally {
      setStaying(false);
    }
  };

  const signOutNow = () => {
    if (leaving.current) return;
    leaving.current = true;
    void signOut();
  };

  const seconds = Math.max(0, Math.ceil(remainingMs / 1000));
  return (
    <LazyModal
      opened={warning}
      onClose={() => void stay()}
      title={IDLE_WARNING_TITLE}
      centered
      withCloseButton={false}
      closeOnClickOutside={false}
      zIndex={450}
      styles={{ title: { fontWeight: 650 } }}
    >
      <Stack gap="sm">
        <Text>
          For your patients&apos; privacy you will be signed out in{' '}
          <Text span fw={700} role="timer" data-testid="idle-countdown" style={{ fontVariantNumeric: 'tabular-nums' }}>
            {formatCountdown(remainingMs)}
          </Text>{' '}
          because of inactivity.
        </Text>
        <VisuallyHidden aria-live="polite" aria-atomic="true">
          {milestone(seconds)}
        </VisuallyHidden>
        {problem && (
          <Text c="red.9" role="alert">
            {problem}
          </Text>
        )}
      </Stack>
      <Group justify="flex-end" mt="lg" gap="sm">
        <Button variant="default" onClick={signOutNow} disabled={expired}>
          Sign out
        </Button>
        <Button onClick={() => void stay()} loading={staying} disabled={expired} data-autofocus>
          Stay signed in
        </Button>
      </Group>
    </LazyModal>
  );
}
