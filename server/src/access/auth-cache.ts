/**
 * A per-process cache of what every signed-in request reads before its own work: the session row,
 * the user behind it and the user's account memberships (three round trips to PostgreSQL per
 * request without it). It serves only while this process is LISTENing on AUTH_CACHE_CHANNEL, where
 * triggers announce every change to those rows at commit (migration 20261123180000): sign-out,
 * deactivation, a role or membership change, a password change ending sessions drop the entry in
 * every API process as soon as PostgreSQL delivers the notification. When the listening
 * connection is lost the cache is emptied and bypassed (every request reads PostgreSQL) until
 * listening again. A value read while an invalidation arrived is not kept (it may predate it).
 */
import pg from 'pg';
import type { Model, Sequelize, Transaction } from 'sequelize';
import type { Logger } from 'pino';
import { AUTH_CACHE_CHANNEL } from '@platform/db';
import type { AccountSummary, SessionUser } from '@platform/domain';

/** A cached session row: the stored JSON (parsed afresh for each request) and when it expires. */
export interface CachedSession {
  json: string;
  expiresAt: number;
}

/** Bounds the memory of each map: past this many entries a map starts again empty. */
const MAX_ENTRIES = 50_000;
const RECONNECT_MS = 1_000;

/** One map with the read-through rule: serve while listening; keep a loaded value only if nothing was invalidated meanwhile. */
class Slot<K, V> {
  private readonly entries = new Map<K, V>();
  /** keepMisses false: a missing row is not remembered (an unknown cookie must not fill the map). */
  constructor(private readonly cache: AuthCache, private readonly keepMisses = true) {}

  get(key: K): V | undefined {
    return this.cache.listening ? this.entries.get(key) : undefined;
  }

  async load(key: K, read: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const generation = this.cache.generation;
    const value = await read();
    if (this.cache.listening && generation === this.cache.generation && (this.keepMisses || value !== null)) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}

export class AuthCache {
  /** True while the LISTEN connection is up: only then is anything served from memory. */
  listening = false;
  /** Bumped by every invalidation: a read that started before one is not cached. */
  generation = 0;
  readonly sessions = new Slot<string, CachedSession | null>(this, false);
  readonly users = new Slot<number, SessionUser | null>(this);
  readonly accounts = new Slot<number, AccountSummary[]>(this);
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly databaseUrl: string, private readonly logger: Logger) {}

  /** Connects and LISTENs; on failure the cache stays bypassed and retries in the background. */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.lost();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** A session (its JSON and expiry), or null when no live row has that id. */
  async session(sid: string, read: () => Promise<CachedSession | null>): Promise<CachedSession | null> {
    const row = await this.sessions.load(sid, read);
    if (row && row.expiresAt < Date.now()) {
      this.sessions.delete(sid);
      return null;
    }
    return row;
  }

  /** Drops a session this process wrote or destroyed (its notification will say so again). */
  forgetSession(sid: string): void {
    this.generation++;
    this.sessions.delete(sid);
  }

  private async connect(): Promise<void> {
    // TCP keepalive: a listening connection that silently died (no error, no end) is eventually noticed and the cache bypassed.
    const client = new pg.Client({ connectionString: this.databaseUrl, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client.on('notification', (msg) => this.invalidate(msg.payload ?? '*'));
    const onLoss = (err?: Error) => {
      if (this.client !== client) return;
      this.client = null;
      this.lost();
      if (!this.stopped) {
        this.logger.warn({ err: err?.message }, 'auth cache: notification connection lost; reading sessions from PostgreSQL until it is back');
        this.scheduleReconnect();
      }
    };
    client.on('error', onLoss);
    client.on('end', () => onLoss());
    try {
      await client.connect();
      await client.query(`LISTEN ${AUTH_CACHE_CHANNEL}`);
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.logger.warn({ err: (err as Error).message }, 'auth cache: cannot listen; reading sessions from PostgreSQL');
      if (!this.stopped) this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.generation++;
    this.listening = true;
  }

  private scheduleReconnect(): void {
    if (this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, RECONNECT_MS);
    this.retry.unref();
  }

  /** Nothing served or kept until listening again: a change made meanwhile would go unseen. */
  private lost(): void {
    this.listening = false;
    this.generation++;
    this.clearAll();
  }

  private clearAll(): void {
    this.sessions.clear();
    this.users.clear();
    this.accounts.clear();
  }

  /**
   * Drops, at once, what this process's own committed writes changed (watchOwnWrites): its next
   * request must not be served from memory before PostgreSQL's notification of the same commit
   * arrives on the listening connection (it comes a moment later, and a request can come first).
   */
  invalidateNow(payload: string): void {
    this.invalidate(payload);
  }

  private invalidate(payload: string): void {
    this.generation++;
    if (payload.startsWith('s:')) return this.sessions.delete(payload.slice(2));
    if (payload.startsWith('u:')) {
      const id = Number(payload.slice(2));
      this.users.delete(id);
      this.accounts.delete(id);
      return;
    }
    if (payload === 'a') return this.accounts.clear();
    this.clearAll();
  }
}

/** The tables whose rows the cache holds (the migration's triggers announce their changes). */
const WATCHED_TABLES: Readonly<Record<string, 'user' | 'accounts'>> = { users: 'user', contacts: 'accounts', account_memberships: 'accounts', accounts: 'accounts' };

type ModelClass = { getTableName(): string | { tableName: string } };
const watchedKind = (model: ModelClass | undefined) => {
  const table = model?.getTableName();
  return table ? WATCHED_TABLES[typeof table === 'string' ? table : table.tableName] : undefined;
};

/**
 * This process's own writes to users, contacts, memberships and accounts invalidate the cache when
 * their transaction commits (or at once without one), through Sequelize's hooks: what the same
 * notification will say again, without waiting for it. Other processes still learn it from
 * PostgreSQL's notifications; raw SQL writes to these tables are left to those too.
 */
export function watchOwnWrites(sequelize: Sequelize, cache: AuthCache): void {
  type Options = { transaction?: Transaction | null; model?: ModelClass };
  const whenCommitted = (options: Options | undefined, payload: string) => {
    const run = () => cache.invalidateNow(payload);
    if (options?.transaction) options.transaction.afterCommit(run);
    else run();
  };
  const onInstance = (instance: Model, options: Options) => {
    const kind = watchedKind(instance?.constructor as unknown as ModelClass);
    if (kind) whenCommitted(options, kind === 'user' ? `u:${String(instance.get('id'))}` : 'a');
  };
  const onBulk = (options: Options) => {
    const kind = watchedKind(options?.model);
    if (kind) whenCommitted(options, kind === 'user' ? '*' : 'a');
  };
  for (const hook of ['afterCreate', 'afterUpdate', 'afterDestroy'] as const) sequelize.addHook(hook, onInstance as never);
  sequelize.addHook('afterBulkCreate', ((_instances: Model[], options: Options) => onBulk(options)) as never);
  for (const hook of ['afterBulkUpdate', 'afterBulkDestroy'] as const) sequelize.addHook(hook, onBulk as never);
}
