/**
 * The commit of an import, in the caller's ONE transaction: every checked row becomes a new
 * In Review result version (entered by the uploader, import_job_id = this job), and every sample
 * still In Queue moves to In Testing. A 10,000-row file is written set-based, in a few statements
 * whatever its size: the rows go to PostgreSQL as one array per column (unnest), each version is
 * numbered after its test's highest, and the samples move with their status events in one
 * statement per status they leave. Each transition is still checked against the lifecycle table
 * of domain/ (checkTransition) before anything is written, and one audit event records the import.
 */
import { UnrecoverableError } from 'bullmq';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { ActorKind, checkTransition, resultScaleOf, SampleStatus, TestResultStatus, type SampleStatus as Status } from '@platform/domain';
import type { GoodRow } from './check-rows';
import { auditActor, recordAudit } from '@platform/server';

export interface CommitOutcome {
  resultsWritten: number;
  samplesMovedToTesting: number;
}

/** A sample the commit moves to In Testing, and the status it leaves (checked against the lifecycle table). */
export interface SampleMove {
  sampleId: number;
  from: Status;
}

export async function commitRows(
  db: Db,
  transaction: Transaction,
  rows: GoodRow[],
  who: { userId: number; jobRowId: number; fileId: number; kind: string },
  progress: (fraction: number) => void,
): Promise<CommitOutcome> {
  const toTesting = samplesToMoveToTesting(rows);
  await insertResultVersions(db, transaction, rows.map((r) => ({ testId: r.testId, value: r.value, scale: resultScaleOf(r.test, r.value) })), who);
  progress(0.6);
  const moved = await moveSamplesToTesting(db, transaction, toTesting, who.userId);
  await recordAudit(db, {
    ...auditActor({ userId: who.userId, kind: 'lab', accountId: null, ip: null, requestId: null }),
    action: 'lab_import.committed',
    entityKind: 'file',
    entityId: who.fileId,
    details: { jobId: who.jobRowId, kind: who.kind, results: rows.length, samplesMovedToTesting: moved },
  }, transaction);
  progress(1);
  return { resultsWritten: rows.length, samplesMovedToTesting: moved };
}

/**
 * One In Review version per row (one row per test: checkRows refuses a repeated one), numbered
 * after the test's highest version, in ONE statement: the rows arrive as one array per column.
 */
async function insertResultVersions(
  db: Db,
  transaction: Transaction,
  rows: readonly { testId: number; value: string; scale: string | null }[],
  who: { userId: number; jobRowId: number },
): Promise<void> {
  if (!rows.length) return;
  const [{ written }] = await db.sequelize.query<{ written: number }>(
    `WITH written AS (
       INSERT INTO test_results (test_id, version, value, scale, status, entered_by_user_id, import_job_id)
       SELECT r.test_id, COALESCE((SELECT max(v.version) FROM test_results v WHERE v.test_id = r.test_id), 0) + 1, r.value, r.scale, $4, $5, $6
         FROM unnest($1::bigint[], $2::text[], $3::text[]) WITH ORDINALITY AS r (test_id, value, scale, n)
        ORDER BY r.n
       RETURNING 1
     )
     SELECT count(*)::int AS written FROM written`,
    {
      bind: [rows.map((r) => r.testId), rows.map((r) => r.value), rows.map((r) => r.scale), TestResultStatus.InReview, who.userId, who.jobRowId],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  if (written !== rows.length) throw new Error(`expected to write ${rows.length} results, wrote ${written}`);
}

/**
 * The samples of the rows not yet In Testing: the lifecycle table is asked for each status they
 * leave, so a sample that may not move fails the whole commit.
 */
export function samplesToMoveToTesting(rows: readonly { sampleId: number; sampleStatus: string }[]): SampleMove[] {
  const statusOf = new Map(rows.map((r) => [r.sampleId, r.sampleStatus as Status]));
  const allowed = new Set<Status>();
  const toTesting: SampleMove[] = [];
  for (const [sampleId, from] of statusOf) {
    if (from === SampleStatus.InTesting) continue;
    if (!allowed.has(from)) {
      const check = checkTransition({ from, to: SampleStatus.InTesting, actor: ActorKind.Lab });
      if (!check.ok) throw new UnrecoverableError(check.error);
      allowed.add(from);
    }
    toTesting.push({ sampleId, from });
  }
  return toTesting;
}

/**
 * Moves the samples to In Testing and writes each one's status event (its timeline): one
 * statement per status they leave (In Queue, in practice), the samples found by primary key. A
 * sample whose status is no longer the one checked fails the commit. Answers how many moved.
 */
export async function moveSamplesToTesting(db: Db, transaction: Transaction, moves: readonly SampleMove[], userId: number): Promise<number> {
  const byFrom = new Map<Status, number[]>();
  for (const m of moves) {
    if (!byFrom.has(m.from)) byFrom.set(m.from, []);
    byFrom.get(m.from)!.push(m.sampleId);
  }
  let moved = 0;
  for (const [from, sampleIds] of byFrom) {
    const [row] = await db.sequelize.query<{ moved: number }>(
      `WITH moved AS (
         UPDATE samples SET status = $3, updated_at = now() WHERE id = ANY($1::bigint[]) AND status = $2 RETURNING id
       ), events AS (
         INSERT INTO sample_status_events (sample_id, from_status, to_status, reason, actor_user_id, actor_kind)
         SELECT id, $2, $3, NULL, $4, $5 FROM moved ORDER BY id
       )
       SELECT count(*)::int AS moved FROM moved`,
      { bind: [sampleIds, from, SampleStatus.InTesting, userId, ActorKind.Lab], type: QueryTypes.SELECT, transaction },
    );
    if (row.moved !== sampleIds.length) throw new Error(`expected to move ${sampleIds.length} samples from ${from} to In Testing, moved ${row.moved}`);
    moved += row.moved;
  }
  return moved;
}
