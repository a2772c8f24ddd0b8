/**
 * Many samples to In Testing at once (an import's commit, a DNA extraction run): each move planned
 * by the lifecycle of domain/ (planStatusChange, as moveSample does) before anything is written,
 * then one statement per status they leave writes the samples and their status events. With
 * moveSample, the only writer of a sample's status and its timeline.
 */
import { UnrecoverableError } from 'bullmq';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { ActorKind, planStatusChange, SampleStatus, workStatusOf, type SampleStatus as Status, type StatusChangePlan } from '@platform/domain';

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
