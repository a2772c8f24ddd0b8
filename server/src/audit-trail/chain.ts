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
 */
import { createHash } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import type { Db } from '@platform/db';
import { AUDIT_GENESIS_HASH } from '@platform/domain';

/** The advisory lock key of the sealer (any fixed bigint: "audit" in ASCII). */
const SEAL_LOCK_KEY = 0x6175646974;
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

interface Head { chain_seq: string; hash: string }

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
      const [head] = await q<Head>('SELECT e.chain_seq::text AS chain_seq, e.hash FROM audit_events e WHERE e.chain_seq IS NOT NULL ORDER BY e.chain_seq DESC LIMIT 1');
      const rows = await q<{ id: string; content: string }>(
        `SELECT e.id::text AS id, ${AUDIT_CONTENT_SQL('e')} AS content FROM audit_events e WHERE e.chain_seq IS NULL ORDER BY e.id LIMIT :limit`,
        { limit: Math.min(SEAL_BATCH, maxRows - sealed) },
      );
      if (!rows.length) return 0;
      let prev = head?.hash ?? AUDIT_GENESIS_HASH;
      let seq = head ? Number(head.chain_seq) : 0;
      const ids: string[] = [];
      const seqs: number[] = [];
      const prevs: string[] = [];
      const hashes: string[] = [];
      for (const row of rows) {
        seq += 1;
        const hash = auditRowHash(prev, seq, row.content);
        ids.push(row.id);
        seqs.push(seq);
        prevs.push(prev);
        hashes.push(hash);
        prev = hash;
      }
      await db.sequelize.query(
        `UPDATE audit_events e SET chain_seq = v.seq, prev_hash = v.prev, hash = v.hash
           FROM (SELECT unnest(CAST(:ids AS bigint[])) AS id, unnest(CAST(:seqs AS bigint[])) AS seq,
                        unnest(CAST(:prevs AS text[])) AS prev, unnest(CAST(:hashes AS text[])) AS hash) v
          WHERE e.id = v.id AND e.chain_seq IS NULL`,
        { replacements: { ids: `{${ids.join(',')}}`, seqs: `{${seqs.join(',')}}`, prevs: `{${prevs.join(',')}}`, hashes: `{${hashes.join(',')}}` }, transaction },
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
  /** The last sealed row: the chain's head (anchor its hash elsewhere to protect the whole chain). */
  head: { id: number; chainSeq: number; hash: string } | null;
  /** The first row where the chain does not hold, and why. */
  broken: { id: number; chainSeq: number; reason: string } | null;
}

interface ChainRow { id: string; chain_seq: string; prev_hash: string; hash: string; content: string }

/** Walks the whole chain in order, recomputing every hash; stops at the first row that does not hold. */
export async function verifyAuditChain(db: Db): Promise<AuditChainCheck> {
  let prevHash = AUDIT_GENESIS_HASH;
  let prevSeq = 0;
  let checked = 0;
  let head: AuditChainCheck['head'] = null;
  for (;;) {
    const rows = await db.sequelize.query<ChainRow>(
      `SELECT e.id::text AS id, e.chain_seq::text AS chain_seq, e.prev_hash, e.hash, ${AUDIT_CONTENT_SQL('e')} AS content
         FROM audit_events e WHERE e.chain_seq > :after ORDER BY e.chain_seq LIMIT ${VERIFY_BATCH}`,
      { replacements: { after: prevSeq }, type: QueryTypes.SELECT },
    );
    for (const row of rows) {
      const id = Number(row.id);
      const seq = Number(row.chain_seq);
      const broken = (reason: string) => ({ ok: false, checked, unsealed: 0, head, broken: { id, chainSeq: seq, reason } });
      if (seq !== prevSeq + 1) {
        const missing = seq === prevSeq + 2 ? `position ${prevSeq + 1} is` : `positions ${prevSeq + 1} to ${seq - 1} are`;
        return { ...broken(`the chain's ${missing} missing before this row: a sealed row was deleted`), unsealed: await unsealedCount(db) };
      }
      if (row.prev_hash !== prevHash) {
        return { ...broken(`its prev_hash does not match the hash of the row before it in the chain (position ${prevSeq}): a row was replaced or the chain rewritten`), unsealed: await unsealedCount(db) };
      }
      if (auditRowHash(row.prev_hash, seq, row.content) !== row.hash) {
        return { ...broken('its content does not match its hash: the row was changed after it was sealed'), unsealed: await unsealedCount(db) };
      }
      checked += 1;
      prevHash = row.hash;
      prevSeq = seq;
      head = { id, chainSeq: seq, hash: row.hash };
    }
    if (rows.length < VERIFY_BATCH) break;
  }
  return { ok: true, checked, unsealed: await unsealedCount(db), head, broken: null };
}

async function unsealedCount(db: Db): Promise<number> {
  const [{ n }] = await db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events WHERE chain_seq IS NULL', { type: QueryTypes.SELECT });
  return n;
}
