import type { Transaction } from 'sequelize';
import type { JobName, JobPayloads } from '@platform/domain';
import type { Mailer, ServerContext } from '@platform/server';

/** What every processor is given: built once by the worker's composition root (the relay is for jobs that start other jobs). */
export type WorkerDeps = Pick<ServerContext, 'config' | 'db' | 'logger' | 'relay'> & { mailer: Mailer };

export interface JobTools {
  jobRowId: number;
  attempt: number;
  progress(percent: number): Promise<void>;
}

/** A job that failed for good: its last attempt, or a refusal that never retries. */
export interface FinalFailure {
  error: Error;
  /** The transaction that marks the job row Failed: the hook's writes commit with it. */
  transaction: Transaction;
}

export interface Processor<N extends JobName> {
  (payload: JobPayloads[N], deps: WorkerDeps, tools: JobTools): Promise<Record<string, unknown> | void>;
  /** Records what the failure means for the job's subject (an email becomes Failed, say); runs once, when no attempt is left. */
  onFinalFailure?: (payload: JobPayloads[N], deps: WorkerDeps, failure: FinalFailure) => Promise<void>;
}
