/** supertest agents on the real app: one that carries a session cookie and sends the CSRF token. */
import request from 'supertest';
import type { Express } from 'express';
import { createApp, createContext, closeContext, type AppContext } from '@platform/api';
import type { SignInPortal } from '@platform/domain';
import { DEMO_PASSWORD, DEMO_USERS, type DemoUserKey } from '../../scripts/demo-users';
import { testConfig } from './server';

export interface TestApp {
  ctx: AppContext;
  app: Express;
  close(): Promise<void>;
}

export async function buildTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const ctx = await createContext(testConfig(overrides));
  return { ctx, app: createApp(ctx), close: () => closeContext(ctx) };
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
  const session = await newSession(app, ip);
  await session.post('/api/auth/login', { email: DEMO_USERS[who].email, password: DEMO_PASSWORD, portal }).expect(200);
  await session.refreshCsrf(); // the session was regenerated at sign-in
  return session;
}
