/**
 * How a failure reaches the person: a 401 drops the stored user and goes to sign in (then back);
 * anything else opens the error modal with its friendly heading and the error's message
 * ('Request failed with status code {status}'). Queries get here through the shell's SWRConfig
 * `onError` (see RootShell); pages call it for commands whose failure is not a form's to show.
 */
import type { SWRConfiguration } from 'swr';
import { ME_PATH, type Me } from '../api/auth';
import { ApiError } from '../api/fetcher';
import { errorHeadingFor } from '../api/query';
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

/** What the shell adds to every query: failures to the error modal, fresh /auth/me answers to the stored user. */
export const shellSwrConfig: SWRConfiguration = {
  onError: (error: unknown, _key: string, config: unknown) => {
    const heading = errorHeadingFor(error, config);
    if (heading !== null) reportError(error, heading);
  },
  onSuccess: (data: unknown, key: string) => {
    if (key === ME_PATH && data) syncStoredUser(data as Me);
  },
};
