/** npm start rebuilds the SPA when a source is newer than the bundle (a pull or an edit), and only then. */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { webBuildIsStale } from '../../scripts/web-build';

describe('npm start: when the SPA is built', () => {
  let root: string;
  const at = (file: string, seconds: number) => utimesSync(path.join(root, file), seconds, seconds);
  const write = (file: string, seconds: number) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), 'x');
    at(file, seconds);
  };

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'web-build-'));
    write('web/src/main.tsx', 1_000);
    write('domain/src/enums.ts', 1_000);
    write('package-lock.json', 1_000);
    for (const dir of ['web/src', 'domain/src', 'web', 'domain']) at(dir, 1_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds when there is no bundle', () => {
    expect(webBuildIsStale(root)).to.equal(true);
  });

  it('serves the bundle when it is newer than every source', () => {
    write('web/dist/index.html', 2_000);
    expect(webBuildIsStale(root)).to.equal(false);
  });

  it('rebuilds when a web or domain source changed after the bundle was made', () => {
    write('web/dist/index.html', 2_000);
    write('domain/src/enums.ts', 3_000);
    expect(webBuildIsStale(root)).to.equal(true);
  });

  it('rebuilds when the dependencies changed (package-lock.json)', () => {
    write('web/dist/index.html', 2_000);
    at('package-lock.json', 3_000);
    expect(webBuildIsStale(root)).to.equal(true);
  });
});
