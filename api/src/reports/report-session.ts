/** What a browser session remembers of the patient's result links: the ones it verified with the date of birth. */
declare module 'express-session' {
  interface SessionData {
    /** Ids of the result links this browser verified (most recent last, a few at most). */
    verifiedResultLinks?: number[];
  }
}

export {};
