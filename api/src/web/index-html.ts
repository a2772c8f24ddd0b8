/**
 * The SPA's index.html as the API sends it for a path: for a route whose first paint waits on a
 * lazy route chunk, index.html names that chunk's scripts (modulepreload) and stylesheets, so the
 * browser fetches them beside the main script rather than after it has run (one round trip less on
 * a phone's network; issue 14); where the page's first paint also waits on an API read, that read
 * is preloaded too (the same URL the page asks for, so the browser answers the page from it).
 * Which chunks and reads belong to which paths comes from the build (web/vite.config.ts writes
 * dist/.vite/route-preloads.json from web/src/route-preloads.ts).
 * Every page also names the lab's time zone (LAB_TIME_ZONE) in a meta tag: the SPA reads instants
 * in it from the first paint (web/src/format.ts; docs/lab-time-zone.md).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface RoutePreloadEntry {
  pattern: string;
  scripts: string[];
  styles: string[];
  /** The page's first API read, `__name__` standing for a named group of the pattern or a query parameter. */
  fetch?: string;
}

export interface IndexHtml {
  html: string;
  /** Whether the page carries values of this request (a link's token): then no cache may keep it. */
  personal: boolean;
}

const ROUTE_PRELOADS_FILE = path.join('.vite', 'route-preloads.json');

/** An attribute value as HTML needs it. */
const attribute = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The tags for one route's files, in the form Vite writes its own (crossorigin, as the module scripts load). */
function fileTags(entry: RoutePreloadEntry): string {
  const styles = entry.styles.map((href) => `<link rel="stylesheet" crossorigin href="${attribute(href)}">`);
  const scripts = entry.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${attribute(href)}">`);
  return [...styles, ...scripts].join('');
}

function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * The read's URL for this request, or null when a value it needs is missing: each `__name__` is
 * the path's named group (decoded as the SPA's router decodes it) or the query parameter, encoded
 * as the SPA's fetcher encodes it. The request is then byte for byte the page's own (credentials
 * included, as the fetcher sends them), and the browser answers the page from the preload.
 */
function fetchUrl(template: string, groups: Record<string, string | undefined>, query: URLSearchParams): string | null {
  let missing = false;
  const url = template.replace(/__([A-Za-z]+)__/g, (_slot, name: string) => {
    const fromPath = groups[name] === undefined ? null : decodedOrNull(groups[name]);
    const value = fromPath ?? query.get(name);
    if (value === null || value === '') missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? null : url;
}

/** The meta tag naming the lab's zone; web/src/format.ts reads it (LAB_TIME_ZONE_META). */
const labTimeZoneTag = (zone: string) => `<meta name="lab-time-zone" content="${attribute(zone)}">`;

/**
 * Reads index.html and the route table once (a release replaces the whole dist and restarts the
 * API) and gives the page for a request: the same text with the lab's zone and the route's tags before </head>.
 */
export function indexHtmlForRequests(webDist: string, labTimeZone: string): (pathname: string, query: URLSearchParams) => IndexHtml {
  const built = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const builtHeadEnd = built.indexOf('</head>');
  const html = builtHeadEnd < 0 ? built : `${built.slice(0, builtHeadEnd)}${labTimeZoneTag(labTimeZone)}${built.slice(builtHeadEnd)}`;
  const tablePath = path.join(webDist, ROUTE_PRELOADS_FILE);
  const table = existsSync(tablePath) ? (JSON.parse(readFileSync(tablePath, 'utf8')) as RoutePreloadEntry[]) : [];
  const headEnd = html.indexOf('</head>');
  if (headEnd < 0) return () => ({ html, personal: false });
  const routes = table.map((entry) => ({ entry, pattern: new RegExp(entry.pattern), files: fileTags(entry) }));
  return (pathname, query) => {
    for (const route of routes) {
      const match = route.pattern.exec(pathname);
      if (!match) continue;
      const read = route.entry.fetch ? fetchUrl(route.entry.fetch, match.groups ?? {}, query) : null;
      const readTag = read ? `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${attribute(read)}">` : '';
      return { html: `${html.slice(0, headEnd)}${readTag}${route.files}${html.slice(headEnd)}`, personal: read !== null };
    }
    return { html, personal: false };
  };
}
