/**
 * The commit of an import, in the caller's ONE transaction: every checked row becomes a new
 * In Review result version (entered by the uploader, import_job_id = this job), and every sample
 * still In Queue moves to In Testing. A 10,000-row file is written with batched statements, not
 * row by row: each transition is still checked against the lifecycle table (checkTransition), a
 * status event is written per sample (the timeline), and one audit event records the import.
 */
import { UnrecoverableError } from 'bullmq';
import { fn, col, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { checkTransition, resultScaleOf, SampleStatus, TestResultStatus, type SampleStatus as Status } from '@platform/domain';
import type { GoodRow } from './check-rows';
import { auditActor, recordAudit } from '@platform/server';

const BATCH = 2_000;

export interface CommitOutcome {
  resultsWritten: number;
  samplesMovedToTesting: number;
}

export async function commitRows(
  db: Db,
  transaction: Transaction,
  rows: GoodRow[],
  who: { userId: number; jobRowId: number; fileId: number; kind: string },
  progress: (fraction: number) => Promise<void>,
): Promise<CommitOutcome> {
  const m = db.models;
  const testIds = [...new Set(rows.map((r) => r.testId))];
  const maxVersions = (await m.TestResult.findAll({
    where: { testId: testIds },
    attributes: ['testId', [fn('max', col('version')), 'maxVersion']],
    group: ['testId'],
    raw: true,
    transaction,
  })) as unknown as { testId: number; maxVersion: number }[];
  const nextVersion = new Map(maxVersions.map((v) => [Number(v.testId), Number(v.maxVersion) + 1]));

  const toTesting = samplesToMoveToTesting(rows);

  const steps = Math.ceil(rows.length / BATCH) + 2;
  let step = 0;
  for (let i = 0; i < rows.length; i += BATCH) {
    await m.TestResult.bulkCreate(
      rows.slice(i, i + BATCH).map((r) => ({
        testId: r.testId,
        version: nextVersion.get(r.testId) ?? 1,
        value: r.value,
        scale: resultScaleOf(r.test, r.value),
        status: TestResultStatus.InReview,
        enteredByUserId: who.userId,
        importJobId: who.jobRowId,
      })),
      { transaction, returning: false },
    );
    await progress(++step / steps);
  }

  const moved = await moveSamplesToTesting(db, transaction, toTesting, who.userId);
  await progress(++step / steps);
  await recordAudit(db, {
    ...auditActor({ userId: who.userId, kind: 'lab', accountId: null, ip: null, requestId: null }),
    action: 'lab_import.committed',
    entityKind: 'file',
    entityId: who.fileId,
    details: { jobId: who.jobRowId, kind: who.kind, results: rows.length, samplesMovedToTesting: moved },
  }, transaction);
  await progress(++step / steps);
  return { resultsWritten: rows.length, samplesMovedToTesting: moved };
}

/**
 * The samples of the rows not yet In Testing (each In Queue): the lifecycle table is asked for
 * every one of them, so a sample that may not move fails the whole commit.
 */
export function samplesToMoveToTesting(rows: readonly { sampleId: number; sampleStatus: string }[]): number[] {
  const statusOf = new Map(rows.map((r) => [r.sampleId, r.sampleStatus as Status]));
  const toTesting: number[] = [];
  for (const [sampleId, from] of statusOf) {
    if (from === SampleStatus.InTesting) continue;
    const check = checkTransition({ from, to: SampleStatus.InTesting, actor: 'lab' });
    if (!check.ok) throw new UnrecoverableError(check.error);
    toTesting.push(sampleId);
  }
  return toTesting;
}

/** Moves In Queue samples to In Testing in batches, with a status event each (their timeline); answers how many moved. */
export async function moveSamplesToTesting(db: Db, transaction: Transaction, sampleIds: number[], userId: number): Promise<number> {
  const m = db.models;
  let moved = 0;
  for (let i = 0; i < sampleIds.length; i += BATCH) {
    const ids = sampleIds.slice(i, i + BATCH);
    const [count] = await m.Sample.update({ status: SampleStatus.InTesting }, { where: { id: ids, status: SampleStatus.InQueue }, transaction });
    if (count !== ids.length) throw new Error(`expected to move ${ids.length} samples to In Testing, moved ${count}`);
    moved += count;
  }
  const at = new Date();
  for (let i = 0; i < sampleIds.length; i += BATCH) {
    await m.SampleStatusEvent.bulkCreate(
      sampleIds.slice(i, i + BATCH).map((sampleId) => ({
        sampleId, fromStatus: SampleStatus.InQueue, toStatus: SampleStatus.InTesting, reason: null, actorUserId: userId, actorKind: 'lab' as const, createdAt: at,
      })),
      { transaction, returning: false },
    );
  }
  return moved;
}
