/** Sign out and switch account: the API call, the stored user and the cached queries together. */
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import type { SignInPortal } from '@platform/domain';
import { ME_PATH, signOut, switchAccount, type Me } from '../api/auth';
import { signInPath } from '../portals';
import { clearStoredUser, storeCurrentAccount } from './stored-user';

export function useSignOut(portal: SignInPortal) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  return useCallback(async () => {
    try {
      await signOut();
    } catch {
      // Signed out on this device regardless: the session expires on the server by itself.
    }
    clearStoredUser();
    await mutate(() => true, undefined, { revalidate: false });
    navigate(signInPath(portal), { replace: true });
  }, [mutate, navigate, portal]);
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
