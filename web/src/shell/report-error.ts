/**
 * How a failure reaches the person: a 401 drops the stored user and goes to sign in (then back);
 * anything else opens the error modal with its friendly heading and the error's message
 * ('Request failed with status code {status}'). Queries get here through the shell's SWRConfig
 * `onError` (see RootShell); pages call it for commands whose failure is not a form's to show.
 * A 404 under an account may mean the account is no longer the person's (a super admin removed
 * them): who they are is read again, and when the account is gone its page says so (not found)
 * in place of the modal, and the account switcher and the stored current account follow.
 */
import { mutate as defaultCacheMutate, type ScopedMutator, type SWRConfiguration } from 'swr';
import { ME_PATH, type Me } from '../api/auth';
import { ApiError, apiFetch } from '../api/fetcher';
import { errorHeadingFor } from '../api/query';
import { accountIdOfPath } from '../portals';
import { syncStoredUser } from '../session/stored-user';
import { handleUnauthorized } from '../session/unauthorized';
import { showErrorModal } from './error-modal-store';

export function reportError(error: unknown, heading: string): void {
  if (error instanceof ApiError && error.status === 401) {
    handleUnauthorized();
    return;
  }
  showErrorModal({ heading, message: error instanceof Error ? error.message : String(error) });
}

let meReread: Promise<Me> | null = null;

/** /auth/me read afresh (once for the failures that arrive together). */
function rereadMe(): Promise<Me> {
  meReread ??= apiFetch<Me>(ME_PATH).finally(() => {
    meReread = null;
  });
  return meReread;
}

/**
 * A query under account `accountId` was not found. Who the person is is read again, into the
 * query cache (`mutate` is the cache's own, from the query's config) and the stored user; the
 * error shows only if the account is still theirs.
 */
async function recheckAccount(accountId: number, error: ApiError, heading: string | null, mutate: ScopedMutator): Promise<void> {
  let me: Me;
  try {
    me = await rereadMe();
  } catch (meError) {
    if (meError instanceof ApiError && meError.status === 401) handleUnauthorized();
    else if (heading !== null) reportError(error, heading);
    return;
  }
  syncStoredUser(me);
  await mutate(ME_PATH, me, { revalidate: false });
  if (heading !== null && me.accounts.some((a) => a.id === accountId)) reportError(error, heading);
}

/** What the shell adds to every query: failures to the error modal, fresh /auth/me answers to the stored user. */
export const shellSwrConfig: SWRConfiguration = {
  onError: (error: unknown, _key: string, config: unknown) => {
    const heading = errorHeadingFor(error, config);
    const lostAccountId = error instanceof ApiError && error.status === 404 && error.path ? accountIdOfPath(error.path) : null;
    if (lostAccountId !== null) {
      void recheckAccount(lostAccountId, error as ApiError, heading, (config as { mutate?: ScopedMutator } | undefined)?.mutate ?? defaultCacheMutate);
    } else if (heading !== null) reportError(error, heading);
  },
  onSuccess: (data: unknown, key: string) => {
    if (key === ME_PATH && data) syncStoredUser(data as Me);
  },
};
