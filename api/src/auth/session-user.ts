import type { SessionUser } from '@platform/domain';

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
  }
}
