/**
 * The composition root: database, Redis, queue, logger and the outbox relay are built once here
 * and passed in. No global singletons, so tests build their own.
 */
import { Redis } from 'ioredis';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import type { Queue } from 'bullmq';
import { connect, type Db } from '@platform/db';
import type { Config } from './config';
import { createJobQueue, createOutboxRelay, type OutboxRelay } from './jobs';

export interface AppContext {
  config: Config;
  db: Db;
  /** For sessions (connect-pg-simple wants a pg pool of its own). */
  sessionPool: pg.Pool;
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

export function createRedis(config: Pick<Config, 'redisUrl'>): Redis {
  // BullMQ needs maxRetriesPerRequest: null on connections it blocks on.
  return new Redis(config.redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
}

export async function createContext(config: Config, name = 'api'): Promise<AppContext> {
  const logger = createLogger(config, name);
  const db = connect(config.databaseUrl);
  const sessionPool = new pg.Pool({ connectionString: config.databaseUrl, max: 5 });
  const redis = createRedis(config);
  const queue = createJobQueue(redis, config.redisPrefix);
  const relay = createOutboxRelay({ db, queue, logger, staleMs: config.outboxStaleMs, sweepMs: config.outboxSweepMs });
  return { config, db, sessionPool, redis, queue, relay, logger };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  ctx.relay.stop();
  await ctx.queue.close();
  await ctx.redis.quit().catch(() => undefined);
  await ctx.sessionPool.end();
  await ctx.db.close();
}
