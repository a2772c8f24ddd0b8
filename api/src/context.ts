/**
 * The api's composition root: the shared server context plus what only HTTP needs (the session
 * store's pool). Built once and passed in; tests build their own.
 */
import pg from 'pg';
import { AuthCache } from './auth/auth-cache';
import { closeServerContext, type Config, createServerContext, type ServerContext } from '@platform/server';

export interface AppContext extends ServerContext {
  /** For sessions (connect-pg-simple wants a pg pool of its own). */
  sessionPool: pg.Pool;
  /** Sessions, users and memberships held per process, dropped on PostgreSQL's notifications (auth/auth-cache.ts). */
  authCache: AuthCache;
}

export async function createContext(config: Config, name = 'api'): Promise<AppContext> {
  const sessionPool = new pg.Pool({ connectionString: config.databaseUrl, max: 5 });
  const server = createServerContext(config, name);
  // An idle connection PostgreSQL closed (a restart, a failover) is dropped from the pool, not a crash; the next request reconnects.
  sessionPool.on('error', (err) => server.logger.warn({ err: err.message }, 'session pool connection lost'));
  const authCache = new AuthCache(config.databaseUrl, server.logger);
  await authCache.start();
  return { ...server, sessionPool, authCache };
}

export async function closeContext(ctx: AppContext): Promise<void> {
  await ctx.authCache.stop();
  await ctx.sessionPool.end();
  await closeServerContext(ctx);
}
