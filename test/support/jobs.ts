/**
 * Waiting for the product's background work to be over, so a test can then assert that something
 * did NOT happen. A job is over when its `jobs` status row is Completed or Failed (written by
 * worker/src/run-job.ts once no attempt is left) and BullMQ holds no run of it that has yet to
 * start or end; an email is over when its send-email job is. After that nothing more can come of
 * it: no fixed sleep needed, and an extra email or status change that a bug causes is seen.
 */
import type { Queue } from 'bullmq';
import { Op, QueryTypes } from 'sequelize';
import type { Db } from '@platform/db';
import { JobStatus } from '@platform/domain';
import { until } from './wait';

/** What these helpers read: the database and the job queue (an AppContext or a TestApp's ctx). */
export interface JobsCtx {
  db: Db;
  queue: Queue;
}

type JobRow = InstanceType<Db['models']['Job']>;

const FINAL: readonly string[] = [JobStatus.Completed, JobStatus.Failed];
const UNFINISHED_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'] as const;

/** The job-row ids of the BullMQ jobs still to start or to end. */
async function unfinishedJobRowIds(queue: Queue): Promise<Set<number>> {
  const jobs = await queue.getJobs([...UNFINISHED_STATES], 0, -1);
  return new Set(jobs.filter(Boolean).map((j) => Number((j.data as { jobRowId?: unknown } | undefined)?.jobRowId)));
}

/**
 * Waits until each job row is Completed or Failed and no run of it waits, runs or waits for a
 * retry in BullMQ; answers the rows (in the order of the ids).
 */
export async function jobsSettled(ctx: JobsCtx, jobRowIds: number[], options: { what?: string; timeoutMs?: number } = {}): Promise<JobRow[]> {
  if (!jobRowIds.length) return [];
  const what = options.what ?? `job(s) #${jobRowIds.join(', #')} to finish`;
  return until(
    async () => {
      const rows = await ctx.db.models.Job.findAll({ where: { id: { [Op.in]: jobRowIds } } });
      if (rows.length !== new Set(jobRowIds).size || rows.some((r) => !FINAL.includes(r.status))) return null;
      const unfinished = await unfinishedJobRowIds(ctx.queue);
      if (jobRowIds.some((id) => unfinished.has(id))) return null;
      return jobRowIds.map((id) => rows.find((r) => r.id === id)!);
    },
    { what, timeoutMs: options.timeoutMs ?? 30_000 },
  );
}

export async function jobSettled(ctx: JobsCtx, jobRowId: number, options: { what?: string; timeoutMs?: number } = {}): Promise<JobRow> {
  const [row] = await jobsSettled(ctx, [jobRowId], options);
  return row;
}

/** The job row a command queued through the outbox under this idempotency key (e.g. `notify-result:<resultId>`), once settled. */
export async function outboxJobSettled(ctx: JobsCtx, idempotencyKey: string, options: { timeoutMs?: number } = {}): Promise<JobRow> {
  const outbox = await until(() => ctx.db.models.Outbox.findOne({ where: { idempotencyKey } }), { what: `the outbox row ${idempotencyKey}` });
  const jobRowId = Number((outbox.payload as { jobRowId?: unknown }).jobRowId);
  return jobSettled(ctx, jobRowId, { what: `the ${outbox.jobName} job of ${idempotencyKey} to finish`, ...options });
}

/**
 * The job rows that send these emails: an email's own send-email job, or the send-email-batch job
 * of the campaign batch it was written in (an email's job commits with it: both or neither are seen).
 */
export async function emailJobRowIds(ctx: JobsCtx, emailIds: number[]): Promise<number[]> {
  const rows = await ctx.db.sequelize.query<{ id: number }>(
    `SELECT id FROM jobs
      WHERE (name = 'send-email' AND (payload->>'emailId')::bigint = ANY($1::bigint[]))
         OR (name = 'send-email-batch' AND EXISTS (SELECT 1 FROM jsonb_array_elements_text(payload->'emailIds') e WHERE e::bigint = ANY($1::bigint[])))`,
    { bind: [emailIds], type: QueryTypes.SELECT },
  );
  return rows.map((r) => Number(r.id));
}

/** Waits until the jobs that send these emails are over (Completed or Failed, nothing left in BullMQ); answers the emails. */
export async function emailJobsSettled(ctx: JobsCtx, emailIds: number[], options: { what?: string; timeoutMs?: number } = {}) {
  if (emailIds.length) {
    const what = options.what ?? `the send-email jobs of ${emailIds.length} email(s) to finish`;
    await jobsSettled(ctx, await emailJobRowIds(ctx, emailIds), { what, timeoutMs: options.timeoutMs ?? 60_000 });
  }
  return ctx.db.models.Email.findAll({ where: { id: { [Op.in]: emailIds } }, order: [['id', 'ASC']] });
}

/**
 * Waits until every email logged (the `emails` table) for an address so far has been through its
 * sending job: from then on the catcher holds every message it will ever get for them. Call it
 * once the work that could queue an email is itself over (its job settled, or its request
 * answered); answers how many emails are logged for the address.
 */
export async function emailsSettled(ctx: JobsCtx, address: string, options: { timeoutMs?: number } = {}): Promise<number> {
  const emails = await ctx.db.models.Email.findAll({ where: { toAddress: address }, attributes: ['id'] });
  await emailJobsSettled(ctx, emails.map((e) => e.id), { what: `the emails to ${address} to be sent`, ...options });
  return emails.length;
}
