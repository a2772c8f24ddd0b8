/**
 * Sessions stored in PostgreSQL (HttpOnly cookie, SameSite=Lax, rolling idle timeout), passport
 * with the local strategy, and CSRF protection with a synchroniser token kept in the session.
 */
import type { Express, RequestHandler } from 'express';
import session from 'express-session';
import connectPgSimple from 'connect-pg-simple';
import { Passport, type PassportStatic } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { csrfSync } from 'csrf-sync';
import { SESSION_IDLE_MINUTES, type SignInPortal } from '@platform/domain';
import type { AppContext } from '../context';
import { loadSessionUser, verifyCredentials } from './auth.service';
import './session-user';

export const SESSION_COOKIE = 'platform.sid';

/** Returns the app's own Passport (not the global one: each app, e.g. each test's, has its own context). */
export function installSessions(app: Express, ctx: AppContext): PassportStatic {
  const passport = new Passport() as PassportStatic;
  const PgStore = connectPgSimple(session);
  app.use(
    session({
      name: SESSION_COOKIE,
      store: new PgStore({ pool: ctx.sessionPool, tableName: 'session', createTableIfMissing: false, pruneSessionInterval: 15 * 60 }),
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
  return passport;
}

const csrf = csrfSync({ getTokenFromRequest: (req) => req.get('x-csrf-token') });

/** Refuses a state-changing request without the session's CSRF token (GET, HEAD, OPTIONS pass). */
export const csrfProtection: RequestHandler = csrf.csrfSynchronisedProtection;
export const csrfToken = (req: Parameters<RequestHandler>[0]) => csrf.generateToken(req);
