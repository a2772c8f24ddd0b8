/** supertest agents on the real app: one that carries a session cookie and sends the CSRF token. */
import request from 'supertest';
import type { Express } from 'express';
import type { Server } from 'node:http';
import { createApp, createContext, closeContext, type AppContext } from '@platform/api';
import type { SignInPortal } from '@platform/domain';
import { DEMO_PASSWORD, DEMO_USERS, type DemoUserKey } from '../../scripts/demo-users';
import { signInCompletely, type SignInClient } from '../../scripts/second-step';
import { testConfig } from './server';

export interface TestApp {
  ctx: AppContext;
  app: Express;
  close(): Promise<void>;
}

export async function buildTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const ctx = await createContext(testConfig(overrides));
  const app = createApp(ctx);
  databaseOf.set(app, ctx.config.databaseUrl);
  return { ctx, app, close: () => closeContext(ctx) };
}

/** Which database an app reads (what a second step learnt is kept per database and user). */
const databaseOf = new WeakMap<Express, string>();

/** The app listening on a port of its own on 127.0.0.1: for what must reach it by URL (a stand-in's webhooks). */
export async function listenOnLoopback(app: Express): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  return {
    baseUrl: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

export interface Session {
  agent: ReturnType<typeof request.agent>;
  csrf: string;
  refreshCsrf(): Promise<string>;
  post(path: string, body?: unknown): request.Test;
  put(path: string, body?: unknown): request.Test;
}

/** A browser-like client: keeps cookies, fetches a CSRF token and sends it on every POST and PUT. */
export async function newSession(app: Express, ip = '10.9.0.1'): Promise<Session> {
  const agent = request.agent(app);
  const session: Session = {
    agent,
    csrf: '',
    async refreshCsrf() {
      const res = await agent.get('/api/auth/csrf').set('X-Forwarded-For', ip).expect(200);
      session.csrf = res.body.csrfToken;
      return session.csrf;
    },
    post(path, body) {
      return agent.post(path).set('x-csrf-token', session.csrf).set('X-Forwarded-For', ip).send(body as object);
    },
    put(path, body) {
      return agent.put(path).set('x-csrf-token', session.csrf).set('X-Forwarded-For', ip).send(body as object);
    },
  };
  await session.refreshCsrf();
  return session;
}

export async function signIn(app: Express, who: DemoUserKey, portal: SignInPortal, ip?: string): Promise<Session> {
  return signInWith(app, { email: DEMO_USERS[who].email, password: DEMO_PASSWORD, portal }, ip);
}

/** The session as a client of the sign-in that completes a second step (scripts/second-step.ts). */
function signInClient(session: Session): SignInClient {
  return {
    async post(path, body) {
      const res = await session.post(path, body);
      const setCookie = res.headers['set-cookie'] as unknown as string[] | undefined;
      return { status: res.status, body: res.body, setCookies: setCookie ?? [] };
    },
    addCookie(name, value) {
      // supertest calls the app at 127.0.0.1 (the jar's domain for it)
      session.agent.jar.setCookie(`${name}=${encodeURIComponent(value)}; Path=/api/auth`, '127.0.0.1', '/api/auth');
    },
  };
}

/** Signs in with these credentials, answering the second step an admin or lab user has (expects success). */
export async function signInWith(app: Express, credentials: { email: string; password: string; portal: string }, ip?: string): Promise<Session> {
  const session = await newSession(app, ip);
  const answer = await signInCompletely(signInClient(session), databaseOf.get(app) ?? process.env.DATABASE_URL!, credentials);
  if (answer.status !== 200) throw new Error(`sign-in of ${credentials.email} at ${credentials.portal}: ${answer.status} ${JSON.stringify(answer.body)}`);
  await session.refreshCsrf(); // the session was regenerated at sign-in
  return session;
}
