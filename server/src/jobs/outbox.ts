/**
 * The producer side of every job. A command writes its job in the same transaction as its change
 * (a `jobs` status row plus an `outbox` row); after commit the relay hands it to BullMQ with
 * jobId = the row's random queue job id, and a sweeper re-sends rows left pending (a crash between commit and
 * enqueue loses nothing; a double send is absorbed by the stable jobId, a random one stored on the row).
 */
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { JOB_PAYLOAD_SCHEMAS, JobStatus, type JobName, type JobPayloads } from '@platform/domain';

/** What BullMQ carries: the job's status row and its payload. */
export interface QueuedJobData<N extends JobName = JobName> {
  jobRowId: number;
  payload: JobPayloads[N];
}

export interface OutboxRelay {
  relay(outboxId: number): Promise<void>;
  sweep(): Promise<number>;
  start(): void;
  stop(): void;
}

export interface EnqueueOptions {
  idempotencyKey: string;
  createdByUserId?: number | null;
}

/** Writes a job inside the caller's transaction; the relay sends it once the transaction commits. */
export async function enqueueJob<N extends JobName>(
  ctx: { db: Db; relay: OutboxRelay },
  transaction: Transaction,
  name: N,
  payload: JobPayloads[N],
  options: EnqueueOptions,
): Promise<{ jobRowId: number; outboxId: number }> {
  const { error } = JOB_PAYLOAD_SCHEMAS[name].validate(payload);
  if (error) throw new Error(`Refusing to enqueue ${name}: ${error.message}`);
  const job = await ctx.db.models.Job.create(
    { name, status: JobStatus.Pending, progress: 0, payload, createdByUserId: options.createdByUserId ?? null, attempts: 0 },
    { transaction },
  );
  const outboxId = await writeOutbox(ctx, transaction, name, { jobRowId: job.id, payload }, options.idempotencyKey);
  return { jobRowId: job.id, outboxId };
}

/**
 * Queues another run of an existing job row (a retry from the job monitor): a new outbox row,
 * hence a new BullMQ job, carrying the same row id and payload. The caller sets the row Pending.
 */
export async function requeueJobRow(
  ctx: { db: Db; relay: OutboxRelay },
  transaction: Transaction,
  job: { id: number; name: string; payload: object },
  idempotencyKey: string,
): Promise<number> {
  return writeOutbox(ctx, transaction, job.name, { jobRowId: job.id, payload: job.payload }, idempotencyKey);
}

async function writeOutbox(
  ctx: { db: Db; relay: OutboxRelay },
  transaction: Transaction,
  jobName: string,
  data: QueuedJobData | { jobRowId: number; payload: object },
  idempotencyKey: string,
): Promise<number> {
  const outbox = await ctx.db.models.Outbox.create({ jobName, payload: data, idempotencyKey, status: 'pending' }, { transaction });
  transaction.afterCommit(() => {
    ctx.relay.relay(outbox.id).catch(() => undefined); // the sweeper retries what fails here
  });
  return outbox.id;
}

export function createOutboxRelay(deps: { db: Db; queue: Queue; logger: Logger; staleMs: number; sweepMs: number }): OutboxRelay {
  const { db, queue, logger } = deps;
  /** How long a sent job may be missing from Redis before it counts as lost (a send is two steps: BullMQ, then the row). */
  const lostAfterMs = Math.max(deps.staleMs, 1000);
  let timer: NodeJS.Timeout | null = null;
  let sweeping = false;

  /**
   * Jobs still Pending whose latest outbox row was sent at least `lostAfterMs` ago but that BullMQ
   * no longer holds: Redis lost them (restarted without its data, flushed, replaced). Sent again.
   */
  async function resendLost(): Promise<number> {
    const rows = await db.sequelize.query<{ id: number; jobName: string; payload: unknown; queueJobId: string }>(
      `SELECT o.id, o.job_name AS "jobName", o.payload, o.queue_job_id AS "queueJobId"
         FROM jobs j
         CROSS JOIN LATERAL (
           SELECT * FROM outbox o WHERE (o.payload->>'jobRowId')::bigint = j.id ORDER BY o.id DESC LIMIT 1
         ) o
        WHERE j.status = 'Pending' AND o.status = 'enqueued' AND o.enqueued_at <= :before
        ORDER BY j.id LIMIT 500`,
      { replacements: { before: new Date(Date.now() - lostAfterMs) }, type: QueryTypes.SELECT },
    );
    let resent = 0;
    for (const row of rows) {
      if (await queue.getJob(row.queueJobId)) continue; // waiting, running or retrying: not lost
      await send(row);
      resent++;
    }
    if (resent) logger.warn({ count: resent }, 'outbox sweeper re-sent jobs Redis no longer held');
    return resent;
  }

  async function send(row: { id: number; jobName: string; payload: unknown; queueJobId: string }): Promise<void> {
    // The row's random id: a double send is absorbed, and no other database's job can hold it.
    await queue.add(row.jobName, row.payload, { jobId: row.queueJobId });
    await db.models.Outbox.update({ status: 'enqueued', enqueuedAt: new Date() }, { where: { id: row.id } });
  }

  return {
    async relay(outboxId) {
      const row = await db.models.Outbox.findOne({ where: { id: outboxId, status: 'pending' } });
      if (!row) return;
      try {
        await send(row);
      } catch (err) {
        logger.warn({ outboxId, err: (err as Error).message }, 'outbox relay failed; the sweeper will retry');
      }
    },
    async sweep() {
      if (sweeping) return 0;
      sweeping = true;
      try {
        const rows = await db.models.Outbox.findAll({
          where: { status: 'pending', createdAt: { [Op.lte]: new Date(Date.now() - deps.staleMs) } },
          order: [['id', 'ASC']],
          limit: 500,
        });
        for (const row of rows) await send(row);
        if (rows.length) logger.info({ count: rows.length }, 'outbox sweeper re-sent pending jobs');
        return rows.length + (await resendLost());
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'outbox sweep failed');
        return 0;
      } finally {
        sweeping = false;
      }
    },
    start() {
      if (timer) return;
      timer = setInterval(() => void this.sweep(), deps.sweepMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
