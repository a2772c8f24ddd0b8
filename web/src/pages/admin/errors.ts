/** How the admin pages word a refused command: the server's own sentence (SPEC §8), and 401 to sign-in. */
import { ApiError } from '../../api/fetcher';
import { reportError } from '../../shell/report-error';

/** The server's sentence of a failure (its status line when it gave none). */
export function serverMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage || error.message;
  return error instanceof Error ? error.message : String(error);
}

/** A command's failure the page shows itself; only a lost session goes elsewhere (to sign in, then back). */
export function onCommandError(error: unknown): void {
  if (error instanceof ApiError && error.status === 401) reportError(error, 'Signed out');
}
