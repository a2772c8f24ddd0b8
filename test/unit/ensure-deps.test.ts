/**
 * The set-up step of `npm start` and `npm test` (scripts/ensure-deps.mjs), run as npm runs it: on a
 * fresh clone it installs node_modules, after a pull that changed package-lock.json it reinstalls,
 * otherwise it does nothing; `npm test` names the Debian package of every missing system program.
 * A stand-in `npm` on PATH records how it is called (no registry is reached).
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCRIPT = path.join(ROOT, 'scripts/ensure-deps.mjs');

const lockWith = (packages: Record<string, unknown>) => JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { '': { name: 'app' }, ...packages } });

describe('npm start / npm test: installing what a fresh clone lacks', () => {
  let dir: string;
  let app: string;
  let bin: string;
  let npmLog: string;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ensure-deps-'));
    app = path.join(dir, 'app');
    bin = path.join(dir, 'bin');
    npmLog = path.join(dir, 'npm.log');
    mkdirSync(app);
    mkdirSync(bin);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app' }));
    writeFileSync(path.join(app, 'package-lock.json'), lockWith({ 'node_modules/left-pad': { version: '1.3.0' } }));
    // The stand-in npm: records its arguments, and installs as `npm ci` would (writes node_modules/.package-lock.json from the lockfile).
    writeFileSync(
      path.join(bin, 'npm'),
      `#!/bin/sh\necho "$@" >> "${npmLog}"\nmkdir -p node_modules && cp package-lock.json node_modules/.package-lock.json\n`,
    );
    chmodSync(path.join(bin, 'npm'), 0o755);
    for (const tool of ['node', 'dirname', 'mkdir', 'cp']) symlinkSync(tool === 'node' ? process.execPath : `/usr/bin/${tool}`, path.join(bin, tool));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const ensure = (...args: string[]) =>
    spawnSync(process.execPath, [SCRIPT, '--root', app, ...args], { env: { ...process.env, PATH: bin }, encoding: 'utf8' });
  const npmCalls = () => (existsSync(npmLog) ? readFileSync(npmLog, 'utf8').trim().split('\n') : []);

  it('on a fresh clone (no node_modules) runs npm ci, and the next start installs nothing', () => {
    const first = ensure();
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stdout).to.include('node_modules is missing');
    expect(npmCalls()).to.deep.equal(['ci --no-audit --no-fund']);
    expect(existsSync(path.join(app, 'node_modules/.package-lock.json'))).to.equal(true);

    expect(ensure().status).to.equal(0);
    expect(npmCalls()).to.have.length(1);
  });

  it('reinstalls when package-lock.json changed after the install (a pull), not when only its date did (a checkout)', () => {
    ensure();
    const lock = path.join(app, 'package-lock.json');
    const installed = path.join(app, 'node_modules/.package-lock.json');
    utimesSync(installed, 1_000, 1_000);
    utimesSync(lock, 2_000, 2_000); // same packages, newer date
    expect(ensure().status).to.equal(0);
    expect(npmCalls()).to.have.length(1);

    writeFileSync(lock, lockWith({ 'node_modules/left-pad': { version: '1.4.0' } }));
    const after = ensure();
    expect(after.status).to.equal(0);
    expect(after.stdout).to.include('package-lock.json changed');
    expect(npmCalls()).to.deep.equal(['ci --no-audit --no-fund', 'ci --no-audit --no-fund']);
  });

  it('says so and fails when npm ci fails', () => {
    writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\nexit 3\n');
    const result = ensure();
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include('npm ci failed');
  });

  it('npm test names the Debian package of each missing program and the command that installs them', () => {
    ensure();
    const result = ensure('--test');
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include('chromium (the browser tests): Debian package chromium');
    expect(result.stderr).to.include('pdftotext (reading the PDFs the tests make): Debian package poppler-utils');
    expect(result.stderr).to.include('apt-get update && apt-get install -y chromium poppler-utils redis-server');

    symlinkSync('/usr/bin/chromium', path.join(bin, 'chromium'));
    symlinkSync('/usr/bin/redis-server', path.join(bin, 'redis-server'));
    symlinkSync('/usr/bin/zbarimg', path.join(bin, 'zbarimg'));
    const onlyPoppler = ensure('--test');
    expect(onlyPoppler.stderr).to.include('apt-get install -y poppler-utils\n');
    expect(onlyPoppler.stderr).not.to.include('Debian package chromium');
  });

  it('npm test stops at that step with its own closing line', () => {
    writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\nexit 0\n'); // never touches this checkout's node_modules
    const result = spawnSync('/bin/bash', [path.join(ROOT, 'scripts/test.sh')], { cwd: ROOT, env: { ...process.env, PATH: bin }, encoding: 'utf8' });
    expect(result.status).to.equal(1);
    expect(result.stderr).to.include('apt-get install -y chromium poppler-utils redis-server');
    expect(result.stdout.trimEnd().split('\n').at(-1)).to.equal('0 passed, 1 failed');
  });
});
