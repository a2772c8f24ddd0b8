/** What a browser session remembers of the patient's result links: the ones it verified with the date of birth. */
declare module 'express-session' {
  interface SessionData {
    /** Ids of the result links this browser verified (most recent last, a few at most). */
    verifiedResultLinks?: number[];
  }
}

/** How many verified links one session remembers (a family member opening several links, say). */
export const MAX_VERIFIED_LINKS_PER_SESSION = 10;
