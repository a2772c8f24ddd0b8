/**
 * The SPA that `npm start` serves: built when web/dist is missing or older than any source it is
 * built from (a pull or an edit since the last build), always as a production bundle, into a
 * folder of its own that replaces web/dist only once the build succeeded: a failed build leaves
 * the old bundle or none, never a half-built one.
 */
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

/** What the bundle is built from, below the repository root. */
export const WEB_SOURCES = ['web/src', 'web/index.html', 'web/public', 'web/vite.config.ts', 'web/package.json', 'domain/src', 'package-lock.json'];

/** The newest modification time (ms) of a file or of any file below a folder; 0 when it does not exist. */
export function newestChange(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(target).reduce((newest, name) => Math.max(newest, newestChange(path.join(target, name))), stat.mtimeMs);
}

/** Whether web/dist must be (re)built: no bundle, or a source changed after it was made. */
export function webBuildIsStale(root: string, distDir = path.join(root, 'web/dist')): boolean {
  const index = path.join(distDir, 'index.html');
  if (!existsSync(index)) return true;
  const builtAt = statSync(index).mtimeMs;
  return WEB_SOURCES.some((source) => newestChange(path.join(root, source)) > builtAt);
}

/** Builds the SPA for production into a fresh folder, then puts it in place of web/dist. */
export function buildWeb(root: string, distDir = path.join(root, 'web/dist')): void {
  const staging = `${distDir}.building`;
  rmSync(staging, { recursive: true, force: true });
  try {
    // A production bundle whatever NODE_ENV says; the size budget is checked by `npm test`, never in the way of starting.
    // Vite's own report (warnings about its config loader, plugin timings) means nothing to someone
    // starting the product: it is shown only when the build fails.
    execSync(`npx vite build --outDir "${staging}" --emptyOutDir`, { cwd: path.join(root, 'web'), stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } });
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    const { stdout, stderr } = err as { stdout?: Buffer; stderr?: Buffer };
    process.stderr.write(`${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`);
    throw err;
  }
  rmSync(distDir, { recursive: true, force: true });
  renameSync(staging, distDir);
}
