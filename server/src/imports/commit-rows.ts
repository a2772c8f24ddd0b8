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
import { resultScaleOf, TestResultStatus } from '@platform/domain';
import type { GoodRow } from './check-rows';
import { auditActor, recordAudit } from '../audit';
import { moveSamplesToTesting, samplesToMoveToTesting } from '../samples/move-samples';

export interface CommitOutcome {
  resultsWritten: number;
  /** Samples whose testing started (a stored one's status before storage included). */
  samplesMovedToTesting: number;
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
