import type { SessionUser, SignInPortal } from '@platform/domain';

/** What a signed-in request carries as req.user (loaded from the users table on each request); also Me.user. */
export type { SessionUser };

declare global {
  namespace Express {
    interface User extends SessionUser {}
  }
}

declare module 'express-session' {
  interface SessionData {
    currentAccountId?: number;
    /** When the user signed in (ms since the epoch): the session's absolute lifetime counts from here. */
    signedInAt?: number;
    /**
     * A sign-in whose password was right, waiting for its second step (or, `enrol`, for the first
     * factor of a user who must have one): nobody is signed in until it is answered.
     */
    secondStep?: { userId: number; portal: SignInPortal; startedAt: number; enrol: boolean };
    /** The challenge of the WebAuthn ceremony under way (registration or sign-in). */
    webauthnChallenge?: string;
  }
}
