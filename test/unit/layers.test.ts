/**
 * The layers of DESIGN.md, held by a test: web -> domain; api -> server -> db -> domain;
 * worker -> server. Within them: api keeps HTTP only (no use case, no Sequelize outside auth and
 * sessions); no portal imports another portal's folder (api and web pages); server's capabilities
 * import each other downward only (CAPABILITY_ORDER); a sample's status event is written in
 * server/src/samples only (the product's code: seed and bench data are written directly). Each
 * finding names the file, the import and the rule it breaks.
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
  why: string | ((file: string, target: string) => string);
  /** True when the import (a package name, or a repo-relative path for relative imports) is forbidden in that file. */
  forbids(target: string, file: string): boolean;
}

/**
 * server/src's capabilities, lowest first: each may import those before it, never one after it
 * (orders may use samples and patients; samples never use orders). Files at server/src's root are
 * the infrastructure every capability stands on: they import no capability (index.ts, the package's
 * barrel, apart).
 */
export const CAPABILITY_ORDER = [
  'jobs', 'auth', 'email', 'sms', 'webhooks', 'hl7', 'patients', 'accounts', 'api-clients', 'access', 'samples', 'shipments', 'pcr', 'imports', 'extractions',
  'research', 'diagnoses', 'orders', 'follow-ups', 'results', 'payments', 'patient-orders', 'fhir', 'audit-trail', 'labels',
  'turnaround', 'worklists',
] as const;

/** The folder right under `root` a path is in (null for a file at the root itself). */
function folderUnder(root: string, p: string): string | null {
  if (!p.startsWith(root)) return null;
  const rest = p.slice(root.length).split('/');
  return rest.length > 1 ? rest[0] : null;
}

/** api/src folders every portal's routes share: they are not portals. */
const API_SHARED = ['http', 'auth'];

const capabilityRank = (name: string | null) => (name === null ? -1 : (CAPABILITY_ORDER as readonly string[]).indexOf(name));

/** The portal folder of a file under api/src or web/src/pages (null for shared code). */
function portalOf(p: string): string | null {
  const api = folderUnder('api/src/', p);
  if (api !== null) return API_SHARED.includes(api) ? null : `api/src/${api}`;
  const page = folderUnder('web/src/pages/', p);
  return page === null ? null : `web/src/pages/${page}`;
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
  {
    in: 'api/src/', why: 'api keeps HTTP only: the database is reached through a capability of server/src (auth and sessions apart)',
    forbids: (t, file) => !file.startsWith('api/src/auth/') && ['sequelize', '@platform/db'].includes(packageOf(t)),
  },
  {
    in: 'api/src/', why: (file, t) => `no portal imports another portal's folder (${portalOf(file)} is not ${portalOf(t)}): what both need lives in server/src`,
    forbids: (t, file) => portalOf(file) !== null && portalOf(t) !== null && portalOf(t) !== portalOf(file),
  },
  {
    in: 'web/src/pages/', why: (file, t) => `no portal imports another portal's pages (${portalOf(file)} is not ${portalOf(t)}): what both need lives in web/src/components`,
    forbids: (t, file) => portalOf(t) !== null && portalOf(t) !== portalOf(file),
  },
  {
    in: 'server/src/', why: (file, t) => folderUnder('server/src/', file) === null
      ? 'server/src\'s infrastructure imports no capability'
      : `capabilities import each other downward only (${folderUnder('server/src/', file)} may not use ${folderUnder('server/src/', t)}: see CAPABILITY_ORDER)`,
    forbids: (t, file) => {
      if (file === 'server/src/index.ts' || !t.startsWith('server/src/')) return false;
      const target = capabilityRank(folderUnder('server/src/', t));
      return target >= 0 && target > capabilityRank(folderUnder('server/src/', file));
    },
  },
];

/** Files whose text may write a sample's status event: the lifecycle's own module. */
const STATUS_EVENT_WRITE = /SampleStatusEvent\.(?:create|bulkCreate)\b|INSERT\s+INTO\s+sample_status_events\b/i;

/** Product code outside server/src/samples that writes a status event itself (not through moveSample / createSample). */
export function statusEventWriters(files: SourceFile[]): string[] {
  return files
    .filter((f) => /^(api|server|worker)\/src\//.test(f.path) && !f.path.startsWith('server/src/samples/') && STATUS_EVENT_WRITE.test(f.text))
    .map((f) => `${f.path} writes a sample status event: a sample's status changes only through moveSample (server/src/samples)`);
}

/** Use-case files left in the HTTP package. */
export function servicesInApi(files: SourceFile[]): string[] {
  return files
    .filter((f) => f.path.startsWith('api/src/') && !f.path.startsWith('api/src/auth/') && f.path.endsWith('.service.ts'))
    .map((f) => `${f.path}: a use case lives in its capability under server/src, api keeps HTTP only`);
}

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
        if (!file.path.startsWith(rule.in) || !rule.forbids(target, file.path)) continue;
        found.push(`${file.path} imports '${target}': ${typeof rule.why === 'string' ? rule.why : rule.why(file.path, target)}`);
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
  const everyFile = () => ['domain/src', 'db/src', 'server/src', 'api/src', 'worker/src', 'web/src'].flatMap(sourcesUnder);

  it('no file imports across the layers, a portal, or up the capabilities', () => {
    const files = everyFile();
    expect(files.length).to.be.greaterThan(100);
    expect(findViolations(files)).to.deep.equal([]);
  });

  it('every capability of server/src is in CAPABILITY_ORDER', () => {
    const folders = readdirSync(path.join(ROOT, 'server/src'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => capabilityRank(f) < 0)).to.deep.equal([]);
  });

  it('a sample\'s status event is written in server/src/samples only, and api holds no use case', () => {
    const files = everyFile();
    expect(statusEventWriters(files)).to.deep.equal([]);
    expect(servicesInApi(files)).to.deep.equal([]);
  });

  it('names the offending file when a status event is written elsewhere or a use case is left in api', () => {
    const planted: SourceFile[] = [
      { path: 'server/src/orders/orders.ts', text: 'await m.SampleStatusEvent.create({ sampleId });\n' },
      { path: 'worker/src/processors/lab-import.ts', text: 'await db.query(`INSERT INTO sample_status_events (sample_id) VALUES (1)`);\n' },
      { path: 'server/src/samples/move-sample.ts', text: 'await db.models.SampleStatusEvent.create({ sampleId });\n' },
      { path: 'api/src/lab/intake.service.ts', text: '' },
    ];
    expect([...statusEventWriters(planted), ...servicesInApi(planted)]).to.deep.equal([
      "server/src/orders/orders.ts writes a sample status event: a sample's status changes only through moveSample (server/src/samples)",
      "worker/src/processors/lab-import.ts writes a sample status event: a sample's status changes only through moveSample (server/src/samples)",
      'api/src/lab/intake.service.ts: a use case lives in its capability under server/src, api keeps HTTP only',
    ]);
  });

  it('names the offending import when a forbidden one is added', () => {
    const planted: SourceFile[] = [
      { path: 'worker/src/processors/send-email.ts', text: "import { createApp } from '@platform/api';\n" },
      { path: 'server/src/samples/move-sample.ts', text: "import type { Request } from 'express';\n" },
      { path: 'domain/src/samples/statuses.ts', text: "import { connect } from '@platform/db';\n" },
      { path: 'web/src/api/query.ts', text: "import { showErrorModal } from '../shell/error-modal-store';\n" },
      { path: 'server/src/audit.ts', text: "const api = await import('../../api/src/app');\n" },
      { path: 'api/src/lab/lab.routes.ts', text: "import { Op } from 'sequelize';\nimport { listPatients } from '../provider/provider.routes';\n" },
      { path: 'web/src/pages/research/ResearchTestsPage.tsx', text: "import { StatusBadge } from '../clinic/StatusBadge';\n" },
      { path: 'server/src/samples/intake.ts', text: "import { writeProviderOrder } from '../orders/orders';\n" },
      { path: 'server/src/audit.ts', text: "import { moveSample } from './samples/move-sample';\n" },
    ];
    expect(findViolations(planted)).to.deep.equal([
      "worker/src/processors/send-email.ts imports '@platform/api': the worker never imports the api",
      "server/src/samples/move-sample.ts imports 'express': the server layer never imports express or other HTTP packages",
      "domain/src/samples/statuses.ts imports '@platform/db': domain imports nothing of ours",
      "web/src/api/query.ts imports 'web/src/shell/error-modal-store': the SPA's data layer never imports its UI",
      "server/src/audit.ts imports 'api/src/app': the server layer never imports the api",
      "api/src/lab/lab.routes.ts imports 'sequelize': api keeps HTTP only: the database is reached through a capability of server/src (auth and sessions apart)",
      "api/src/lab/lab.routes.ts imports 'api/src/provider/provider.routes': no portal imports another portal's folder (api/src/lab is not api/src/provider): what both need lives in server/src",
      "web/src/pages/research/ResearchTestsPage.tsx imports 'web/src/pages/clinic/StatusBadge': no portal imports another portal's pages (web/src/pages/research is not web/src/pages/clinic): what both need lives in web/src/components",
      "server/src/samples/intake.ts imports 'server/src/orders/orders': capabilities import each other downward only (samples may not use orders: see CAPABILITY_ORDER)",
      "server/src/audit.ts imports 'server/src/samples/move-sample': server/src's infrastructure imports no capability",
    ]);
  });
});
