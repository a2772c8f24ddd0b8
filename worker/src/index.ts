/**
 * The BullMQ side: one Worker on the platform queue running the processor registry. Shutdown
 * closes the worker first (it finishes or releases its jobs), then its connections.
 */
import { Worker } from 'bullmq';
import { QUEUE_NAME } from '@platform/domain';
import { closeServerContext, type Config, createMailer, createServerContext, type QueuedJobData } from '@platform/server';
import { recordFailure, runJob } from './run-job';
import { createJobRowWriter } from './job-rows';
import { PROCESSORS, type ProcessorRegistry } from './processors';
import type { WorkerDeps } from './processors/types';
import { startScanners } from './scanners';

export interface RunningWorker {
  worker: Worker;
  close(): Promise<void>;
}

export interface WorkerOptions {
  /** The processors to run (the registry of processors/index.ts unless a caller brings its own). */
  processors?: ProcessorRegistry;
}

export async function startWorker(config: Config, options: WorkerOptions = {}): Promise<RunningWorker> {
  const processors = options.processors ?? PROCESSORS;
  const server = createServerContext(config, 'worker', { blockingRedis: true });
  const { db, logger, relay, redis: connection } = server;
  const deps: WorkerDeps = { config, db, logger, mailer: createMailer(config), relay };
  const rows = createJobRowWriter(db);
  const worker = new Worker<QueuedJobData>(QUEUE_NAME, (job) => runJob(job, deps, processors, rows), {
    connection,
    prefix: config.redisPrefix,
    concurrency: config.workerConcurrency,
    lockDuration: config.workerLockMs,
    stalledInterval: config.workerLockMs,
  });
  worker.on('failed', (job, err) => void recordFailure(job, err, deps, processors).catch((e) => logger.error({ err: (e as Error).message }, 'could not record job failure')));
  worker.on('error', (err) => logger.error({ err: err.message }, 'worker error'));
  await worker.waitUntilReady();
  logger.info({ queue: QUEUE_NAME, concurrency: config.workerConcurrency }, 'worker started');
  // The worker writes outbox rows too (result emails, campaign emails, follow-ups): a worker killed
  // between such a commit and its enqueue must not need an API process to send the job.
  relay.start();
  const scanners = startScanners(deps);
  let closing: Promise<void> | null = null;
  return {
    worker,
    close() {
      closing ??= (async () => {
        await scanners.stop();
        await worker.close();
        deps.mailer.close();
        await closeServerContext(server);
      })();
      return closing;
    },
  };
}
export { startHl7Listener, type RunningHl7Listener } from './hl7-listener';
