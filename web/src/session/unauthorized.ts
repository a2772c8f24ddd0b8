/**
 * What a 401 does: the stored user is dropped and the person goes to the sign-in page of the
 * portal they are in, then back. The app shell registers the navigation (it owns the router);
 * until it does, a 401 only drops the stored user.
 */
import { clearStoredUser } from './stored-user';

type UnauthorizedHandler = () => void;

let redirectToSignIn: UnauthorizedHandler | null = null;

export function setUnauthorizedRedirect(handler: UnauthorizedHandler): () => void {
  redirectToSignIn = handler;
  return () => {
    if (redirectToSignIn === handler) redirectToSignIn = null;
  };
}

export function handleUnauthorized(): void {
  clearStoredUser();
  redirectToSignIn?.();
}
