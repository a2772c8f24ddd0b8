/**
 * The API's route table read back from the mounted Express routers: every route under /api with
 * the policies, input schemas, checks and declared answers its request meets on the way
 * (route-policy.ts), found by walking the app's stack as Express does (a router-level
 * `router.use(path, guard)` applies to every route after it whose path it matches, in that router
 * or a later one mounted on the same prefix). Routers merged later are covered without naming them
 * anywhere. The one reading of the table: the OpenAPI document (api/src/openapi) and the tests (the
 * access matrix, the OpenAPI drift test) all use it.
 */
import type { Express } from 'express';
import {
  answerOf, checkOf, inputOf, policyOf, rawBodyOf, textParamsOf, type RouteAnswer, type RouteCheck, type RouteInput, type RoutePolicy, type RouteRawBody,
} from './route-policy';

type Match = false | { path: string; params: Record<string, unknown> };

interface Layer {
  handle: ((...args: unknown[]) => unknown) & { stack?: Layer[] };
  matchers: ((path: string) => Match)[];
  rawPath?: string | string[];
  slash?: boolean;
  method?: string;
  route?: Route;
}

interface Route {
  path: string | string[];
  methods: Record<string, boolean>;
  stack: Layer[];
}

export interface RouteEntry {
  method: string;
  /** The full pattern, e.g. /api/provider-clinic/:accountId/patient/:patientId */
  pattern: string;
  /** The guards met on the way, in the order they run (public declarations included). */
  policies: RoutePolicy[];
  /** The body and query schemas it validates against. */
  inputs: RouteInput[];
  /** What it answers when it succeeds (answers(), http/answers.ts). */
  answers: RouteAnswer[];
  /** A body read raw, not as JSON (a file upload). */
  rawBody?: RouteRawBody;
  /** The checks met on the way (CSRF). */
  checks: RouteCheck[];
  /** Path parameters named like ids that are text (http/path-id.ts textParams). */
  textParams: string[];
}

type Found = Omit<RouteEntry, 'method' | 'pattern'>;

const joinPath = (prefix: string, p: string) => (p === '/' ? prefix || '/' : `${prefix}${p}`);

/** A request path for a pattern: each :param (and *splat) replaced by the value given for its name. */
export function samplePath(pattern: string, value: (param: string) => string): string {
  return pattern
    .replace(/[{}]/g, '')
    .replace(/[:*](\w+)/g, (_m, name: string) => encodeURIComponent(value(name)));
}

/** Every (method, pattern, route) under the stack, depth first. */
function listRoutes(stack: Layer[], prefix: string, out: { method: string; pattern: string; route: Route }[]): void {
  for (const layer of stack) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
      for (const p of paths) {
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all' && layer.route!.methods[m])) {
          out.push({ method, pattern: joinPath(prefix, p), route: layer.route });
        }
      }
    } else if (layer.handle.stack) {
      const mounts = layer.rawPath === undefined ? ['/'] : Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath];
      for (const mount of mounts) listRoutes(layer.handle.stack, joinPath(prefix, mount === '/' ? '' : mount), out);
    }
  }
}

function matches(layer: Layer, path: string): Match {
  if (layer.slash) return { path: '', params: {} }; // use() without a path: every request
  for (const matcher of layer.matchers) {
    const m = matcher(path);
    if (m) return m;
  }
  return false;
}

/**
 * Walks the stack as a request for `path` would, collecting tagged handlers until the target route;
 * true once the target was reached.
 */
function walk(stack: Layer[], path: string, method: string, target: Route, found: Found): boolean {
  for (const layer of stack) {
    if (layer.route) {
      if (layer.route !== target) continue;
      for (const inner of layer.route.stack) {
        if (inner.method && inner.method !== method) continue;
        const policy = policyOf(inner.handle);
        const input = inputOf(inner.handle);
        const answer = answerOf(inner.handle);
        if (policy) found.policies.push(policy);
        if (input) found.inputs.push(input);
        if (answer) found.answers.push(answer);
        found.rawBody ??= rawBodyOf(inner.handle);
        found.textParams.push(...(textParamsOf(inner.handle) ?? []));
      }
      return true;
    }
    const m = matches(layer, path);
    if (!m) continue;
    if (layer.handle.stack) {
      const rest = path.slice(m.path.length) || '/';
      if (walk(layer.handle.stack, rest.startsWith('/') ? rest : `/${rest}`, method, target, found)) return true;
    } else if (layer.handle.length < 4) {
      const policy = policyOf(layer.handle);
      const check = checkOf(layer.handle);
      if (policy) found.policies.push(policy);
      if (check) found.checks.push(check);
    }
  }
  return false;
}

/** Every route of the app under /api, with what it declares. */
export function routeTable(app: Express): RouteEntry[] {
  const root = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  const all: { method: string; pattern: string; route: Route }[] = [];
  listRoutes(root, '', all);
  return all
    .filter((r) => r.pattern.startsWith('/api/'))
    .map(({ method, pattern, route }) => {
      const found: Found = { policies: [], inputs: [], answers: [], checks: [], textParams: [] };
      const reached = walk(root, samplePath(pattern, () => '1'), method, route, found);
      if (!reached) throw new Error(`${method.toUpperCase()} ${pattern}: the route table walk did not reach it (shadowed by an earlier route?)`);
      return { method, pattern, ...found };
    });
}
