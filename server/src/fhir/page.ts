/**
 * One page of a FHIR search in one prepared statement: the page's rows (keyset paging: the select
 * carries its own cursor condition and LIMIT), the whole search's total (counted exactly up to a
 * size, a longer one counted once and reused a while, as the clinic lists do in paging.ts; the
 * cursor's values are not part of the total's identity, so every page of a long search reuses the
 * first page's count), and, for patient data, the read's audit row as a data-modifying CTE of the
 * same statement (the rows are never answered without it).
 */
import { QueryTypes } from 'sequelize';
import { queryPrepared, type Db } from '@platform/db';
import { auditInsertSql, type AuditEntry } from '../audit';

const EXACT_COUNT_UP_TO = 1_000;
const LONG_COUNT_REUSE_MS = 30_000;
const longCounts = new Map<string, { total: number; at: number }>();
const countsInFlight = new Map<string, Promise<void>>();

export interface FhirPageQuery {
  /** `SELECT … ORDER BY … LIMIT :limit` (with the cursor condition; `limit` is one of the constants). */
  select: string;
  /** The search's `FROM … WHERE …` without the cursor, for its total; null: no total. */
  fromWhere: string | null;
  /** Every value of the statement. */
  replacements: Record<string, unknown>;
  /** The names among them that are the cursor's (left out of the total's identity). */
  cursorKeys: string[];
  /** The rule's enumerations, written into the statement. */
  constants: Record<string, unknown>;
  /** The read's audit row; its details get `total` and the page's ids (column `idColumn`) under `ids`. */
  audit: AuditEntry | null;
  idColumn: string;
  /**
   * Planned for its values each time instead of as a prepared statement's generic plan: for a
   * search bounded by a release time, only the value tells whether few results were released
   * since (read them by test_results_released_at_idx) or most (walk the account's samples).
   */
  adHoc?: boolean;
  /** How many of the rows are shown (the select reads one more, to know whether a next page exists): the audit lists those. */
  shownRows: number;
}

function known(key: string): number | null {
  const k = longCounts.get(key);
  return k && Date.now() - k.at < LONG_COUNT_REUSE_MS ? k.total : null;
}

export async function fhirPage<R extends object>(db: Db, q: FhirPageQuery): Promise<{ rows: R[]; total: number | undefined }> {
  const query = <T extends object>(sql: string, replacements: Record<string, unknown>, constants: Record<string, unknown>): Promise<T[]> => (q.adHoc
    ? db.sequelize.query<T>(sql, { replacements: { ...replacements, ...constants }, type: QueryTypes.SELECT })
    : queryPrepared<T>(db, sql, replacements, constants));
  if (q.fromWhere === null && !q.audit) {
    return { rows: await query<R>(q.select, q.replacements, q.constants), total: undefined };
  }
  const identity = Object.fromEntries(Object.entries(q.replacements).filter(([k]) => k !== 'limit' && !q.cursorKeys.includes(k)));
  const { limit: _limit, ...constantsOfTotal } = q.constants;
  const key = `${q.fromWhere}\u0000${JSON.stringify(identity)}\u0000${JSON.stringify(constantsOfTotal)}`;
  let total = q.fromWhere === null ? null : known(key);
  const inFlight = countsInFlight.get(key);
  if (q.fromWhere !== null && total === null && inFlight) {
    await inFlight;
    total = known(key);
  }
  const counting = q.fromWhere === null
    ? ['total AS (SELECT CAST(NULL AS int) AS n)']
    : total === null
      ? [
          `capped AS (SELECT count(*)::int AS n FROM (SELECT 1 ${q.fromWhere} LIMIT ${EXACT_COUNT_UP_TO}) c)`,
          `total AS (SELECT CASE WHEN capped.n < ${EXACT_COUNT_UP_TO} THEN capped.n ELSE (SELECT count(*)::int ${q.fromWhere}) END AS n FROM capped)`,
        ]
      : ['total AS (SELECT CAST(:page_known AS int) AS n)'];
  const audit = q.audit && auditInsertSql(q.audit,
    `jsonb_build_object('total', total.n, 'ids', COALESCE((SELECT jsonb_agg(page.${q.idColumn} ORDER BY page.page_row) FROM page WHERE page.page_row <= ${Math.max(0, Math.trunc(q.shownRows))}), '[]'::jsonb))`, 'FROM total');
  const ctes = [
    `page AS MATERIALIZED (SELECT listed.*, row_number() OVER () AS page_row FROM (${q.select}) listed)`,
    ...counting,
    ...(audit ? [`audited AS (${audit.sql})`] : []),
  ];
  const run = query<R & { page_total: number | null; page_row: number | null }>(
    `WITH ${ctes.join(',\n')}
     SELECT total.n AS page_total, page.* FROM total LEFT JOIN page ON true ORDER BY page.page_row`,
    { ...q.replacements, ...audit?.replacements, ...(total === null ? {} : { page_known: total }) },
    q.constants,
  );
  const counted = run.then((raw) => {
    const n = raw[0]?.page_total;
    if (q.fromWhere !== null && total === null && typeof n === 'number' && n >= EXACT_COUNT_UP_TO) {
      if (longCounts.size > 10_000) longCounts.clear();
      longCounts.set(key, { total: n, at: Date.now() });
    }
    return raw;
  });
  if (q.fromWhere !== null && total === null && !countsInFlight.has(key)) {
    const settled = counted.then(() => undefined, () => undefined);
    countsInFlight.set(key, settled);
    void settled.then(() => countsInFlight.delete(key));
  }
  const raw = await counted;
  const rows = raw.filter((r) => r.page_row !== null).map(({ page_total: _t, page_row: _r, ...row }) => row as unknown as R);
  return { rows, total: raw[0]?.page_total ?? undefined };
}
