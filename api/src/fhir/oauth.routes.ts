/**
 * POST /oauth2/token: OAuth 2.0 client credentials (RFC 6749 §4.4) for an account's API clients,
 * client authentication `client_secret_basic` or `client_secret_post` (§2.3.1), answers and errors
 * in the RFC's shape (§5.1, §5.2). Mounted before sessions and CSRF: a machine has no cookie, and
 * the token endpoint takes a form body, as the RFC requires.
 */
import express, { Router, type Request, type Response } from 'express';
import { apiClientCaller, authenticateClient, createTokenThrottle, issueAccessToken } from '@platform/server';
import type { AppContext } from '../context';

type OAuthError = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope' | 'temporarily_unavailable';

function refuse(res: Response, status: number, error: OAuthError, description: string): void {
  res.status(status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json({ error, error_description: description });
}

/** The credentials the client offered: from HTTP Basic (each part form-urlencoded, §2.3.1) or from the body; both at once is refused. */
function offeredCredentials(req: Request): { clientId: string; secret: string; basic: boolean } | { problem: string } {
  const header = req.headers.authorization;
  const body = (req.body ?? {}) as Record<string, unknown>;
  const inBody = typeof body.client_id === 'string' || typeof body.client_secret === 'string';
  if (header) {
    if (inBody && typeof body.client_secret === 'string') return { problem: 'Use one client authentication method, not two' };
    const m = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
    if (!m) return { problem: 'The Authorization header must be HTTP Basic' };
    const decoded = Buffer.from(m[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return { problem: 'The Authorization header must be HTTP Basic' };
    try {
      const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
      return { clientId: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)), basic: true };
    } catch {
      return { problem: 'The Authorization header must be HTTP Basic' };
    }
  }
  if (typeof body.client_id === 'string' && typeof body.client_secret === 'string') return { clientId: body.client_id, secret: body.client_secret, basic: false };
  return { problem: 'Client authentication is required (HTTP Basic, or client_id and client_secret in the body)' };
}

export function oauthRouter(ctx: AppContext): Router {
  const router = Router();
  const throttle = createTokenThrottle(ctx.redis, ctx.config.redisPrefix);
  router.post('/token', express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 20 }), async (req, res) => {
    if (!req.is('application/x-www-form-urlencoded')) return refuse(res, 400, 'invalid_request', 'The body must be application/x-www-form-urlencoded');
    const body = req.body as Record<string, unknown>;
    const credentials = offeredCredentials(req);
    if ('problem' in credentials) return refuse(res, 401, 'invalid_client', credentials.problem);
    const wait = await throttle(credentials.clientId, req.ip ?? '');
    if (wait !== null) {
      res.set('Retry-After', String(wait));
      return refuse(res, 429, 'temporarily_unavailable', `Too many token requests. Try again in ${wait} seconds.`);
    }
    const client = await authenticateClient(ctx, credentials.clientId, credentials.secret);
    if (!client) {
      if (credentials.basic) res.set('WWW-Authenticate', 'Basic realm="oauth2", charset="UTF-8"');
      return refuse(res, 401, 'invalid_client', 'Unknown client or wrong secret');
    }
    if (body.grant_type !== 'client_credentials') {
      return refuse(res, 400, body.grant_type === undefined ? 'invalid_request' : 'unsupported_grant_type', 'grant_type must be client_credentials');
    }
    if (body.scope !== undefined && typeof body.scope !== 'string') return refuse(res, 400, 'invalid_request', 'scope must be a single value');
    const caller = apiClientCaller(client, req.ip ?? null, (res.locals.requestId as string | undefined) ?? null);
    const answer = await issueAccessToken(ctx, client, caller, body.scope);
    if ('invalidScope' in answer) {
      return refuse(res, 400, 'invalid_scope', answer.invalidScope ? `Scope ${answer.invalidScope} is not one this server grants (system/<Type>.rs or system/*.rs)` : 'No scope requested');
    }
    res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json({
      access_token: answer.accessToken, token_type: 'Bearer', expires_in: answer.expiresIn, scope: answer.scope,
    });
  });
  return router;
}
