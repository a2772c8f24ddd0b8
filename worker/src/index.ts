/**
 * The BullMQ side: one Worker on the platform queue running the processor registry. Shutdown
 * closes the worker first (it finishes or releases its jobs), then its connections.
 */
import { Worker } from 'bullmq';
import nodemailer from 'nodemailer';
import { connect } from '@platform/db';
import { QUEUE_NAME } from '@platform/domain';
import type { Config } from '@platform/api/config';
import { createLogger, createRedis } from '@platform/api';
import { createJobQueue, createOutboxRelay, type QueuedJobData } from '@platform/api/jobs';
import { recordFailure, runJob } from './run-job';
import type { WorkerDeps } from './processors/types';

export interface RunningWorker {
  worker: Worker;
  close(): Promise<void>;
}

export function createMailer(config: Config) {
  return nodemailer.createTransport({
    host: config.smtp.host,
    port: config.smtp.port,
    secure: config.smtp.secure,
    auth: config.smtp.user ? { user: config.smtp.user, pass: config.smtp.pass } : undefined,
  });
}

export async function startWorker(config: Config): Promise<RunningWorker> {
  const logger = createLogger(config, 'worker');
  const db = connect(config.databaseUrl);
  const connection = createRedis(config);
  const queue = createJobQueue(connection, config.redisPrefix);
  const relay = createOutboxRelay({ db, queue, logger, staleMs: config.outboxStaleMs, sweepMs: config.outboxSweepMs });
  const deps: WorkerDeps = { config, db, logger, mailer: createMailer(config), relay };
  const worker = new Worker<QueuedJobData>(QUEUE_NAME, (job) => runJob(job, deps), {
    connection,
    prefix: config.redisPrefix,
    concurrency: config.workerConcurrency,
    lockDuration: config.workerLockMs,
    stalledInterval: config.workerLockMs,
  });
  worker.on('failed', (job, err) => void recordFailure(job, err, deps).catch((e) => logger.error({ err: (e as Error).message }, 'could not record job failure')));
  worker.on('error', (err) => logger.error({ err: err.message }, 'worker error'));
  await worker.waitUntilReady();
  logger.info({ queue: QUEUE_NAME, concurrency: config.workerConcurrency }, 'worker started');
  let closing: Promise<void> | null = null;
  return {
    worker,
    close() {
      closing ??= (async () => {
        await worker.close();
        await queue.close();
        await connection.quit().catch(() => undefined);
        deps.mailer.close();
        await db.close();
      })();
      return closing;
    },
  };
}
