/**
 * The Express app: security headers, request ids and logs, JSON bodies, sessions, passport, CSRF,
 * one router per area under /api, the built SPA with deep links, and one error handler.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
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
import { followUpsRouter } from './follow-ups/follow-ups.routes';
import { sampleDetailsRouter } from './provider/sample-details.routes';
import { paymentWebhookRouter } from './webhooks/payment.routes';
import { patientPortalRouter } from './patient-portal/patient-portal.routes';
import { clinicPatientOrdersRouter } from './provider/patient-orders.routes';
import { researchRouter } from './research/research.routes';
import { JSON_BODY_LIMIT } from '@platform/domain';
import { notFound } from '@platform/server';

export function createApp(ctx: AppContext): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.use(helmet({ contentSecurityPolicy: { directives: contentSecurityPolicy(ctx.config) } }));
  app.use(requestContext(ctx.logger));

  // Webhooks verify their own signatures on the raw body: before JSON parsing, sessions and CSRF.
  app.use('/api/webhooks', webhooksRouter(ctx));
  app.use('/api/webhooks', paymentWebhookRouter(ctx));

  app.use('/api', express.json({ limit: JSON_BODY_LIMIT, strict: true }));
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
  app.use('/api', providerRouter(ctx));
  app.use('/api', patientPortalRouter(ctx));
  app.use('/api', accountUsersRouter(ctx));
  app.use('/api', researchRouter(ctx));
  app.use('/api', storageRouter(ctx));
  app.use('/api', labRouter(ctx));
  app.use('/api', limsRouter(ctx));
  app.use('/api', extractionRouter(ctx));
  app.use('/api', reportsRouter(ctx));
  app.use('/api', followUpsRouter(ctx));
  app.use('/api', sampleDetailsRouter(ctx));
  app.use('/api', (_req, _res, next) => next(notFound('No such endpoint')));

  serveWeb(app, ctx.config.webDist);
  app.use(errorHandler(ctx.logger));
  return app;
}

/** The built SPA: hashed assets cached for a year, every other path answered with index.html (deep links). */
function serveWeb(app: Express, webDist: string | null): void {
  if (!webDist || !existsSync(path.join(webDist, 'index.html'))) return;
  app.use('/assets', express.static(path.join(webDist, 'assets'), { immutable: true, maxAge: '365d' }));
  app.use(express.static(webDist, { index: false, maxAge: '1h' }));
  app.get('/{*splat}', (_req, res) => {
    res.set('Cache-Control', 'no-cache').sendFile(path.join(webDist, 'index.html'));
  });
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
