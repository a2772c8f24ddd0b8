/**
 * The admin's job monitor: BullMQ's own counts beside the job rows', the job rows themselves, and
 * retrying Failed ones. A retry sets the row Pending and queues another run of the SAME row
 * through the outbox (a new outbox row, idempotency key `retry:<jobId>:<n>`), with what a retry
 * means for the job's subject (a failed email is Pending again) and the audit event, in one
 * transaction.
 */
import type { Queue } from 'bullmq';
import { Op, QueryTypes, type Transaction, type WhereOptions } from 'sequelize';
import type { Db } from '@platform/db';
import {
  EmailStatus, JOB_STATUSES, JobStatus, type JobName, type JobPayloads, type JobRow, type JobsQuery, type JobsRetried, type JobSummary,
} from '@platform/domain';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflict, notFound } from '../errors';
import { requeueJobRow, type OutboxRelay } from './outbox';

type MonitorCtx = { db: Db; relay: OutboxRelay };
type JobModel = InstanceType<Db['models']['Job']>;

/** GET jobs/summary */
export async function jobSummary(ctx: { db: Db; queue: Queue }): Promise<JobSummary> {
  const [counts, byStatus] = await Promise.all([
    ctx.queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'),
    ctx.db.models.Job.count({ group: ['status'] }) as unknown as Promise<{ status: string; count: number }[]>,
  ]);
  const rows = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as JobSummary['rows'];
  for (const { status, count } of byStatus) if (status in rows) rows[status as JobStatus] = Number(count);
  return {
    queue: { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0, failed: counts.failed ?? 0, completed: counts.completed ?? 0 },
    rows,
  };
}

const jobRowOf = (j: JobModel): JobRow => ({
  id: j.id,
  name: j.name,
  status: j.status,
  progress: j.progress,
  attempts: j.attempts,
  error: j.error,
  createdAt: j.createdAt.toISOString(),
  finishedAt: j.finishedAt ? j.finishedAt.toISOString() : null,
});

/** GET jobs?status=&name=: newest first. */
export async function listJobs(db: Db, query: JobsQuery): Promise<{ rows: JobRow[]; total: number }> {
  const where: WhereOptions = {};
  if (query.status) Object.assign(where, { status: query.status });
  if (query.name) Object.assign(where, { name: query.name });
  const { rows, count } = await db.models.Job.findAndCountAll({
    where,
    attributes: ['id', 'name', 'status', 'progress', 'attempts', 'error', 'createdAt', 'finishedAt'],
    order: [['id', 'DESC']],
    limit: query.pageSize,
    offset: (query.page - 1) * query.pageSize,
  });
  return { rows: rows.map(jobRowOf), total: count };
}

/** The Failed emails among these are Pending again, their reason cleared. */
async function emailsPendingAgain(db: Db, transaction: Transaction, ids: number[]): Promise<void> {
  await db.models.Email.update({ status: EmailStatus.Pending, error: null }, { where: { id: { [Op.in]: ids }, status: EmailStatus.Failed }, transaction });
}

/**
 * What retrying a job means for its subject, beside its own row. A send-email job's email, and a
 * send-email-batch job's refused or unsent emails, are Failed once their job failed for good (the
 * worker's onFinalFailure, or the batch at the refusal): Pending again with the retry.
 */
const RETRY_EFFECTS: { [N in JobName]?: (db: Db, transaction: Transaction, payloads: JobPayloads[N][]) => Promise<void> } = {
  'send-email': (db, transaction, payloads) => emailsPendingAgain(db, transaction, payloads.map((p) => p.emailId)),
  'send-email-batch': (db, transaction, payloads) => emailsPendingAgain(db, transaction, payloads.flatMap((p) => p.emailIds)),
};

async function applyRetryEffects(db: Db, transaction: Transaction, jobs: JobModel[]): Promise<void> {
  const byName = new Map<string, object[]>();
  for (const j of jobs) byName.set(j.name, [...(byName.get(j.name) ?? []), j.payload]);
  for (const [name, payloads] of byName) {
    const effect = RETRY_EFFECTS[name as JobName] as ((d: Db, t: Transaction, p: object[]) => Promise<void>) | undefined;
    await effect?.(db, transaction, payloads);
  }
}

/** How many retries of each job were queued before (their outbox keys are retry:<jobId>:<n>). */
async function earlierRetries(db: Db, transaction: Transaction, jobIds: number[]): Promise<Map<number, number>> {
  const rows = await db.sequelize.query<{ jobId: number; count: number }>(
    `SELECT split_part(idempotency_key, ':', 2)::bigint AS "jobId", count(*) AS count
     FROM outbox
     WHERE idempotency_key LIKE 'retry:%' AND split_part(idempotency_key, ':', 2)::bigint = ANY(ARRAY[:jobIds]::bigint[])
     GROUP BY 1`,
    { replacements: { jobIds }, type: QueryTypes.SELECT, transaction },
  );
  return new Map(rows.map((r) => [r.jobId, r.count]));
}

/** Sets locked Failed rows Pending and queues a run of each; answers the outbox keys. */
async function retryRows(ctx: MonitorCtx, transaction: Transaction, jobs: JobModel[]): Promise<string[]> {
  if (!jobs.length) return [];
  const ids = jobs.map((j) => j.id);
  await ctx.db.models.Job.update(
    { status: JobStatus.Pending, progress: 0, error: null, finishedAt: null, attempts: 0 },
    { where: { id: { [Op.in]: ids } }, transaction },
  );
  const before = await earlierRetries(ctx.db, transaction, ids);
  const keys: string[] = [];
  for (const job of jobs) {
    const key = `retry:${job.id}:${(before.get(job.id) ?? 0) + 1}`;
    await requeueJobRow(ctx, transaction, job, key);
    keys.push(key);
  }
  await applyRetryEffects(ctx.db, transaction, jobs);
  return keys;
}

/** POST jobs/{id}/retry: a Failed job only (one that is Pending or Completed has nothing to retry). */
export async function retryJob(ctx: MonitorCtx, caller: Caller, jobId: number): Promise<JobsRetried> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const job = await ctx.db.models.Job.findByPk(jobId, { transaction, lock: transaction.LOCK.UPDATE });
    if (!job) throw notFound('Job not found');
    if (job.status !== JobStatus.Failed) throw conflict(`Only a failed job can be retried: job ${job.id} is ${job.status}`);
    const before = { status: job.status, attempts: job.attempts };
    const [idempotencyKey] = await retryRows(ctx, transaction, [job]);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'job.retried', entityKind: 'job', entityId: job.id,
      details: { name: job.name, before, after: { status: JobStatus.Pending }, idempotencyKey },
    }, transaction);
    return { retried: 1 };
  });
}

/** POST jobs/retry-failed: every Failed job, in one transaction and one audit event. */
export async function retryFailedJobs(ctx: MonitorCtx, caller: Caller): Promise<JobsRetried> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const jobs = await ctx.db.models.Job.findAll({
      where: { status: JobStatus.Failed },
      order: [['id', 'ASC']],
      transaction,
      lock: transaction.LOCK.UPDATE,
    });
    await retryRows(ctx, transaction, jobs);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'jobs.retried_failed', entityKind: 'job', entityId: null,
      details: {
        retried: jobs.length,
        jobs: jobs.map((j) => ({ id: j.id, name: j.name })),
        before: { status: JobStatus.Failed },
        after: { status: JobStatus.Pending },
      },
    }, transaction);
    return { retried: jobs.length };
  });
}
