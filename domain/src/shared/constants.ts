/** Constants of SPEC §9 and the readings of SPEC-NOTES.md that every part of the platform shares. */

/** SWR: query data stays fresh 5 minutes; no automatic retries. */
export const QUERY_FRESH_MS = 300_000;
export const QUERY_RETRIES = 0;

/** The largest page a list endpoint returns, and the default page size of tables. */
export const MAX_PAGE_SIZE = 200;
export const DEFAULT_PAGE_SIZE = 10;

export const SIDEBAR_WIDTH_PX = 110;
export const DESKTOP_MIN_WIDTH_PX = 992;
export const TABLET_MIN_WIDTH_PX = 576;

export const EMAIL_MAX_LENGTH = 254;

/** Requests larger than this are refused before they are parsed. */
export const JSON_BODY_LIMIT = '1mb';
/** No form nests deeper than a few levels: a body nested deeper than this is refused while it is read. */
export const JSON_MAX_DEPTH = 32;

/** No date and time a client sends (a receipt, a collection, a shipment) is older than this: the lab opened later. */
export const EARLIEST_EVENT_DATE = '2000-01-01T00:00:00Z';

/** The longest scanned text a filter or a scan field takes. */
export const SCANNED_MAX_LENGTH = 64;

/** The longest person's name, and the longest reason or note, a form takes. */
export const PERSON_NAME_MAX_LENGTH = 100;

export const REASON_MAX_LENGTH = 1000;
