/**
 * The api's composition root: the shared server context plus what only HTTP needs (the session
 * store and its pool). Built once and passed in, for one app; tests build their own.
 */
import pg from 'pg';
import session from 'express-session';
import connectPgSimple from 'connect-pg-simple';
import { AuthCache, closeServerContext, type Config, createServerContext, type ServerContext, watchOwnWrites } from '@platform/server';

export interface AppContext extends ServerContext {
  /** For sessions (connect-pg-simple wants a pg pool of its own). */
  sessionPool: pg.Pool;
  /** The sessions' store on that pool (auth/session.ts puts the auth cache in front of it); closed with the context, its pruning timer with it. */
  sessionStore: session.Store & { close(): void | Promise<void> };
  /** Sessions, users and memberships held per process, dropped on PostgreSQL's notifications (server/src/access/auth-cache.ts). */
  authCache: AuthCache;
}

export async function createContext(config: Config, name = 'api'): Promise<AppContext> {
  const sessionPool = new pg.Pool({ connectionString: config.databaseUrl, max: 5 });
  const server = createServerContext(config, name);
  // An idle connection PostgreSQL closed (a restart, a failover) is dropped from the pool, not a crash; the next request reconnects.
  sessionPool.on('error', (err) => server.logger.warn({ err: err.message }, 'session pool connection lost'));
  const authCache = new AuthCache(config.databaseUrl, server.logger);
  await authCache.start();
  watchOwnWrites(server.db.sequelize, authCache);
  const PgStore = connectPgSimple(session);
  const sessionStore = new PgStore({ pool: sessionPool, tableName: 'session', createTableIfMissing: false, pruneSessionInterval: 15 * 60 });
  return { ...server, sessionPool, sessionStore, authCache };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.authCache.stop();
  // Before the pool ends: a pruning timer left behind would run on the ended pool later in the process.
  await ctx.sessionStore.close();
  await ctx.sessionPool.end();
  await closeServerContext(ctx);
}
