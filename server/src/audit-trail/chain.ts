/**
 * The audit table's hash chain (issue 29, part 3). Rows are inserted unsealed (no lock, no wait:
 * every read of patient data writes one); the sealer then gives each, in id order, its place in
 * the chain (chain_seq), the hash of the row before it (prev_hash) and its own hash:
 *
 *   hash = sha256_hex(prev_hash + "\n" + chain_seq + "\n" + content)
 *
 * where content is the row's columns as one JSON array written by PostgreSQL (AUDIT_CONTENT_SQL).
 * One sealer at a time (a transaction-scoped advisory lock); a row whose transaction commits after
 * a later id was sealed is simply sealed in the next round, further along the chain. The
 * append-only trigger allows exactly this one update (migrations/20261129120000-audit-chain.ts).
 *
 * The verifier walks the chain in order and recomputes every hash: a row changed behind the
 * product's back no longer matches its hash; a row deleted leaves a gap the next row names.
 *
 * The table is partitioned by month and old months are archived to files (archive.ts): the chain
 * runs through every partition in one order (chain_seq), and a month archived leaves gaps that its
 * record in audit_archives fills: each stretch of positions it held, the prev_hash its first row
 * followed and the hash of its last. The verifier steps over a gap only when archived stretches
 * cover it exactly and link hash to hash; any other gap is a deleted row.
 */
import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Db } from '@platform/db';
import { AUDIT_GENESIS_HASH } from '@platform/domain';

/** The advisory lock key of the sealer (any fixed bigint: "audit" in ASCII). */
const SEAL_LOCK_KEY = 0x6175646974;
/** Rows one sealing transaction takes (a round under load is several such transactions, one after another). */
const SEAL_BATCH = 2_000;
const VERIFY_BATCH = 5_000;

/**
 * A row's canonical content: its columns (but the chain's own) as a JSON array, the time in UTC to
 * the microsecond whatever the session's time zone, details as PostgreSQL's jsonb text (keys in
 * one order). `e` is the audit_events alias.
 */
export const AUDIT_CONTENT_SQL = (e: string) => `jsonb_build_array(${e}.id, to_char(${e}.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
  ${e}.actor_user_id, ${e}.actor_kind, ${e}.action, ${e}.entity_kind, ${e}.entity_id, ${e}.ip, ${e}.request_id, ${e}.details)::text`;

/** The hash of a row from the hash before it, its place and its content. */
export function auditRowHash(prevHash: string, chainSeq: number, content: string): string {
  return createHash('sha256').update(`${prevHash}\n${chainSeq}\n${content}`, 'utf8').digest('hex');
}

/**
 * The next rows to seal (:limit of them, in id order) with their content. The batch is chosen first
 * and its content written after: with the content in the same SELECT as ORDER BY … LIMIT, PostgreSQL
 * wrote it for every unsealed row of every month before keeping the first :limit, so each batch of a
 * round wrote the whole backlog's (12,558 rows behind: 108 ms a batch of 2,000, 36 ms now).
 */
export const UNSEALED_BATCH_SQL = `SELECT e.id::text AS id, e.at::text AS at, ${AUDIT_CONTENT_SQL('e')} AS content
  FROM (SELECT * FROM audit_events WHERE chain_seq IS NULL ORDER BY id LIMIT :limit) e ORDER BY e.id`;

interface Head { chain_seq: string; hash: string }

/** The chain's head: its last sealed row, or the last row of an archived month when that is later (nothing sealed since). */
const HEAD_SQL = `SELECT h.chain_seq::text AS chain_seq, h.hash FROM (
    (SELECT e.chain_seq, e.hash FROM audit_events e WHERE e.chain_seq IS NOT NULL ORDER BY e.chain_seq DESC LIMIT 1)
    UNION ALL (SELECT a.last_chain_seq, a.last_hash FROM audit_archives a WHERE a.last_chain_seq IS NOT NULL ORDER BY a.last_chain_seq DESC LIMIT 1)
  ) h ORDER BY h.chain_seq DESC LIMIT 1`;

/**
 * Seals the rows written since the last round, in id order, a batch per transaction, until none is
 * left (or `maxRows` were sealed). `wait`: wait for a sealer already at work (before a
 * verification) rather than leave the round to it (the scanner's ticks).
 */
export async function sealAuditEvents(db: Db, options: { wait?: boolean; maxRows?: number } = {}): Promise<{ sealed: number }> {
  let sealed = 0;
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  for (;;) {
    const batch = await db.sequelize.transaction(async (transaction) => {
      const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
        db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction });
      if (options.wait) {
        await q(`SELECT pg_advisory_xact_lock(${SEAL_LOCK_KEY})`);
      } else {
        const [{ locked }] = await q<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${SEAL_LOCK_KEY}) AS locked`);
        if (!locked) return null;
      }
      const [head] = await q<Head>(HEAD_SQL);
      const rows = await q<{ id: string; at: string; content: string }>(UNSEALED_BATCH_SQL, { limit: Math.min(SEAL_BATCH, maxRows - sealed) });
      if (!rows.length) return 0;
      let prev = head?.hash ?? AUDIT_GENESIS_HASH;
      let seq = head ? Number(head.chain_seq) : 0;
      const ids: string[] = [];
      const ats: string[] = [];
      const seqs: number[] = [];
      const prevs: string[] = [];
      const hashes: string[] = [];
      for (const row of rows) {
        seq += 1;
        const hash = auditRowHash(prev, seq, row.content);
        ids.push(row.id);
        ats.push(`"${row.at}"`);
        seqs.push(seq);
        prevs.push(prev);
        hashes.push(hash);
        prev = hash;
      }
      await db.sequelize.query(
        // By the primary key (id, at): each row's month partition is found from its time.
        `UPDATE audit_events e SET chain_seq = v.seq, prev_hash = v.prev, hash = v.hash
           FROM (SELECT unnest(CAST(:ids AS bigint[])) AS id, unnest(CAST(:ats AS timestamptz[])) AS at, unnest(CAST(:seqs AS bigint[])) AS seq,
                        unnest(CAST(:prevs AS text[])) AS prev, unnest(CAST(:hashes AS text[])) AS hash) v
          WHERE e.id = v.id AND e.at = v.at AND e.chain_seq IS NULL`,
        { replacements: { ids: `{${ids.join(',')}}`, ats: `{${ats.join(',')}}`, seqs: `{${seqs.join(',')}}`, prevs: `{${prevs.join(',')}}`, hashes: `{${hashes.join(',')}}` }, transaction },
      );
      return rows.length;
    });
    if (batch === null) return { sealed };
    sealed += batch;
    if (batch < SEAL_BATCH || sealed >= maxRows) return { sealed };
  }
}

export interface AuditChainCheck {
  ok: boolean;
  /** Sealed rows checked. */
  checked: number;
  /** Rows not sealed yet. */
  unsealed: number;
  /** Rows of archived months stepped over by their recorded first and last hashes, and those months (YYYY-MM). */
  archived: { rows: number; months: string[] };
  /** The last sealed row: the chain's head (anchor its hash elsewhere to protect the whole chain). */
  head: { id: number; chainSeq: number; hash: string } | null;
  /** The first row where the chain does not hold, and why. */
  broken: { id: number; chainSeq: number; reason: string } | null;
}

interface ChainRow { id: string; chain_seq: string; prev_hash: string; hash: string; content: string }

/** A stretch of consecutive chain positions an archived month held (audit_archives.chain_runs). */
export interface ArchivedChainRun { first: number; last: number; prevHash: string; lastHash: string }

/** Every archived stretch, by its first position, with its month. */
async function archivedRuns(db: Db): Promise<Map<number, ArchivedChainRun & { month: string }>> {
  const rows = await db.sequelize.query<{ month: string; chain_runs: ArchivedChainRun[] }>(
    `SELECT to_char(month, 'YYYY-MM') AS month, chain_runs FROM audit_archives ORDER BY month`, { type: QueryTypes.SELECT },
  );
  return new Map(rows.flatMap((r) => r.chain_runs.map((run) => [Number(run.first), { ...run, first: Number(run.first), last: Number(run.last), month: r.month }] as const)));
}

/**
 * Steps from the position after `seq` (whose hash is `hash`) over archived stretches that follow
 * one another, each starting where the last ended and following its hash, as far as `until`.
 * Answers where it stopped, the hash there and the rows stepped over.
 */
function stepOverArchives(runs: Awaited<ReturnType<typeof archivedRuns>>, seq: number, hash: string, until: number, months: Set<string>) {
  let at = seq;
  let rows = 0;
  for (;;) {
    const run = runs.get(at + 1);
    if (!run || run.last >= until || run.prevHash !== hash) return { seq: at, hash, rows };
    rows += run.last - run.first + 1;
    months.add(run.month);
    at = run.last;
    hash = run.lastHash;
  }
}

/**
 * Walks the whole chain in order, recomputing every hash; steps over archived months by their
 * records; stops at the first row that does not hold.
 */
export async function verifyAuditChain(db: Db): Promise<AuditChainCheck> {
  const runs = await archivedRuns(db);
  const months = new Set<string>();
  let prevHash = AUDIT_GENESIS_HASH;
  let prevSeq = 0;
  let prevId = 0;
  let checked = 0;
  let archivedRows = 0;
  let head: AuditChainCheck['head'] = null;
  const archived = () => ({ rows: archivedRows, months: [...months].sort() });
  for (;;) {
    // From the last row checked on, in (position, id) order: a position written twice shows as a repeat.
    const batch = await db.sequelize.query<ChainRow>(
      `SELECT e.id::text AS id, e.chain_seq::text AS chain_seq, e.prev_hash, e.hash, ${AUDIT_CONTENT_SQL('e')} AS content
         FROM audit_events e WHERE e.chain_seq >= :after ORDER BY e.chain_seq, e.id LIMIT ${VERIFY_BATCH}`,
      { replacements: { after: prevSeq }, type: QueryTypes.SELECT },
    );
    const rows = batch.filter((row) => !(Number(row.chain_seq) === prevSeq && Number(row.id) <= prevId));
    for (const row of rows) {
      const id = Number(row.id);
      const seq = Number(row.chain_seq);
      const broken = async (reason: string) => ({ ok: false, checked, unsealed: await unsealedCount(db), archived: archived(), head, broken: { id, chainSeq: seq, reason } });
      if (seq === prevSeq) {
        return broken(`its chain position ${seq} repeats the row before it: a row was written with a position the sealer did not give it`);
      }
      if (seq > prevSeq + 1) {
        const stepped = stepOverArchives(runs, prevSeq, prevHash, seq, months);
        archivedRows += stepped.rows;
        prevSeq = stepped.seq;
        prevHash = stepped.hash;
      }
      if (seq !== prevSeq + 1) {
        const missing = seq === prevSeq + 2 ? `position ${prevSeq + 1} is` : `positions ${prevSeq + 1} to ${seq - 1} are`;
        return broken(`the chain's ${missing} missing before this row (and not in an archived month): a sealed row was deleted`);
      }
      if (row.prev_hash !== prevHash) {
        return broken(`its prev_hash does not match the hash of the row before it in the chain (position ${prevSeq}): a row was replaced or the chain rewritten`);
      }
      if (auditRowHash(row.prev_hash, seq, row.content) !== row.hash) {
        return broken('its content does not match its hash: the row was changed after it was sealed');
      }
      checked += 1;
      prevHash = row.hash;
      prevSeq = seq;
      prevId = id;
      head = { id, chainSeq: seq, hash: row.hash };
    }
    if (batch.length < VERIFY_BATCH) break;
  }
  return { ok: true, checked, unsealed: await unsealedCount(db), archived: archived(), head, broken: null };
}

async function unsealedCount(db: Db): Promise<number> {
  const [{ n }] = await db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events WHERE chain_seq IS NULL', { type: QueryTypes.SELECT });
  return n;
}
