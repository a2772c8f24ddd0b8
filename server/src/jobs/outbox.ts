/**
 * The producer side of every job. A command writes its job in the same transaction as its change
 * (a `jobs` status row plus an `outbox` row); after commit the relay hands it to BullMQ with
 * jobId = the row's random queue job id, and a sweeper re-sends rows left pending (a crash between commit and
 * enqueue loses nothing; a double send is absorbed by the stable jobId, a random one stored on the row).
 */
import type { JobsOptions, Queue } from 'bullmq';
import type { Logger } from 'pino';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { JOB_PAYLOAD_SCHEMAS, JobStatus, type JobName, type JobPayloads } from '@platform/domain';
import { batched } from '../batched';

/** What BullMQ carries: the job's status row and its payload. */
export interface QueuedJobData<N extends JobName = JobName> {
  jobRowId: number;
  payload: JobPayloads[N];
}

/** An outbox row as the relay sends it. */
export interface OutboxRow {
  id: number;
  jobName: string;
  payload: unknown;
  queueJobId: string;
}

export interface OutboxRelay {
  /** Sends the row after its commit: read again unless its writer hands it over (a row already sent is skipped only when read). */
  relay(outboxId: number, row?: OutboxRow): Promise<void>;
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
  const [written] = await enqueueJobs(ctx, transaction, name, [{ payload, idempotencyKey: options.idempotencyKey }], options.createdByUserId ?? null);
  return written;
}

/**
 * Writes many jobs of one name inside the caller's transaction (a campaign's emails, say): each its
 * `jobs` row and its outbox row, all in one statement; answered in the order given.
 */
export async function enqueueJobs<N extends JobName>(
  ctx: { db: Db; relay: OutboxRelay },
  transaction: Transaction,
  name: N,
  jobs: Array<{ payload: JobPayloads[N]; idempotencyKey: string }>,
  createdByUserId: number | null = null,
): Promise<Array<{ jobRowId: number; outboxId: number }>> {
  if (!jobs.length) return [];
  for (const { payload } of jobs) {
    const { error } = JOB_PAYLOAD_SCHEMAS[name].validate(payload);
    if (error) throw new Error(`Refusing to enqueue ${name}: ${error.message}`);
  }
  // Each job's row id is drawn first (a volatile CTE is evaluated once), so its outbox row can carry it.
  const rows = await ctx.db.sequelize.query<OutboxRow & { jobRowId: number; idempotencyKey: string }>(
    `WITH input AS (
       SELECT nextval('jobs_id_seq') AS job_id, i.payload, i.idempotency_key, i.n
         FROM unnest($2::jsonb[], $3::text[]) WITH ORDINALITY AS i(payload, idempotency_key, n)
     ), job AS (
       INSERT INTO jobs (id, name, status, progress, payload, created_by_user_id, attempts)
       SELECT job_id, $1, $4, 0, payload, $5, 0 FROM input
     )
     INSERT INTO outbox (job_name, payload, idempotency_key, status)
     SELECT $1, jsonb_build_object('jobRowId', job_id, 'payload', payload), idempotency_key, 'pending' FROM input ORDER BY n
     RETURNING id, job_name AS "jobName", payload, queue_job_id AS "queueJobId",
               (payload->>'jobRowId')::bigint AS "jobRowId", idempotency_key AS "idempotencyKey"`,
    {
      bind: [name, jobs.map((j) => JSON.stringify(j.payload)), jobs.map((j) => j.idempotencyKey), JobStatus.Pending, createdByUserId],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  relayAfterCommit(ctx, transaction, rows.map(({ id, jobName, payload, queueJobId }) => ({ id, jobName, payload, queueJobId })));
  const byKey = new Map(rows.map((r) => [r.idempotencyKey, r]));
  return jobs.map((j) => {
    const row = byKey.get(j.idempotencyKey)!;
    return { jobRowId: row.jobRowId, outboxId: row.id };
  });
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
  const data = { jobRowId: job.id, payload: job.payload };
  const outbox = await ctx.db.models.Outbox.create({ jobName: job.name, payload: data, idempotencyKey, status: 'pending' }, { transaction });
  relayAfterCommit(ctx, transaction, [{ id: outbox.id, jobName: outbox.jobName, payload: outbox.payload, queueJobId: outbox.queueJobId }]);
  return outbox.id;
}

function relayAfterCommit(ctx: { relay: OutboxRelay }, transaction: Transaction, rows: OutboxRow[]): void {
  transaction.afterCommit(() => {
    for (const row of rows) ctx.relay.relay(row.id, row).catch(() => undefined); // the sweeper retries what fails here
  });
}

/** Outbox rows one relay batch sends (one SELECT, one BullMQ addBulk, one UPDATE). */
const RELAY_BATCH = 500;

export function createOutboxRelay(deps: {
  db: Db; queue: Queue; logger: Logger; staleMs: number; sweepMs: number;
  /** A job name's own retry options, where they differ from the queue's defaults (a webhook's day of retries). */
  jobOptions?: (jobName: string) => JobsOptions | undefined;
}): OutboxRelay {
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
    const rows = await db.sequelize.query<OutboxRow>(
      `SELECT o.id, o.job_name AS "jobName", o.payload, o.queue_job_id AS "queueJobId"
         FROM jobs j
         CROSS JOIN LATERAL (
           SELECT * FROM outbox o WHERE (o.payload->>'jobRowId')::bigint = j.id ORDER BY o.id DESC LIMIT 1
         ) o
        WHERE j.status = 'Pending' AND o.status = 'enqueued' AND o.enqueued_at <= :before
        ORDER BY j.id LIMIT 500`,
      { replacements: { before: new Date(Date.now() - lostAfterMs) }, type: QueryTypes.SELECT },
    );
    const held = await Promise.all(rows.map((row) => queue.getJob(row.queueJobId))); // waiting, running or retrying: not lost
    const lost = rows.filter((_, i) => !held[i]);
    await send(lost);
    if (lost.length) logger.warn({ count: lost.length }, 'outbox sweeper re-sent jobs Redis no longer held');
    return lost.length;
  }

  /** To BullMQ first, then the rows marked: a crash between the two sends again, and the row's random jobId absorbs it. */
  async function send(rows: OutboxRow[]): Promise<void> {
    if (!rows.length) return;
    // The row's random id: a double send is absorbed, and no other database's job can hold it.
    await queue.addBulk(rows.map((row) => ({ name: row.jobName, data: row.payload, opts: { ...deps.jobOptions?.(row.jobName), jobId: row.queueJobId } })));
    await db.sequelize.query(
      `UPDATE outbox SET status = 'enqueued', enqueued_at = now(), updated_at = now() WHERE id = ANY($1::bigint[])`,
      { bind: [rows.map((r) => r.id)], type: QueryTypes.UPDATE },
    );
  }

  /** Sends the rows handed over, and those of the other ids that are still pending. */
  async function relayBatch(batch: Array<{ id: number; row?: OutboxRow }>): Promise<void> {
    const given = batch.flatMap((b) => (b.row ? [b.row] : []));
    const ids = batch.filter((b) => !b.row).map((b) => b.id);
    const read = ids.length
      ? await db.sequelize.query<OutboxRow>(
        `SELECT id, job_name AS "jobName", payload, queue_job_id AS "queueJobId" FROM outbox WHERE id = ANY($1::bigint[]) AND status = 'pending' ORDER BY id`,
        { bind: [ids], type: QueryTypes.SELECT },
      )
      : [];
    await send([...given, ...read]);
  }

  // Rows committed while a batch is on its way wait for the next one: under load a batch carries many jobs.
  // A failed batch is logged once here, and each caller's promise still settles (the sweeper retries).
  const relayOne = batched<{ id: number; row?: OutboxRow }>(async (batch) => {
    await relayBatch(batch).catch((err) => logger.warn({ count: batch.length, err: (err as Error).message }, 'outbox relay failed; the sweeper will retry'));
  }, RELAY_BATCH);

  return {
    relay(outboxId, row) {
      return relayOne({ id: outboxId, row });
    },
    async sweep() {
      if (sweeping) return 0;
      sweeping = true;
      try {
        const rows = await db.sequelize.query<OutboxRow>(
          `SELECT id, job_name AS "jobName", payload, queue_job_id AS "queueJobId" FROM outbox
            WHERE status = 'pending' AND created_at <= :before ORDER BY id LIMIT 500`,
          { replacements: { before: new Date(Date.now() - deps.staleMs) }, type: QueryTypes.SELECT },
        );
        await send(rows);
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
