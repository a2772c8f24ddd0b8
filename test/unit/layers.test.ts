/**
 * The layers of DESIGN.md, held by a test: web -> domain; api -> server -> db -> domain;
 * worker -> server. Each finding names the file, the import and the rule it breaks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface SourceFile { path: string; text: string }

/** Packages only HTTP needs: the server layer is shared with the worker and must not load them. */
const HTTP_PACKAGES = ['express', 'express-session', 'passport', 'passport-local', 'connect-pg-simple', 'csrf-sync', 'helmet'];

interface Rule {
  /** Files the rule applies to (repo-relative prefix). */
  in: string;
  why: string;
  /** True when the import (a package name, or a repo-relative path for relative imports) is forbidden. */
  forbids(target: string): boolean;
}

const isOurs = (t: string) => t.startsWith('@platform/');
const packageOf = (t: string) => (t.startsWith('@') ? t.split('/').slice(0, 2).join('/') : t.split('/')[0]);

export const RULES: Rule[] = [
  { in: 'domain/src/', why: 'domain imports nothing of ours', forbids: (t) => isOurs(t) || /^(api|server|worker|db|web)\//.test(t) },
  { in: 'db/src/', why: 'db stands on domain only', forbids: (t) => ['@platform/server', '@platform/api', '@platform/worker', '@platform/web'].includes(packageOf(t)) || /^(api|server|worker|web)\//.test(t) },
  { in: 'server/src/', why: 'the server layer never imports the api', forbids: (t) => packageOf(t) === '@platform/api' || packageOf(t) === '@platform/worker' || /^(api|worker|web)\//.test(t) },
  { in: 'server/src/', why: 'the server layer never imports express or other HTTP packages', forbids: (t) => HTTP_PACKAGES.includes(packageOf(t)) },
  { in: 'worker/src/', why: 'the worker never imports the api', forbids: (t) => packageOf(t) === '@platform/api' || /^api\//.test(t) || HTTP_PACKAGES.includes(packageOf(t)) },
  { in: 'web/src/api/', why: "the SPA's data layer never imports its UI", forbids: (t) => /^web\/src\/(shell|session|pages|components|layouts)\//.test(t) },
  { in: 'web/src/', why: 'the SPA stands on domain only', forbids: (t) => ['@platform/server', '@platform/api', '@platform/worker', '@platform/db'].includes(packageOf(t)) },
];

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every import of a file: package names as written, relative imports as repo-relative paths. */
export function importsOf(file: SourceFile): string[] {
  const out: string[] = [];
  for (const m of file.text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    out.push(spec.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file.path), spec)) : spec);
  }
  return out;
}

export function findViolations(files: SourceFile[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    for (const target of importsOf(file)) {
      for (const rule of RULES) {
        if (file.path.startsWith(rule.in) && rule.forbids(target)) found.push(`${file.path} imports '${target}': ${rule.why}`);
      }
    }
  }
  return found;
}

function sourcesUnder(dir: string): SourceFile[] {
  const out: SourceFile[] = [];
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourcesUnder(rel));
    else if (/\.(ts|tsx)$/.test(entry.name)) out.push({ path: rel, text: readFileSync(path.join(ROOT, rel), 'utf8') });
  }
  return out;
}

describe('layers (DESIGN.md)', () => {
  it('no file imports across the layers', () => {
    const files = ['domain/src', 'db/src', 'server/src', 'api/src', 'worker/src', 'web/src'].flatMap(sourcesUnder);
    expect(files.length).to.be.greaterThan(100);
    expect(findViolations(files)).to.deep.equal([]);
  });

  it('names the offending import when a forbidden one is added', () => {
    const planted: SourceFile[] = [
      { path: 'worker/src/processors/send-email.ts', text: "import { createApp } from '@platform/api';\n" },
      { path: 'server/src/samples/move-sample.ts', text: "import type { Request } from 'express';\n" },
      { path: 'domain/src/samples/statuses.ts', text: "import { connect } from '@platform/db';\n" },
      { path: 'web/src/api/query.ts', text: "import { showErrorModal } from '../shell/error-modal-store';\n" },
      { path: 'server/src/audit.ts', text: "const api = await import('../../api/src/app');\n" },
    ];
    expect(findViolations(planted)).to.deep.equal([
      "worker/src/processors/send-email.ts imports '@platform/api': the worker never imports the api",
      "server/src/samples/move-sample.ts imports 'express': the server layer never imports express or other HTTP packages",
      "domain/src/samples/statuses.ts imports '@platform/db': domain imports nothing of ours",
      "web/src/api/query.ts imports 'web/src/shell/error-modal-store': the SPA's data layer never imports its UI",
      "server/src/audit.ts imports 'api/src/app': the server layer never imports the api",
    ]);
  });
});
