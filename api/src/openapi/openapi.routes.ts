/**
 * The API's description and its reference page: GET /api/openapi.json (document.ts, built from the
 * route table on the first request, when every router is mounted) and GET /api/docs, Swagger UI
 * served from the installed swagger-ui-dist package, nothing from a CDN. The page runs under the
 * app's Content-Security-Policy (script-src 'self'): its scripts are files, none inline.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Router, type Express, type RequestHandler } from 'express';
import { shapes } from '@platform/domain';
import type { AppContext } from '../context';
import { publicRoute } from '../http/route-policy';
import { routeTable } from '../http/route-table';
import { answers, answersFile } from '../http/answers';
import { openApiDocument, type OpenApiDocument } from './document';

const SWAGGER_UI_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The page's own start-up script: loads the document, and sends the CSRF token with every state change. */
const START_SCRIPT = `'use strict';
function csrfToken() {
  return fetch('/api/auth/csrf', { credentials: 'same-origin' }).then(function (res) { return res.json(); }).then(function (body) { return body.csrfToken; });
}
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    requestInterceptor: function (req) {
      if (/^(GET|HEAD|OPTIONS)$/i.test(req.method || 'GET')) return req;
      return csrfToken().then(function (token) { req.headers['x-csrf-token'] = token; return req; });
    },
  });
});
`;

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/start.js"></script>
</body>
</html>
`;

/** The page's files under /api/docs/: the two Swagger UI needs from the package, and the start-up script. Nothing else is served. */
function docsAssets(): RequestHandler {
  const files: Record<string, string> = { '/swagger-ui.css': 'swagger-ui.css', '/swagger-ui-bundle.js': 'swagger-ui-bundle.js' };
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/start.js') return void res.type('text/javascript').set('Cache-Control', 'no-cache').send(START_SCRIPT);
    const file = files[req.path];
    if (!file) return next();
    res.sendFile(path.join(SWAGGER_UI_DIR, file), { maxAge: '1h' }, (err) => err && next(err));
  };
}

/** Mounted at /api, after every other router; `app` is read for its route table. */
export function openApiRouter(ctx: AppContext, app: Express): Router {
  const router = Router();
  const open = publicRoute("the API's description: it names no data");
  let document: OpenApiDocument | undefined;
  const title = `${ctx.config.brand} Platform API`;

  router.get('/openapi.json', open, answers(200, shapes.dictionary(shapes.unknown)), (_req, res) => {
    document ??= openApiDocument(routeTable(app), { title, version: ctx.config.buildId });
    res.set('Cache-Control', 'no-cache').json(document);
  });
  router.get('/docs', open, answersFile('text/html'), (_req, res) => {
    res.set('Cache-Control', 'no-cache').type('html').send(page(title));
  });
  router.use('/docs', docsAssets());
  return router;
}
