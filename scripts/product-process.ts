/**
 * The product's API (`api/src/main.ts`) and worker (`worker/src/main.ts`) as processes of their
 * own, for the runs that kill them (test/chaos) or load them from outside (scripts/load.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ProductProcess {
  child: ChildProcess;
  output(): string;
  /** SIGKILL: no shutdown, no cleanup. */
  kill(): Promise<void>;
  /** SIGTERM, then wait for it to exit. */
  terminate(): Promise<void>;
}

/**
 * Extra Node.js flags for the API's process from API_NODE_ARGS (the worker's from WORKER_NODE_ARGS),
 * to look inside a bench run: `API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench
 * -- --quick --only lists` writes the API's CPU profile when it stops (NODE_OPTIONS does not take --cpu-prof).
 */
const nodeArgsFor = (which: 'api' | 'worker') =>
  (process.env[which === 'api' ? 'API_NODE_ARGS' : 'WORKER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);

/** The API (`api/src/main.ts`) or a worker (`worker/src/main.ts`) as a process of its own, once it says it is up. */
export async function startProcess(which: 'api' | 'worker', env: NodeJS.ProcessEnv): Promise<ProductProcess> {
  const entry = which === 'api' ? 'api/src/main.ts' : 'worker/src/main.ts';
  const ready = which === 'api' ? 'API listening on' : 'Worker running';
  const child = spawn(process.execPath, [...nodeArgsFor(which), '--import', 'tsx', entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

