/**
 * The Express app: security headers, request ids and logs, JSON bodies, sessions, passport, CSRF,
 * one router per area under /api, the built SPA with deep links, and one error handler. Every text
 * answer is compressed (gzip or brotli, as the browser accepts); the SPA's files are compressed at
 * build time (web/vite.config.ts) and sent as they are.
 */
import { existsSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import compression from 'compression';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import helmet from 'helmet';
import type { AppContext } from './context';
import { requestContext } from './http/request-context';
import { errorHandler } from './http/error-handler';
import { csrfProtection, installSessions } from './auth/session';
import { authRouter } from './auth/auth.routes';
import { systemRouter } from './system/system.routes';
import { webhooksRouter } from './webhooks/webhooks.routes';
import { providerRouter } from './provider/provider.routes';
import { labRouter, LAB_UPLOAD_ROUTE } from './lab/lab.routes';
import { limsRouter } from './lab/lims.routes';
import { storageRouter } from './lab/storage.routes';
import { extractionRouter } from './lab/extraction.routes';
import { reportsRouter } from './reports/reports.routes';
import { adminRouter } from './admin/admin.routes';
import { accountUsersRouter } from './provider/account-users.routes';
import { clinicAuditTrailRouter } from './provider/audit-trail.routes';
import { followUpsRouter } from './follow-ups/follow-ups.routes';
import { sampleDetailsRouter } from './provider/sample-details.routes';
import { clinicTurnaroundRouter } from './provider/turnaround.routes';
import { labTurnaroundRouter } from './lab/turnaround.routes';
import { labWorklistRouter } from './lab/worklist.routes';
import { clinicWorklistsRouter } from './provider/worklists.routes';
import { paymentWebhookRouter } from './webhooks/payment.routes';
import { smsWebhookRouter } from './webhooks/sms.routes';
import { clinicPatientTextsRouter } from './provider/patient-texts.routes';
import { patientPortalRouter } from './patient-portal/patient-portal.routes';
import { clinicPatientOrdersRouter } from './provider/patient-orders.routes';
import { clinicalOrdersRouter } from './provider/clinical-orders.routes';
import { researchRouter } from './research/research.routes';
import { clinicApiClientsRouter } from './provider/api-clients.routes';
import { fhirRouter, FHIR_BASE_PATH } from './fhir/fhir.routes';
import { oauthRouter } from './fhir/oauth.routes';
import { indexHtmlForRequests } from './web/index-html';
import { openApiRouter } from './openapi/openapi.routes';
import { JSON_BODY_LIMIT } from '@platform/domain';
import { refuseDeepJson } from './http/json-depth';
import { AppError } from './http/errors';
import { notFound } from '@platform/server';

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.use(helmet({ contentSecurityPolicy: { directives: contentSecurityPolicy(ctx.config) } }));
  app.use(requestContext(ctx.logger));
  app.use(refuseMalformedPath);
  // On the fly for API answers (brotli at quality 4); a file sent already compressed is left as it is.
  app.use(compression());

  // Webhooks verify their own signatures on the raw body: before JSON parsing, sessions and CSRF.
  app.use('/api/webhooks', webhooksRouter(ctx));
  app.use('/api/webhooks', paymentWebhookRouter(ctx));
  app.use('/api/webhooks', smsWebhookRouter(ctx));
  // Machines (an account's EHR): client credentials and bearer tokens, form and FHIR bodies, no session or CSRF.
  app.use('/oauth2', oauthRouter(ctx));
  app.use(FHIR_BASE_PATH, fhirRouter(ctx));

  app.use('/api', express.json({ limit: JSON_BODY_LIMIT, strict: true, verify: refuseDeepJson }));
  app.use('/api', (req, _res, next) => {
    // Any body must be JSON, but a lab upload's: its route reads it raw once the caller is checked.
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    const upload = req.method === 'POST' && req.path === LAB_UPLOAD_ROUTE;
    if (hasBody && !upload && !req.is('application/json')) {
      return next(Object.assign(new Error('unsupported'), { type: 'encoding.unsupported' }));
    }
    next();
  });
  const passport = installSessions(app, ctx);
  app.use('/api', csrfProtection(ctx.config));
  app.use('/api/system', systemRouter(ctx));
  app.use('/api/auth', authRouter(ctx, passport));
  app.use('/api/admin', adminRouter(ctx));
  app.use('/api', clinicPatientOrdersRouter(ctx));
  app.use('/api', clinicalOrdersRouter(ctx));
  app.use('/api', providerRouter(ctx));
  app.use('/api', patientPortalRouter(ctx));
  app.use('/api', accountUsersRouter(ctx));
  app.use('/api', clinicApiClientsRouter(ctx));
  app.use('/api', clinicAuditTrailRouter(ctx));
  app.use('/api', researchRouter(ctx));
  app.use('/api', storageRouter(ctx));
  app.use('/api', labRouter(ctx));
  app.use('/api', limsRouter(ctx));
  app.use('/api', extractionRouter(ctx));
  app.use('/api', reportsRouter(ctx));
  app.use('/api', followUpsRouter(ctx));
  app.use('/api', sampleDetailsRouter(ctx));
  app.use('/api', labTurnaroundRouter(ctx));
  app.use('/api', clinicTurnaroundRouter(ctx));
  app.use('/api', clinicPatientTextsRouter(ctx));
  app.use('/api', labWorklistRouter(ctx));
  app.use('/api', clinicWorklistsRouter(ctx));
  // The API's description, read from every router above (and any mounted before the catch-all).
  app.use('/api', openApiRouter(ctx, app));
  app.use('/api', (_req, _res, next) => next(notFound('No such endpoint')));

  serveWeb(app, ctx.config.webDist, ctx.config.labTimeZone);
  app.use(errorHandler(ctx.logger));
  return app;
}

/**
 * The built SPA, each file sent in its build-time brotli or gzip form when the browser accepts one:
 * hashed assets cached for a year as immutable, index.html revalidated on every visit (a new
 * release is seen at once), other files an hour. Every other path is a deep link: index.html, with
 * the route's own chunks (and its first API read) named in it (api/src/web/index-html.ts),
 * compressed on the fly.
 * A missing asset is a 404, never index.html (a stale chunk must fail as a script, not parse HTML).
 */
function serveWeb(app: Express, webDist: string | null, labTimeZone: string): void {
  if (!webDist || !existsSync(path.join(webDist, 'index.html'))) return;
  const files = expressStaticGzip(webDist, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: { index: false, setHeaders: setCacheHeaders },
  });
  const indexHtmlFor = indexHtmlForRequests(webDist, labTimeZone);
  const sendIndex = (req: Request, res: Response) => {
    const page = indexHtmlFor(req.path, new URL(req.originalUrl, 'http://localhost').searchParams);
    // A page naming a link's token is this request's alone: no cache keeps it.
    res.setHeader('Cache-Control', page.personal ? 'no-store' : 'no-cache');
    res.type('html').send(page.html);
  };
  // index.html itself is the page as the API writes it (the lab's zone in it), never the built file.
  app.get('/index.html', sendIndex);
  app.use(files);
  app.use('/assets', (_req, _res, next) => next(notFound('No such file')));
  app.get('/{*splat}', sendIndex);
}

/**
 * Helmet's default policy, opened only for what Stripe's Payment Element needs when real Stripe is
 * configured (its script, its frames, its API); with the local stand-in the card page is a
 * navigation to the stand-in, which no directive restricts.
 */
function contentSecurityPolicy(config: AppContext['config']): Record<string, Iterable<string>> {
  const defaults = helmet.contentSecurityPolicy.getDefaultDirectives();
  if (config.stripe.apiUrl) return defaults as Record<string, Iterable<string>>;
  return {
    ...defaults,
    'script-src': ["'self'", 'https://js.stripe.com'],
    'frame-src': ["'self'", 'https://js.stripe.com', 'https://hooks.stripe.com'],
    'connect-src': ["'self'", 'https://api.stripe.com'],
  } as Record<string, Iterable<string>>;
}

function setCacheHeaders(res: ServerResponse, file: string): void {
  const name = path.basename(file).replace(/\.(br|gz)$/, '');
  if (name === 'index.html') res.setHeader('Cache-Control', 'no-cache');
  else if (path.basename(path.dirname(file)) === 'assets') res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  else res.setHeader('Cache-Control', 'public, max-age=3600');
}

/**
 * A path whose percent-encoding is broken (/%E0%A4%A) is refused before anything reads it, in the
 * one error shape: the static file server would otherwise answer it with an HTML page of its own.
 */
const refuseMalformedPath: RequestHandler = (req, _res, next) => {
  try {
    decodeURIComponent(req.path);
  } catch {
    return next(new AppError(400, 'bad_request', 'The request is malformed'));
  }
  next();
};
