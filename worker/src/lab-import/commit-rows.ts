/**
 * The commit of an import, in the caller's ONE transaction: every checked row becomes a new
 * In Review result version (entered by the uploader, import_job_id = this job), and every sample
 * still In Queue moves to In Testing. A 10,000-row file is written set-based, in a few statements
 * whatever its size: the rows go to PostgreSQL as one array per column (unnest), each version is
 * numbered after its test's highest, and the samples move with their status events in one
 * statement per status they leave. Each move is still planned by the lifecycle of domain/
 * (planStatusChange, as moveSample does) before anything is written, and one audit event records
 * the import. A sample In Storage stays there: the status it goes back to becomes In Testing.
 */
import { UnrecoverableError } from 'bullmq';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import {
  ActorKind, planStatusChange, resultScaleOf, SampleStatus, TestResultStatus, workStatusOf, type SampleStatus as Status, type StatusChangePlan,
} from '@platform/domain';
import type { GoodRow } from './check-rows';
import { auditActor, recordAudit } from '@platform/server';

export interface CommitOutcome {
  resultsWritten: number;
  /** Samples whose testing started (a stored one's status before storage included). */
  samplesMovedToTesting: number;
}

/** A sample the commit moves to In Testing: the state it is in, and what the lifecycle plans for it. */
export interface SampleMove {
  sampleId: number;
  status: Status;
  statusBeforeStorage: Status | null;
  plan: StatusChangePlan;
}

/** What the rows know of their sample: its status and, while stored, the status it goes back to. */
export interface RowSample {
  sampleId: number;
  sampleStatus: string;
  statusBeforeStorage?: string | null;
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
    details: {
      jobId: who.jobRowId, kind: who.kind, results: rows.length, samplesMovedToTesting: moved,
      // Of those, the samples In Storage (they stay there, In Testing when taken out).
      samplesStayingInStorage: toTesting.filter((m) => m.plan.inStorage).length,
    },
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
 * The samples of the rows whose testing has not started (a stored sample by the status it goes
 * back to): the lifecycle plans the move of each state they are in, so a sample that may not
 * move fails the whole commit.
 */
export function samplesToMoveToTesting(rows: readonly RowSample[]): SampleMove[] {
  const stateOf = new Map(rows.map((r) => [r.sampleId, { status: r.sampleStatus as Status, statusBeforeStorage: (r.statusBeforeStorage ?? null) as Status | null }]));
  const plans = new Map<string, StatusChangePlan>();
  const toTesting: SampleMove[] = [];
  for (const [sampleId, state] of stateOf) {
    if (workStatusOf(state) === SampleStatus.InTesting) continue;
    const key = stateKey(state);
    let plan = plans.get(key);
    if (!plan) {
      const check = planStatusChange(state, { to: SampleStatus.InTesting, actor: ActorKind.Lab });
      if (!check.ok) throw new UnrecoverableError(check.error);
      plans.set(key, (plan = check));
    }
    toTesting.push({ sampleId, ...state, plan });
  }
  return toTesting;
}

const stateKey = (s: { status: Status; statusBeforeStorage: Status | null }) => `${s.status}|${s.statusBeforeStorage ?? ''}`;

/**
 * Moves the samples to In Testing and writes each one's status event (its timeline): one
 * statement per state they leave (In Queue, in practice; a stored sample's In Queue apart), the
 * samples found by primary key (the ids joined to the table: as `id = ANY($1)` PostgreSQL read
 * every sample In Queue of the database to find them), the row and the event written as the
 * lifecycle planned them. A sample no longer in the state checked fails the commit. Answers how many moved.
 */
export async function moveSamplesToTesting(db: Db, transaction: Transaction, moves: readonly SampleMove[], userId: number): Promise<number> {
  const byState = new Map<string, { move: SampleMove; sampleIds: number[] }>();
  for (const m of moves) {
    const key = stateKey(m);
    if (!byState.has(key)) byState.set(key, { move: m, sampleIds: [] });
    byState.get(key)!.sampleIds.push(m.sampleId);
  }
  let moved = 0;
  for (const { move, sampleIds } of byState.values()) {
    const { plan } = move;
    const [row] = await db.sequelize.query<{ moved: number }>(
      `WITH moved AS (
         UPDATE samples s SET status = $4, status_before_storage = $5, updated_at = now()
           FROM unnest($1::bigint[]) AS moving (id)
          WHERE s.id = moving.id AND s.status = $2 AND s.status_before_storage IS NOT DISTINCT FROM $3
         RETURNING s.id
       ), events AS (
         INSERT INTO sample_status_events (sample_id, from_status, to_status, reason, actor_user_id, actor_kind)
         SELECT id, $6, $7, $8, $9, $10 FROM moved ORDER BY id
       )
       SELECT count(*)::int AS moved FROM moved`,
      {
        bind: [sampleIds, move.status, move.statusBeforeStorage, plan.status, plan.statusBeforeStorage, plan.event.from, plan.event.to, plan.event.reason, userId, ActorKind.Lab],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    if (row.moved !== sampleIds.length) {
      throw new Error(`expected to move ${sampleIds.length} samples from ${move.status} to In Testing, moved ${row.moved}`);
    }
    moved += row.moved;
  }
  return moved;
}
