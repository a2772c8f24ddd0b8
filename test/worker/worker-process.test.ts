/**
 * The worker process loads what jobs need and nothing of HTTP: its module list (every CommonJS
 * package it has loaded, as Node keeps them) holds no express, passport, sessions or argon2.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The npm packages a fresh Node process has loaded after importing `entry`: every ES module it
 * resolved (seen by a resolve hook) and every CommonJS module in Node's require cache.
 */
async function packagesLoadedBy(entry: string): Promise<string[]> {
  const hook = `let port; export function initialize(data) { port = data.port; }
    export async function resolve(specifier, context, next) { const r = await next(specifier, context); port.postMessage(r.url); return r; }`;
  const script = `
    import { createRequire, register } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    const { port1, port2 } = new MessageChannel();
    const files = [];
    port1.on('message', (url) => files.push(url));
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}), { data: { port: port2 }, transferList: [port2] });
    await import(${JSON.stringify(entry)});
    await new Promise((r) => setTimeout(r, 100)); // the hook's last messages cross threads
    port1.close();
    files.push(...Object.keys(createRequire(import.meta.url).cache));
    const packages = files.map((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(f)?.[1]).filter(Boolean);
    console.log(JSON.stringify([...new Set(packages)].sort()));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent' } });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

describe('the worker process', function () {
  this.timeout(60_000);

  it('loads no HTTP package (express, passport, sessions) and no password hashing', async () => {
    const loaded = await packagesLoadedBy('@platform/worker');
    // What a worker needs is seen, so the list is real:
    expect(loaded).to.include.members(['bullmq', 'pdfkit', 'sequelize']);
    for (const pkg of ['express', 'passport', 'passport-local', 'express-session', 'connect-pg-simple', 'argon2']) {
      expect(loaded, `the worker loads ${pkg}`).to.not.include(pkg);
    }
  });

  it('the same check sees express and passport in the api process', async () => {
    const loaded = await packagesLoadedBy('@platform/api');
    expect(loaded).to.include.members(['express', 'passport']);
  });
});
