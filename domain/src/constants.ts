/** Business constants of SPEC §9 and the readings of SPEC-NOTES.md. */

/** SWR: query data stays fresh 5 minutes; no automatic retries. */
export const QUERY_FRESH_MS = 300_000;
export const QUERY_RETRIES = 0;

/** The largest page a list endpoint returns, and the default page size of tables. */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 10;

export const SIDEBAR_WIDTH_PX = 110;
export const DESKTOP_MIN_WIDTH_PX = 992;
export const TABLET_MIN_WIDTH_PX = 576;

/** Dates display as MM/DD/YYYY (dates.ts); dates in data are YYYY-MM-DD. */
/** The share of a MiraKind order's price that is a tax-deductible donation. */
export const MIRAKIND_DONATION_SHARE = 0.2;

/** Sign-in throttling: failures allowed per window, per account and per address. */
export const LOGIN_FAILURES_PER_ACCOUNT = 5;
export const LOGIN_FAILURES_PER_ADDRESS = 20;
export const LOGIN_THROTTLE_WINDOW_SECONDS = 15 * 60;
/** How long a browser that signed in to an account keeps its own allowance of failures for that account. */
export const DEVICE_COOKIE_DAYS = 180;

export const PASSWORD_MIN_LENGTH = 10;
export const EMAIL_MAX_LENGTH = 254;
/** A password reset token: 32 random bytes, hex. */
export const RESET_TOKEN_HEX_LENGTH = 64;
export const PASSWORD_RESET_TOKEN_MINUTES = 60;
/** Idle session timeout; the SPA warns a little before. */
export const SESSION_IDLE_MINUTES = 30;
/** However active, a session ends this many hours after its sign-in: staff who hold the lab's and every account's data sooner. */
export const SESSION_ABSOLUTE_HOURS = { admin: 8, lab: 8, provider: 12 } as const;

/** A patient result link locks after this many wrong dates of birth, until a provider re-sends it. */
export const RESULT_LINK_MAX_DOB_FAILURES = 10;
/** How long a patient's result link works; after that the provider re-sends a fresh one. */
export const RESULT_LINK_VALID_DAYS = 90;

export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/**
 * A workbook is a ZIP: a few MB can expand a thousandfold. Before one is read its parts are
 * expanded with these caps (far above the largest import: 10,000 rows of a few columns).
 */
export const XLSX_MAX_EXPANDED_BYTES = 50 * 1024 * 1024;
export const XLSX_MAX_CELLS = 200_000;

/** Requests larger than this are refused before they are parsed. */
export const JSON_BODY_LIMIT = '1mb';
/** No form nests deeper than a few levels: a body nested deeper than this is refused while it is read. */
export const JSON_MAX_DEPTH = 32;

/** No date and time a client sends (a receipt, a collection, a shipment) is older than this: the lab opened later. */
export const EARLIEST_EVENT_DATE = '2000-01-01T00:00:00Z';
