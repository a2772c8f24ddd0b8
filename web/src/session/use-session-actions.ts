/** Sign out, stay signed in and switch account: the API call, the stored user and the cached queries together. */
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import type { SignInPortal } from '@platform/domain';
import { ME_PATH, signOut, switchAccount, type Me } from '../api/auth';
import { apiFetch } from '../api/fetcher';
import { signInPath } from '../portals';
import { clearStoredUser, storeCurrentAccount, syncStoredUser } from './stored-user';

/** Signs out, then goes to the portal's sign-in page (or `to`, e.g. one that says why). */
export function useSignOut(portal: SignInPortal) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  return useCallback(async ({ to }: { to?: string } = {}) => {
    try {
      await signOut();
    } catch {
      // Signed out on this device regardless: the session expires on the server by itself.
    }
    clearStoredUser();
    await mutate(() => true, undefined, { revalidate: false });
    navigate(to ?? signInPath(portal), { replace: true });
  }, [mutate, navigate, portal]);
}

/** Renews the session's idle timeout: any API request does, this one also refreshes who is signed in. */
export function useStaySignedIn() {
  const { mutate } = useSWRConfig();
  return useCallback(async (): Promise<Me> => {
    const me = await apiFetch<Me>(ME_PATH);
    syncStoredUser(me);
    await mutate(ME_PATH, me, { revalidate: false });
    return me;
  }, [mutate]);
}

/** Makes another of the person's accounts the current one; resolves with the new /auth/me. */
export function useSwitchAccount() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (accountId: number): Promise<Me> => {
      const me = await switchAccount(accountId);
      storeCurrentAccount(me.currentAccount);
      await mutate(ME_PATH, me, { revalidate: false });
      return me;
    },
    [mutate],
  );
}
