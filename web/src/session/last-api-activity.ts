/**
 * When the API last heard from this browser, in every tab: each API answer renews the rolling
 * session cookie, which all tabs share, so a request in one tab keeps the others signed in too.
 * The time is kept in localStorage; other tabs learn of it through the `storage` event. A tab that
 * signs out for inactivity says so the same way, so the other tabs show the same reason.
 */
import { useSyncExternalStore } from 'react';
import { onApiActivity } from '../api/fetcher';

export const LAST_API_ACTIVITY_KEY = 'platform.lastApiActivity';
export const IDLE_SIGN_OUT_KEY = 'platform.idleSignOut';

/** Other tabs hear of activity at most this often (so they may see a time up to 1 s early: the safe side). */
const SHARE_EVERY_MS = 1000;

let lastActivityAt: number | null = null;
let sharedAt = 0;
const listeners = new Set<() => void>();

function readStored(key: string): number {
  try {
    const value = Number(window.localStorage.getItem(key));
    return Number.isFinite(value) ? value : 0;
  } catch {
    return 0;
  }
}

function store(key: string, value: number): void {
  try {
    window.localStorage.setItem(key, String(value));
  } catch {
    // Storage blocked or full: this tab still counts its own requests.
  }
}

function share(at: number): void {
  if (at - sharedAt < SHARE_EVERY_MS) return;
  sharedAt = at;
  store(LAST_API_ACTIVITY_KEY, at);
}

/** The time (ms since the epoch) of the last request the API answered, in any tab. */
export function lastApiActivity(): number {
  if (lastActivityAt === null) {
    // Loading this page reached the server too (and renewed the cookie); another tab may have since.
    lastActivityAt = Math.max(Date.now(), readStored(LAST_API_ACTIVITY_KEY));
    share(lastActivityAt);
  }
  return lastActivityAt;
}

function note(at: number, fromThisTab: boolean): void {
  if (at <= lastApiActivity()) return;
  lastActivityAt = at;
  if (fromThisTab) share(at);
  for (const listener of listeners) listener();
}

let stopTracking: (() => void) | null = null;

function startTracking(): () => void {
  const stopApi = onApiActivity((sentAt) => note(sentAt, true));
  const onStorage = (event: StorageEvent) => {
    if (event.key === LAST_API_ACTIVITY_KEY && event.newValue) note(Number(event.newValue) || 0, false);
  };
  window.addEventListener('storage', onStorage);
  return () => {
    stopApi();
    window.removeEventListener('storage', onStorage);
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  stopTracking ??= startTracking();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      stopTracking?.();
      stopTracking = null;
    }
  };
}

/** The last API activity in any tab; re-renders when it moves. Mounted once, by the app shell. */
export function useLastApiActivity(): number {
  return useSyncExternalStore(subscribe, lastApiActivity);
}

/** Tells the other tabs this one is signing the person out for inactivity. */
export function announceIdleSignOut(): void {
  store(IDLE_SIGN_OUT_KEY, Date.now());
}

/** Whether some tab signed the person out for inactivity in the last minute (a 401 right after it has that reason). */
export function signedOutForInactivityJustNow(withinMs = 60_000): boolean {
  return Date.now() - readStored(IDLE_SIGN_OUT_KEY) < withinMs;
}

/** After a new sign-in the inactivity reason is old news. */
export function forgetIdleSignOut(): void {
  try {
    window.localStorage.removeItem(IDLE_SIGN_OUT_KEY);
  } catch {
    // Storage blocked: the marker ages out within a minute anyway.
  }
}

/** Calls `listener` when another tab signs out for inactivity; returns the function that stops it. */
export function onIdleSignOutElsewhere(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === IDLE_SIGN_OUT_KEY && event.newValue) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
