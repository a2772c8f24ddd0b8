/**
 * Which lazy route module (routes.tsx) draws the page at a path, for the pages where the first
 * paint waits on it. The build (web/vite.config.ts) turns each into the route chunk's scripts and
 * stylesheets (dist/.vite/route-preloads.json); the API names them in the index.html it sends for
 * a matching path (api/src/web/index-html.ts), so the browser fetches them beside the main script
 * instead of after it has run: one round trip less before the page paints on a phone's network.
 * The first pattern that matches wins. The build fails if a module named here is not a lazy route
 * module of the bundle.
 */
// Plain paths, and imports only of files that import nothing at run time: the build's config
// loads this file, and it cannot load the domain's TypeScript. route-preloads.test.ts checks the
// paths against the portals' paths and routes.tsx.
import { API_PREFIX } from './api/fetcher';
import { patientResultPath } from './api/patient-result-path';

export interface RoutePreload {
  /** Matched against the request's path (no query). */
  pattern: RegExp;
  /** The module routes.tsx imports lazily for it, relative to web/. */
  module: string;
  /**
   * The page's first API request, fetched beside the scripts (a `preload` of the same URL the page
   * then asks for): `__name__` stands for the pattern's named group or the query parameter
   * `name`, URL-encoded. Only for a read the page always makes at once, with no side effect
   * beyond its audit row.
   */
  fetch?: string;
}

/** A placeholder that encodeURIComponent leaves as it is. */
const slot = (name: string) => `__${name}__`;

export const ROUTE_PRELOADS: RoutePreload[] = [
  { pattern: /^\/(admin|provider|provider-research|lab_toolbox)\/(login|forgot-password|reset-password)\/?$/, module: 'src/pages/auth/index.ts' },
  { pattern: /^\/provider\/request-access\/?$/, module: 'src/pages/auth/RequestAccessPage.tsx' },
  {
    pattern: /^\/reports\/patient_result\/(?<barcode>[^/]+)\/?$/,
    module: 'src/pages/reports/index.ts',
    fetch: `${API_PREFIX}${patientResultPath(slot('barcode'), slot('token'))}`,
  },
  { pattern: /^\/patient-portal\/sample-follow-up\//, module: 'src/pages/patient-portal/SampleFollowUpResponsePage.tsx' },
  { pattern: /^\/patient-portal\/order\//, module: 'src/pages/patient-portal/index.ts' },
  { pattern: /^\/registry\/study\//, module: 'src/pages/registry/RegistrySurveyPage.tsx' },
  { pattern: /^\/provider-clinic\/[^/]+/, module: 'src/pages/clinic/index.ts' },
  { pattern: /^\/provider-research\/[^/]+/, module: 'src/pages/research/index.ts' },
  { pattern: /^\/lab_toolbox(\/|$)/, module: 'src/pages/lab/index.ts' },
  { pattern: /^\/admin(\/|$)/, module: 'src/pages/admin/index.ts' },
];
