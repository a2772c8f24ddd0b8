#!/usr/bin/env node
/**
 * The first step of `npm start`, `npm test`, `npm run bench`, `npm run chaos` and `npm run load`, before anything
 * imports a package: plain Node, no dependencies, so it runs on a fresh clone.
 *
 * - node_modules missing, or older than package-lock.json with other packages than it names
 *   (a pull that changed the lockfile): `npm ci` installs exactly the lockfile.
 * - With --test: every system program the tests drive is checked, and a missing one is named with
 *   the Debian package that has it (`.ci/run` installs them on a fresh machine); `npm run bench`
 *   checks Chromium the same way before it fills its database.
 *
 * Exit code 0 when ready, 1 with a message saying what to do otherwise.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** What the tests run besides Node, and the Debian package each comes from. */
export const SYSTEM_TOOLS = [
  { command: 'chromium', debianPackage: 'chromium', neededFor: 'the browser tests' },
  { command: 'pdftotext', debianPackage: 'poppler-utils', neededFor: 'reading the PDFs the tests make' },
  { command: 'redis-server', debianPackage: 'redis-server', neededFor: 'the fault tests (they start and kill their own Redis)' },
  { command: 'zbarimg', debianPackage: 'zbar-tools', neededFor: 'scanning the barcodes of the label PDFs the tests make' },
];

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * 'missing' (no node_modules, or npm never finished installing it), 'stale' (package-lock.json is
 * newer and names other packages or versions than node_modules holds) or 'fresh'.
 */
export function dependenciesState(root = ROOT) {
  const lockFile = path.join(root, 'package-lock.json');
  const installed = path.join(root, 'node_modules', '.package-lock.json'); // npm writes it when an install completes
  if (!existsSync(installed)) return 'missing';
  // Strictly newer only: two writes within one tick of the file system's clock get the same time.
  if (!existsSync(lockFile) || statSync(installed).mtimeMs > statSync(lockFile).mtimeMs) return 'fresh';
  // Newer by its date (a checkout or a pull touches it): compare what it names with what is installed.
  const wanted = readJson(lockFile)?.packages;
  const have = readJson(installed)?.packages;
  if (!wanted || !have) return 'stale';
  for (const [key, entry] of Object.entries(wanted)) {
    if (!key) continue; // the root package
    const got = have[key];
    if (!got) {
      if (entry.optional) continue; // another platform's optional binary
      return 'stale';
    }
    if ((got.version ?? got.resolved) !== (entry.version ?? entry.resolved)) return 'stale';
  }
  if (Object.keys(have).some((key) => key && !(key in wanted))) return 'stale';
  // Same packages: mark node_modules as current so the next run skips the comparison.
  // Same packages (a checkout touched the lockfile): take its time, so the next start compares no more
  // unless the lockfile is written again (an equal time still compares the packages).
  const lock = statSync(lockFile);
  utimesSync(installed, lock.atime, lock.mtime);
  return 'fresh';
}

function onPath(command, pathEnv) {
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (!dir) continue;
    try {
      accessSync(path.join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/** The system tools missing from PATH. */
export function missingSystemTools(pathEnv = process.env.PATH) {
  return SYSTEM_TOOLS.filter((tool) => !onPath(tool.command, pathEnv));
}

/** What to tell someone whose machine lacks those tools: each one, then the one command that installs them all. */
export function missingToolsMessage(missing, who = 'The tests') {
  const lines = missing.map((t) => `  ${t.command} (${t.neededFor}): Debian package ${t.debianPackage}`);
  const packages = [...new Set(missing.map((t) => t.debianPackage))].join(' ');
  return `${who} need programs this machine lacks:\n${lines.join('\n')}\nInstall them with:\n  apt-get update && apt-get install -y ${packages}\n`;
}

function main(argv) {
  const rootAt = argv.indexOf('--root');
  const root = rootAt >= 0 ? path.resolve(argv[rootAt + 1]) : ROOT;
  const state = dependenciesState(root);
  if (state !== 'fresh') {
    console.log(state === 'missing' ? 'Installing the dependencies (node_modules is missing)…' : 'Installing the dependencies (package-lock.json changed since node_modules was installed)…');
    const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
    if (npm.status !== 0) {
      console.error('npm ci failed: see its output above.');
      return 1;
    }
  }
  if (argv.includes('--test')) {
    const missing = missingSystemTools();
    if (missing.length) {
      process.stderr.write(missingToolsMessage(missing));
      return 1;
    }
  }
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
