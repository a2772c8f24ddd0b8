import type { Logger } from 'pino';
import type { Transporter } from 'nodemailer';
import type { Db } from '@platform/db';
import type { JobName, JobPayloads } from '@platform/domain';
import type { OutboxRelay, Config } from '@platform/server';

/** What every processor is given: built once by the worker's composition root. */
export interface WorkerDeps {
  config: Config;
  db: Db;
  logger: Logger;
  mailer: Transporter;
  /** For jobs that start other jobs: they write outbox rows like any producer. */
  relay: OutboxRelay;
}

export interface JobTools {
  jobRowId: number;
  attempt: number;
  progress(percent: number): Promise<void>;
}

export type Processor<N extends JobName> = (payload: JobPayloads[N], deps: WorkerDeps, tools: JobTools) => Promise<Record<string, unknown> | void>;
