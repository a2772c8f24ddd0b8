/**
 * The idle timeout as the SPA sees it (DESIGN "idle timeout with warning"). The API's session
 * cookie is rolling: every request renews it, and SESSION_IDLE_MINUTES after the last one the
 * session ends. The SPA warns WARNING_BEFORE_MS before that and, if nobody stays, signs out and
 * says why on the sign-in page. Pure values and functions: tests running in Node import them too.
 */
import { SESSION_IDLE_MINUTES, type SignInPortal } from '@platform/domain';
import { signInPath } from '../portals';

export const IDLE_TIMEOUT_MS = SESSION_IDLE_MINUTES * 60_000;
/** The warning shows this long before the session would end. */
export const IDLE_WARNING_BEFORE_MS = 2 * 60_000;

/** The sign-in page's query parameter saying why the person was signed out. */
export const SIGNED_OUT_PARAM = 'signed-out';
export const SIGNED_OUT_FOR_INACTIVITY = 'inactivity';

export const IDLE_WARNING_TITLE = 'You will be signed out soon';
export const INACTIVITY_SIGN_OUT_TITLE = 'Signed out after inactivity';
export const INACTIVITY_SIGN_OUT_MESSAGE =
  `For your patients' privacy you were signed out after ${SESSION_IDLE_MINUTES} minutes of inactivity. Sign in again to continue where you left off.`;

/** Milliseconds left as m:ss, counting whole seconds up (1:59 while 119.2 seconds are left). */
export function formatCountdown(remainingMs: number): string {
  const seconds = Math.max(0, Math.ceil(remainingMs / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The portal's sign-in page, saying the person was signed out for inactivity, then back to `returnTo`. */
export function signInPathAfterInactivity(portal: SignInPortal, returnTo: string): string {
  const params = new URLSearchParams({ next: returnTo, [SIGNED_OUT_PARAM]: SIGNED_OUT_FOR_INACTIVITY });
  return `${signInPath(portal)}?${params.toString()}`;
}

export function wasSignedOutForInactivity(params: URLSearchParams): boolean {
  return params.get(SIGNED_OUT_PARAM) === SIGNED_OUT_FOR_INACTIVITY;
}
