/**
 * Run by `npm run build -w web` after `vite build` (from web/). Prints the gzipped size of the
 * initial JavaScript (index.html's entry and what it imports statically) and of the sign-in
 * route (the entry plus the scripts the build names for the sign-in path in
 * .vite/route-preloads.json: the sign-in pages' chunk and what it imports). Exits non-zero when
 * the sign-in route is over its budget, or when the validation library (joi) reached the browser:
 * the SPA imports values only from domain's joi-free files, never from a *-schemas.ts file.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const SIGN_IN_BUDGET_KIB = 200;
const SIGN_IN_PATH = '/provider/login';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;
interface RoutePreload {
  pattern: string;
  scripts: string[];
}

const dist = resolve(process.argv[2] ?? 'dist');
const manifest = JSON.parse(readFileSync(resolve(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
const routePreloads = JSON.parse(readFileSync(resolve(dist, '.vite/route-preloads.json'), 'utf8')) as RoutePreload[];

const gzippedBytes = new Map<string, number>();
function gzipped(file: string): number {
  let size = gzippedBytes.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(resolve(dist, file)), { level: 9 }).length;
    gzippedBytes.set(file, size);
  }
  return size;
}

/** The chunk keys loaded when `key` is: itself and its static imports, transitively. */
function staticClosure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

function sizeOf(keys: Set<string>, extraScripts: string[] = []): { js: number; css: number; files: string[] } {
  const files = [...new Set([...[...keys].map((key) => manifest[key].file), ...extraScripts])];
  const cssFiles = new Set([...keys].flatMap((key) => manifest[key].css ?? []));
  return {
    js: files.reduce((sum, file) => sum + gzipped(file), 0),
    css: [...cssFiles].reduce((sum, file) => sum + gzipped(file), 0),
    files,
  };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
if (entries.length !== 1) throw new Error(`expected one entry (index.html), found ${entries.join(', ') || 'none'}`);
const signInRoute = routePreloads.find((route) => new RegExp(route.pattern).test(SIGN_IN_PATH));
if (!signInRoute) throw new Error(`.vite/route-preloads.json names no scripts for ${SIGN_IN_PATH}`);

const initial = sizeOf(staticClosure(entries));
const signIn = sizeOf(staticClosure(entries), signInRoute.scripts.map((href) => href.replace(/^\//, '')));

console.log('');
console.log(`Initial JavaScript (index.html entry): ${kib(initial.js)} gzipped  [${initial.files.join(', ')}]`);
console.log(`Initial CSS: ${kib(initial.css)} gzipped`);
console.log(`Sign-in route JavaScript: ${kib(signIn.js)} gzipped (budget ${SIGN_IN_BUDGET_KIB} KiB)  [${signIn.files.join(', ')}]`);

const problems: string[] = [];
if (signIn.js > SIGN_IN_BUDGET_KIB * 1024) {
  problems.push(`The sign-in route is over its budget: ${kib(signIn.js)} > ${SIGN_IN_BUDGET_KIB} KiB gzipped.`);
}

// joi's own message table: present in a chunk only if joi was bundled.
const JOI_MARKER = '"any.required"';
const withJoi = Object.values(manifest)
  .map((chunk) => chunk.file)
  .filter((file) => file.endsWith('.js') && readFileSync(resolve(dist, file), 'utf8').replace(/'/g, '"').includes(JOI_MARKER));
if (withJoi.length) {
  problems.push(`joi was bundled into ${withJoi.join(', ')}: import plain values from domain's joi-free files (orders.ts, pcr-plates.ts, lab-values.ts, …), not from a *-schemas.ts file.`);
}
for (const problem of problems) console.error(problem);
if (problems.length) process.exit(1);
