import type { UserKind } from '@platform/domain';

/** What a signed-in request carries as req.user (loaded from the users table on each request). */
export interface SessionUser {
  id: number;
  kind: UserKind;
  email: string;
  firstName: string;
  lastName: string;
}

declare global {
  namespace Express {
    interface User extends SessionUser {}
  }
}

declare module 'express-session' {
  interface SessionData {
    currentAccountId?: number;
  }
}
