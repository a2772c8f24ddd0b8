import type { JobName, JobPayloads } from '@platform/domain';
import type { Mailer, ServerContext } from '@platform/server';

/** What every processor is given: built once by the worker's composition root (the relay is for jobs that start other jobs). */
export type WorkerDeps = Pick<ServerContext, 'config' | 'db' | 'logger' | 'relay'> & { mailer: Mailer };

export interface JobTools {
  jobRowId: number;
  attempt: number;
  progress(percent: number): Promise<void>;
}

export type Processor<N extends JobName> = (payload: JobPayloads[N], deps: WorkerDeps, tools: JobTools) => Promise<Record<string, unknown> | void>;
