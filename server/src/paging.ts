/**
 * One page of a list from SQL: its rows and the whole list's total (counted exactly up to a size,
 * then reused a while), and the read's audit row in the same statement where the list is audited.
 */
import { queryPrepared, type Db } from '@platform/db';
import { auditInsertSql, type AuditEntry } from './audit';

/** Offset of a page (pages count from 1). */
export const offsetOf = (page: number, pageSize: number) => (page - 1) * pageSize;

/** Up to this many rows a list's total is counted exactly on every request. */
export const EXACT_COUNT_UP_TO = 1_000;
/** How long the exact total of a longer list is reused (it is counted again after that). */
export const LONG_COUNT_REUSE_MS = 30_000;
const longCounts = new Map<string, { total: number; at: number }>();
/**
 * The counting statements running now, by list: the first requests of a burst on a long list whose
 * total is not known wait for one count instead of each counting 200,000 rows at once.
 */
const countsInFlight = new Map<string, Promise<void>>();

/** A list's identity for its cached total: its FROM … WHERE … and values, whatever page is read. */
function countKey(fromWhere: string, replacements: Record<string, unknown>): string {
  const { limit: _limit, offset: _offset, ...values } = replacements;
  return `${fromWhere}\u0000${JSON.stringify(values)}`;
}

function knownLongCount(key: string): number | null {
  const known = longCounts.get(key);
  return known && Date.now() - known.at < LONG_COUNT_REUSE_MS ? known.total : null;
}

function rememberLongCount(key: string, total: number): void {
  if (longCounts.size > 10_000) longCounts.clear();
  longCounts.set(key, { total, at: Date.now() });
}

/** Pages up to this offset have their LIMIT and OFFSET written into the statement (see pageBounds). */
const LITERAL_OFFSET_UP_TO = 100;
const LITERAL_LIMIT_UP_TO = 100;

/**
 * The first pages' LIMIT and OFFSET as literals, for a list whose generic plan PostgreSQL rejects:
 * with them as parameters it assumes a tenth of the list is read, and where that tenth is large
 * (the review list: a tenth of every result in review, sorted) it finds the generic plan dearer
 * than a plan for 10 rows and plans every call afresh (planning those joins costs more than running
 * them). Deeper pages keep them as parameters, so a connection keeps a bounded number of
 * statements. Not the default: measured on the clinic lists, whose generic plan PostgreSQL keeps
 * anyway, five statements per list (one per page) cost more than they save.
 */
function pageBounds(replacements: Record<string, unknown>, literal: boolean): { values: Record<string, unknown>; bounds: Record<string, unknown> } {
  const { limit, offset, ...values } = replacements;
  if (literal && typeof limit === 'number' && typeof offset === 'number' && limit <= LITERAL_LIMIT_UP_TO && offset <= LITERAL_OFFSET_UP_TO) {
    return { values, bounds: { limit, offset } };
  }
  return { values: replacements, bounds: {} };
}

export interface PageQuery {
  /** The page: `SELECT … ORDER BY … LIMIT … OFFSET …` over the list. */
  select: string;
  /** The list's `FROM … WHERE …`, for its total (capped, or a long list's counted once and reused). */
  fromWhere: string;
  /** The caller's values (the account, the page): parameters of the prepared statement. */
  replacements: Record<string, unknown>;
  /** The rule's enumerations (statuses, types): written into the statement, so its one plan knows them. */
  constants?: Record<string, unknown>;
  /** The first pages' LIMIT and OFFSET written into the statement (see pageBounds). */
  literalFirstPages?: boolean;
}

export interface AuditedPageQuery extends PageQuery {
  /** The read's audit row; its details also get `total` and, under `idsKey`, the ids (column `idColumn`) of the rows shown. */
  audit: AuditEntry;
  idsKey: string;
  idColumn?: string;
}

/**
 * One page of a list of patient data, its total and its audit row in a single statement (one round
 * trip instead of three), run as a prepared statement (planned once per connection): the page; the
 * total (a long list's, counted in the last LONG_COUNT_REUSE_MS by this process, is reused without
 * counting, so it may lag by that half minute even if the list has since become short; otherwise
 * the capped count, and the exact count when the capped one reaches EXACT_COUNT_UP_TO); and the
 * audit INSERT as a data-modifying CTE: the rows are never answered without their audit row.
 */
export function auditedPage<R extends object>(db: Db, q: AuditedPageQuery): Promise<{ rows: R[]; total: number }> {
  return readPage<R>(db, q, q);
}

/**
 * One page of a list that shows no patient data (the clinic's shipments: barcodes and statuses),
 * and its total, in one prepared statement as auditedPage reads them, without an audit row.
 */
export function plainPage<R extends object>(db: Db, q: PageQuery): Promise<{ rows: R[]; total: number }> {
  return readPage<R>(db, q, null);
}

async function readPage<R extends object>(db: Db, q: PageQuery, audited: Pick<AuditedPageQuery, 'audit' | 'idsKey' | 'idColumn'> | null): Promise<{ rows: R[]; total: number }> {
  const key = countKey(q.fromWhere, { ...q.replacements, ...q.constants });
  let known = knownLongCount(key);
  const inFlight = countsInFlight.get(key);
  if (known === null && inFlight) {
    // Another request of this process is counting this list: wait for its total rather than count it again.
    await inFlight;
    known = knownLongCount(key);
  }
  const { values, bounds } = pageBounds(q.replacements, q.literalFirstPages ?? false);
  // Two statements, each with a plan of its own: a known total is not counted at all (a COALESCE
  // over a parameter would leave the counts in the generic plan, and PostgreSQL would then plan
  // every call afresh).
  const counting = [
    `capped AS (SELECT count(*)::int AS n FROM (SELECT 1 ${q.fromWhere} LIMIT ${EXACT_COUNT_UP_TO}) c)`,
    `total AS (SELECT CASE WHEN capped.n < ${EXACT_COUNT_UP_TO} THEN capped.n ELSE (SELECT count(*)::int ${q.fromWhere}) END AS n FROM capped)`,
  ];
  const audit = audited && auditInsertSql(audited.audit,
    `jsonb_build_object('total', total.n, CAST(:page_idsKey AS text), COALESCE((SELECT jsonb_agg(page.${audited.idColumn ?? 'id'} ORDER BY page.page_row) FROM page), '[]'::jsonb))`, 'FROM total');
  const ctes = [
    `page AS MATERIALIZED (SELECT listed.*, row_number() OVER () AS page_row FROM (${q.select}) listed)`,
    ...(known === null ? counting : ['total AS (SELECT CAST(:page_known AS int) AS n)']),
    ...(audit ? [`audited AS (${audit.sql})`] : []),
  ];
  const read = queryPrepared<R & { page_total: number; page_row: number | null }>(db,
    `WITH ${ctes.join(',\n          ')}
     SELECT total.n AS page_total, page.* FROM total LEFT JOIN page ON true ORDER BY page.page_row`,
    { ...values, ...audit?.replacements, ...(known === null ? {} : { page_known: known }) },
    { ...q.constants, ...bounds, ...(audited ? { page_idsKey: audited.idsKey } : {}) },
  );
  const counted = read.then((raw) => {
    if (known === null && raw[0].page_total >= EXACT_COUNT_UP_TO) rememberLongCount(key, raw[0].page_total);
    return raw;
  });
  if (known === null && !countsInFlight.has(key)) {
    const settled = counted.then(() => undefined, () => undefined);
    countsInFlight.set(key, settled);
    void settled.then(() => countsInFlight.delete(key));
  }
  const raw = await counted;
  const total = raw[0].page_total;
  const rows = raw.filter((r) => r.page_row !== null).map(({ page_total: _t, page_row: _r, ...row }) => row as unknown as R);
  return { rows, total };
}
