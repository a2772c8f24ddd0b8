/**
 * The SPA's index.html as the API sends it for a path: for a route whose first paint waits on a
 * lazy route chunk, index.html names that chunk's scripts (modulepreload) and stylesheets, so the
 * browser fetches them beside the main script rather than after it has run (one round trip less on
 * a phone's network; issue 14). Which chunks belong to which paths comes from the build
 * (web/vite.config.ts writes dist/.vite/route-preloads.json from web/src/route-preloads.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface RoutePreloadEntry {
  pattern: string;
  scripts: string[];
  styles: string[];
}

const ROUTE_PRELOADS_FILE = path.join('.vite', 'route-preloads.json');

/** An attribute value as HTML needs it (the build's file names never need it; a hand-edited file might). */
const attribute = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

/** The tags for one route, in the form Vite writes its own (crossorigin, as the module scripts load). */
function preloadTags(entry: RoutePreloadEntry): string {
  const styles = entry.styles.map((href) => `<link rel="stylesheet" crossorigin href="${attribute(href)}">`);
  const scripts = entry.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${attribute(href)}">`);
  return [...styles, ...scripts].join('');
}

/**
 * Reads index.html and the route table once (a release replaces the whole dist and restarts the
 * API) and gives the page for a path: the same text with the route's tags before </head>.
 */
export function indexHtmlForPaths(webDist: string): (pathname: string) => string {
  const html = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  const tablePath = path.join(webDist, ROUTE_PRELOADS_FILE);
  const table = existsSync(tablePath) ? (JSON.parse(readFileSync(tablePath, 'utf8')) as RoutePreloadEntry[]) : [];
  const headEnd = html.indexOf('</head>');
  const routes = headEnd < 0 ? [] : table.map((entry) => ({ pattern: new RegExp(entry.pattern), html: `${html.slice(0, headEnd)}${preloadTags(entry)}${html.slice(headEnd)}` }));
  return (pathname) => routes.find((route) => route.pattern.test(pathname))?.html ?? html;
}
