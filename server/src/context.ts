/**
 * The composition root both processes share: logger, database, Redis, queue and the outbox relay
 * are built once here and passed in. No global singletons, so tests build their own.
 */
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import type { Queue } from 'bullmq';
import { connect, type Db } from '@platform/db';
import type { Config } from './config';
import { createJobQueue, createOutboxRelay, jobOptionsOf, type OutboxRelay } from './jobs';

export interface ServerContext {
  config: Config;
  db: Db;
  redis: Redis;
  queue: Queue;
  relay: OutboxRelay;
  logger: Logger;
}

export function createLogger(config: Pick<Config, 'logLevel'>, name: string): Logger {
  return pino({
    name,
    level: config.logLevel,
    // Belt and braces: these must never be logged even if someone passes a whole object.
    redact: ['password', '*.password', 'dateOfBirth', '*.dateOfBirth', 'firstName', '*.firstName', 'lastName', '*.lastName', 'token', '*.token'],
  });
}

/**
 * A worker's connection blocks on BullMQ (which needs maxRetriesPerRequest: null: wait for Redis
 * however long). Anyone else's fails a command after one reconnect attempt, so that a request
 * meeting a Redis outage is answered 503 at once instead of hanging until Redis is back.
 */
export function createRedis(config: Pick<Config, 'redisUrl'>, blocking = false): Redis {
  return new Redis(config.redisUrl, { maxRetriesPerRequest: blocking ? null : 1, lazyConnect: false });
}

export function createServerContext(config: Config, name: string, options: { blockingRedis?: boolean } = {}): ServerContext {
  const logger = createLogger(config, name);
  const db = connect(config.databaseUrl);
  const redis = createRedis(config, options.blockingRedis);
  const queue = createJobQueue(redis, config.redisPrefix);
  queue.on('error', (err) => logger.warn({ err: err.message }, 'job queue: Redis unreachable')); // the relay and the sweeper retry
  const relay = createOutboxRelay({
    db, queue, logger, staleMs: config.outboxStaleMs, sweepMs: config.outboxSweepMs,
    jobOptions: jobOptionsOf(config),
  });
  return { config, db, redis, queue, relay, logger };
}

/** Closes in the reverse order of building: nothing is left holding the process open. */
export async function closeServerContext(ctx: ServerContext): Promise<void> {
  ctx.relay.stop();
  await ctx.queue.close();
  await ctx.redis.quit().catch(() => undefined);
  await ctx.db.close();
}
