/** A refused admin command: the page words it (forms/server-errors.ts commandError); a lost session goes to sign-in. */
import { ApiError } from '../../api/fetcher';
import { reportError } from '../../shell/report-error';

/** A command's failure the page shows itself; only a lost session goes elsewhere (to sign in, then back). */
export function onCommandError(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) reportError(error, 'Signed out');
}
