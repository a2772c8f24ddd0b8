/**
 * The stored session user (SPEC §3): a summary of who is signed in and their current account,
 * kept in localStorage under one key so every tab and page agrees. The session itself is an
 * HttpOnly cookie that scripts never see; this is only what the SPA shows and routes by.
 */
import { useSyncExternalStore } from 'react';
import type { SignInPortal } from '@platform/domain';
import type { Me, MeAccount } from '../api/auth';
import { STORED_USER_KEY, type StoredCurrentAccount, type StoredSessionUser } from './stored-user-shape';

export { STORED_USER_KEY, type StoredCurrentAccount, type StoredSessionUser } from './stored-user-shape';

function currentAccountFields(account: MeAccount | null): StoredCurrentAccount {
  return {
    currentAccountId: account?.id ?? null,
    currentAccountName: account?.name ?? null,
    currentAccountRole: account?.role ?? null,
    eapPartner: account?.eapPartner ?? false,
    international: account?.international ?? false,
    clinicAccess: account?.clinicAccess ?? false,
    researchAccess: account?.researchAccess ?? false,
  };
}

export function storedUserFromMe(me: Me, portal: SignInPortal): StoredSessionUser {
  return {
    portal,
    userId: me.user.id,
    kind: me.user.kind,
    email: me.user.email,
    firstName: me.user.firstName,
    lastName: me.user.lastName,
    ...currentAccountFields(me.currentAccount),
  };
}

const listeners = new Set<() => void>();
let cachedRaw: string | null = null;
let cachedUser: StoredSessionUser | null = null;

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(STORED_USER_KEY);
  } catch {
    return null;
  }
}

export function readStoredUser(): StoredSessionUser | null {
  const raw = readRaw();
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    try {
      cachedUser = raw ? (JSON.parse(raw) as StoredSessionUser) : null;
    } catch {
      cachedUser = null;
    }
  }
  return cachedUser;
}

function write(user: StoredSessionUser | null): void {
  try {
    if (user) window.localStorage.setItem(STORED_USER_KEY, JSON.stringify(user));
    else window.localStorage.removeItem(STORED_USER_KEY);
  } catch {
    // Storage full or blocked: the session cookie still works; the SPA re-reads /auth/me.
  }
  for (const listener of listeners) listener();
}

export function storeSignedInUser(me: Me, portal: SignInPortal): StoredSessionUser {
  const user = storedUserFromMe(me, portal);
  write(user);
  return user;
}

/** Setting the account replaces the current-account fields and keeps the rest. */
export function storeCurrentAccount(account: MeAccount | null): void {
  const user = readStoredUser();
  if (user) write({ ...user, ...currentAccountFields(account) });
}

export function clearStoredUser(): void {
  write(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORED_USER_KEY || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useStoredUser(): StoredSessionUser | null {
  return useSyncExternalStore(subscribe, readStoredUser);
}

/** Brings the stored user up to date with a fresh /auth/me (names or account flags may change). */
export function syncStoredUser(me: Me): void {
  const user = readStoredUser();
  if (!user) return;
  const next = storedUserFromMe(me, user.portal);
  if (JSON.stringify(next) !== JSON.stringify(user)) write(next);
}
