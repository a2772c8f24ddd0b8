/**
 * Sessions stored in PostgreSQL (HttpOnly cookie, SameSite=Lax, rolling idle timeout), passport
 * with the local strategy, and CSRF protection: a signed-in session keeps a synchroniser token in
 * the session; an anonymous caller gets a signed double-submit token (an HttpOnly SameSite=Strict
 * cookie the header must match), so anonymous reads store no session row.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Express, Request, RequestHandler, Response } from 'express';
import session from 'express-session';
import { Passport, type PassportStatic } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { csrfSync } from 'csrf-sync';
import { SESSION_ABSOLUTE_HOURS, SESSION_IDLE_MINUTES, type SignInPortal, type UserKind } from '@platform/domain';
import type { AppContext } from '../context';
import { loadSessionUser, verifyCredentials } from '@platform/server/access/sign-in';
import { declareCheck } from '../http/route-policy';
import './session-user';

export const SESSION_COOKIE = 'platform.sid';

/** Returns the app's own Passport (not the global one: each app, e.g. each test's, has its own context). */
export function installSessions(app: Express, ctx: AppContext): PassportStatic {
  const passport = new Passport() as PassportStatic;
  app.use(
    session({
      name: SESSION_COOKIE,
      store: throttleTouches(cacheSessions(ctx.sessionStore, ctx)),
      secret: ctx.config.sessionSecret,
      resave: false,
      saveUninitialized: false,
      rolling: true,
      cookie: { httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies, maxAge: SESSION_IDLE_MINUTES * 60_000 },
    }),
  );

  passport.use(
    new LocalStrategy({ usernameField: 'email', passwordField: 'password', passReqToCallback: true, session: true }, (req, email, password, done) => {
      verifyCredentials(ctx, email, password, req.body.portal as SignInPortal).then(
        (check) => (check && 'user' in check ? done(null, check.user) : done(null, false, check ? { message: 'wrong portal', ...check } : undefined)),
        done,
      );
    }),
  );
  passport.serializeUser((user, done) => done(null, user.id));
  passport.deserializeUser((id: number, done) => {
    loadSessionUser(ctx, Number(id)).then((user) => done(null, user ?? false), done);
  });
  app.use(passport.initialize());
  app.use(passport.session());
  app.use(endSessionPastItsLifetime);
  return passport;
}

/** Whether a signed-in session has outlived its absolute lifetime (a session from before lifetimes were kept has). */
export function pastLifetime(kind: UserKind, signedInAt: number | undefined, now = Date.now()): boolean {
  return signedInAt === undefined || now - signedInAt > SESSION_ABSOLUTE_HOURS[kind] * 3_600_000;
}

/**
 * However active it is, a session ends SESSION_ABSOLUTE_HOURS after its sign-in: the request goes
 * on signed out (a fresh, empty session), so a page answers 401 and the SPA asks for the password.
 */
const endSessionPastItsLifetime: RequestHandler = (req, _res, next) => {
  if (!req.user || !pastLifetime(req.user.kind, req.session.signedInAt)) return next();
  req.session.regenerate((err) => {
    if (err) return next(err);
    req.user = undefined;
    next();
  });
};

/**
 * Session reads through the process's auth cache (server/src/access/auth-cache.ts): a cached row is served while it
 * has not expired and no notification dropped it; this process's own writes drop it at once.
 * Without a cache (or while it is not listening) every read goes to PostgreSQL as before.
 */
function cacheSessions(store: session.Store, ctx: Pick<AppContext, 'sessionPool' | 'authCache'>): session.Store {
  const cache = ctx.authCache;
  if (!cache) return store;
  const read = async (sid: string) => {
    const { rows } = await ctx.sessionPool.query<{ sess: unknown; expires_ms: string }>(
      `SELECT sess, (extract(epoch FROM expire) * 1000)::bigint AS expires_ms FROM "session" WHERE sid = $1 AND expire >= now()`, [sid]);
    if (!rows.length) return null;
    return { json: typeof rows[0].sess === 'string' ? rows[0].sess : JSON.stringify(rows[0].sess), expiresAt: Number(rows[0].expires_ms) };
  };
  store.get = (sid, callback) => {
    cache.session(sid, () => read(sid)).then(
      (row) => {
        let sess: session.SessionData | null = null;
        try {
          sess = row ? (JSON.parse(row.json) as session.SessionData) : null;
        } catch {
          return store.destroy(sid, (err) => callback(err));
        }
        callback(null, sess);
      },
      (err: Error) => callback(err),
    );
  };
  for (const method of ['set', 'destroy', 'touch'] as const) {
    const write = store[method]!.bind(store) as (sid: string, ...rest: unknown[]) => void;
    (store as unknown as Record<string, unknown>)[method] = (sid: string, ...rest: unknown[]) => {
      cache.forgetSession(sid);
      const callback = rest.at(-1);
      const done = (err?: unknown) => {
        // A read between the forget and the commit may have cached the old row: forget it again.
        cache.forgetSession(sid);
        if (typeof callback === 'function') callback(err);
      };
      write(sid, ...(typeof callback === 'function' ? rest.slice(0, -1) : rest), done);
    };
  }
  return store;
}

/** How often an unchanged session's expiry is written: the cookie rolls on every answer, the row at most once a minute. */
export const SESSION_TOUCH_EVERY_MS = 60_000;
const TOUCHED_REMEMBERED = 50_000;

/**
 * Rolling sessions without a write per request: express-session calls touch() after every answer
 * of an unchanged session, which connect-pg-simple turns into an UPDATE of the session row. Here a
 * session's row is touched at most once per SESSION_TOUCH_EVERY_MS by this process, so a session
 * stored with a 30-minute idle expiry ends between 29 and 30 minutes after its last request
 * (saves and regeneration always write).
 */
function throttleTouches(store: session.Store): session.Store {
  const touched = new Map<string, number>();
  const touch = store.touch!.bind(store);
  store.touch = (sid, sess, callback) => {
    const now = Date.now();
    const last = touched.get(sid);
    if (last !== undefined && now - last < SESSION_TOUCH_EVERY_MS) return callback?.();
    if (touched.size >= TOUCHED_REMEMBERED) touched.clear();
    touched.set(sid, now);
    touch(sid, sess, callback);
  };
  const destroy = store.destroy.bind(store);
  store.destroy = (sid, callback) => {
    touched.delete(sid);
    destroy(sid, callback);
  };
  return store;
}

const csrf = csrfSync({ getTokenFromRequest: (req) => req.get('x-csrf-token') });

/** The anonymous caller's CSRF cookie: `{nonce}.{hmac}`, the same value the x-csrf-token header must carry. */
export const CSRF_COOKIE = 'platform.csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

interface CsrfConfig {
  sessionSecret: string;
  secureCookies: boolean;
}

const signNonce = (secret: string, nonce: string) => createHmac('sha256', secret).update(`csrf:${nonce}`).digest('base64url');

export function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A token this server signed (a value merely set in the cookie by someone else is not one). */
function isSignedToken(secret: string, token: string | undefined): token is string {
  if (!token) return false;
  const [nonce, mac, ...rest] = token.split('.');
  return rest.length === 0 && !!nonce && !!mac && sameString(mac, signNonce(secret, nonce));
}

export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** A signed-in session is stored anyway: its token lives in it. An anonymous caller's lives in a cookie. */
const signedIn = (req: Request) => req.user !== undefined;

/**
 * Refuses a state-changing request without its CSRF token (GET, HEAD, OPTIONS pass): a signed-in
 * session's synchroniser token, or for an anonymous caller the header matching the signed cookie
 * (a cross-site page can neither read the token nor, SameSite=Strict, send the cookie).
 */
export function csrfProtection(config: CsrfConfig): RequestHandler {
  return declareCheck((req, res, next) => {
    if (signedIn(req)) return csrf.csrfSynchronisedProtection(req, res, next);
    if (SAFE_METHODS.has(req.method)) return next();
    const header = req.get('x-csrf-token');
    const cookie = cookieOf(req, CSRF_COOKIE);
    if (header && cookie && sameString(header, cookie) && isSignedToken(config.sessionSecret, header)) return next();
    next(csrf.invalidCsrfTokenError);
  }, 'csrf');
}

/** The caller's CSRF token; for an anonymous caller nothing is written to the session (no session row). */
export function csrfToken(req: Request, res: Response, config: CsrfConfig): string {
  if (signedIn(req)) return csrf.generateToken(req);
  const existing = cookieOf(req, CSRF_COOKIE);
  if (isSignedToken(config.sessionSecret, existing)) return existing;
  const nonce = randomBytes(24).toString('base64url');
  const token = `${nonce}.${signNonce(config.sessionSecret, nonce)}`;
  res.cookie(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: config.secureCookies, path: '/api' });
  return token;
}
