/**
 * The frame around every processor: validate the payload again (bad input never retries), keep
 * the job's status row, and mark it Failed only when no attempt is left.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import type { Transaction } from 'sequelize';
import { JOB_PAYLOAD_SCHEMAS, JobStatus, type JobName } from '@platform/domain';
import type { ProcessorRegistry } from './processors';
import type { Processor, WorkerDeps } from './processors/types';
import type { JobRowWriter } from './job-rows';
import { DomainError, type QueuedJobData } from '@platform/server';

export async function runJob(job: Job<QueuedJobData>, deps: WorkerDeps, processors: ProcessorRegistry, rows: JobRowWriter): Promise<unknown> {
  const name = job.name as JobName;
  const processor = processors[name] as (p: unknown, d: WorkerDeps, t: unknown) => Promise<unknown>;
  if (!processor) throw new UnrecoverableError(`unknown job name ${job.name}`);
  const jobRowId = Number(job.data?.jobRowId);
  const { error, value } = JOB_PAYLOAD_SCHEMAS[name].validate(job.data?.payload);
  if (error || !Number.isSafeInteger(jobRowId)) throw new UnrecoverableError(`bad payload for ${name}: ${error?.message ?? 'no job row'}`);
  const { Job: JobRow } = deps.db.models;
  // The attempt is written while the processor starts (one round trip less before the work begins);
  // it is on the row before the outcome is, whichever way the run ends.
  const startWritten = rows.started(jobRowId, job.attemptsMade + 1);
  startWritten.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
  let result: unknown;
  try {
    result = await refusalsFailAtOnce(() => processor(value, deps, {
      jobRowId,
      attempt: job.attemptsMade + 1,
      progress: async (percent: number) => {
        const p = Math.max(0, Math.min(100, Math.round(percent)));
        await Promise.all([job.updateProgress(p), JobRow.update({ progress: p }, { where: { id: jobRowId } })]);
      },
    }));
  } finally {
    await startWritten;
  }
  await rows.completed(jobRowId, (result ?? {}) as object);
  deps.logger.info({ job: name, jobId: job.id, jobRowId }, 'job completed');
  return result;
}

/** A domain refusal (a transition the lifecycle forbids, say) does not get better on retry: the job fails at once. */
async function refusalsFailAtOnce<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof DomainError) throw new UnrecoverableError(err.message);
    throw err;
  }
}

/**
 * After a failed attempt: nothing while attempts are left; on the last one (or a refusal) the job
 * row becomes Failed with the message, and the processor's onFinalFailure hook (if it has one)
 * records what that means for the job's subject, in the same transaction.
 */
export async function recordFailure(job: Job<QueuedJobData> | undefined, err: Error, deps: WorkerDeps, processors: ProcessorRegistry): Promise<void> {
  if (!job) return;
  const attempts = job.opts.attempts ?? 1;
  const final = err instanceof UnrecoverableError || err.name === 'UnrecoverableError' || job.attemptsMade >= attempts;
  // The message may name a barcode, a value or an address: it goes to the job's row, never to the log.
  deps.logger.warn({ job: job.name, jobId: job.id, attempt: job.attemptsMade, final, err: err.name }, 'job failed');
  const jobRowId = Number(job.data?.jobRowId);
  if (!final || !Number.isSafeInteger(jobRowId)) return;
  await deps.db.sequelize.transaction(async (transaction) => {
    await deps.db.models.Job.update({ status: JobStatus.Failed, error: err.message, finishedAt: new Date() }, { where: { id: jobRowId }, transaction });
    await runFinalFailureHook(job, err, deps, processors, transaction);
  });
}

/** The processor's own hook, only for a payload it would have accepted (a bad payload names nothing to mark). */
async function runFinalFailureHook(job: Job<QueuedJobData>, error: Error, deps: WorkerDeps, processors: ProcessorRegistry, transaction: Transaction): Promise<void> {
  const name = job.name as JobName;
  const hook = (processors[name] as Processor<JobName> | undefined)?.onFinalFailure as
    | ((p: unknown, d: WorkerDeps, f: { error: Error; transaction: Transaction }) => Promise<void>)
    | undefined;
  if (!hook) return;
  const { error: invalid, value } = JOB_PAYLOAD_SCHEMAS[name].validate(job.data?.payload);
  if (invalid) return;
  await hook(value, deps, { error, transaction });
}
