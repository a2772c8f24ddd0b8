/**
 * The per-process auth cache (api/src/auth/auth-cache.ts) across two API processes on one
 * database (two apps, each with its own context, cache and LISTEN connection): a session, user or
 * membership cached by one stops working there as soon as PostgreSQL delivers the notification of
 * another process's (or anyone's SQL) sign-out, deactivation or membership change; and with its
 * notification connection lost a process reads PostgreSQL on every request until it listens again.
 * Each check waits for B to have received a notification (PostgreSQL delivers it at commit, to
 * another connection than the writer's, so "the next request" may in principle outrun it by the
 * delivery time), then asserts the refusal.
 */
import { expect } from 'chai';
import request from 'supertest';
import { QueryTypes } from 'sequelize';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { until } from '../support/wait';
import { DEMO_USERS } from '../../scripts/demo-users';

describe('auth cache: sign-out, deactivation and membership changes bite at once in every process', () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    a = await buildTestApp();
    b = await buildTestApp();
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  const cookieOf = (s: Session) => `platform.sid=${s.agent.jar.getCookie('platform.sid', { path: '/', domain: '127.0.0.1', secure: false, script: false } as never)!.value}`;
  /** Waits until app B has received a notification after `before` (its generation moved on). */
  const notified = (before: number) => until(() => b.ctx.authCache.generation > before, { what: 'app B to receive the notification', timeoutMs: 5_000, intervalMs: 1 });
  const sql = (app: TestApp, text: string, replacements: Record<string, unknown> = {}) => app.ctx.db.sequelize.query(text, { replacements });

  /** Signs the physician in on app A; returns the cookie and their first account, already read (and cached) by app B. */
  async function physicianWarmOnB() {
    const s = await signIn(a.app, 'physician', 'provider', '10.77.0.1');
    const cookie = cookieOf(s);
    const me = await request(b.app).get('/api/auth/me').set('Cookie', cookie).expect(200);
    const accountId = me.body.currentAccount.id as number;
    const list = (app: TestApp) => request(app.app).get(`/api/provider-clinic/${accountId}/tests?category=PENDING&page=1&pageSize=10`).set('Cookie', cookie);
    await list(b).expect(200);
    await list(b).expect(200);
    return { s, cookie, accountId, list };
  }

  it('a sign-out on one process ends the session on the other at once', async () => {
    const { s, list } = await physicianWarmOnB();
    expect(b.ctx.authCache.listening).to.equal(true);
    const before = b.ctx.authCache.generation;
    await s.post('/api/auth/logout').expect(204);
    await notified(before);
    await list(b).expect(401);
  });

  it('deactivating a user (any writer, here plain SQL) refuses their next request on every process', async () => {
    const { list } = await physicianWarmOnB();
    try {
      const before = b.ctx.authCache.generation;
      await sql(a, 'UPDATE users SET is_active = false WHERE email = :email', { email: DEMO_USERS.physician.email });
      await notified(before);
      await list(b).expect(401);
      await list(a).expect(401);
    } finally {
      await sql(a, 'UPDATE users SET is_active = true WHERE email = :email', { email: DEMO_USERS.physician.email });
    }
  });

  it('removing a membership refuses the account at once; restoring it lets the user back in', async () => {
    const { list, accountId } = await physicianWarmOnB();
    const membership = `UPDATE account_memberships m SET is_active = :active FROM contacts c, users u
                         WHERE m.contact_id = c.id AND c.user_id = u.id AND u.email = :email AND m.account_id = :accountId`;
    try {
      const before = b.ctx.authCache.generation;
      await sql(a, membership, { active: false, email: DEMO_USERS.physician.email, accountId });
      await notified(before);
      await list(b).expect(404);
    } finally {
      const before = b.ctx.authCache.generation;
      await sql(a, membership, { active: true, email: DEMO_USERS.physician.email, accountId });
      await notified(before);
    }
    await list(b).expect(200);
  });

  it("a process's own write bites on its very next request, without waiting for the notification", async () => {
    const { list, accountId } = await physicianWarmOnB();
    await list(a).expect(200); // cached on A too
    // Hold A's notifications back, as a slow delivery would (the admin's next request can outrun it).
    const client = (a.ctx.authCache as unknown as { client: { listeners(e: string): ((...args: unknown[]) => void)[]; removeAllListeners(e: string): void; on(e: string, f: (...args: unknown[]) => void): void } }).client;
    const handlers = client.listeners('notification');
    client.removeAllListeners('notification');
    const contact = await a.ctx.db.models.Contact.findOne({ where: { email: DEMO_USERS.physician.email } });
    const where = { contactId: contact!.id, accountId };
    try {
      await a.ctx.db.sequelize.transaction((transaction) => a.ctx.db.models.AccountMembership.update({ isActive: false }, { where, transaction }));
      // Before: 200 from memory until the notification came (one run in five of the admin suite, on a loaded machine).
      await list(a).expect(404);
    } finally {
      for (const handler of handlers) client.on('notification', handler);
      await a.ctx.db.models.AccountMembership.update({ isActive: true }, { where });
    }
    await list(a).expect(200);
  });

  it('with its notification connection lost, a process serves nothing from memory until it listens again', async () => {
    const { list } = await physicianWarmOnB();
    const listeners = await a.ctx.db.sequelize.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN %'`, { type: QueryTypes.SELECT });
    expect(listeners.length).to.be.greaterThanOrEqual(2);
    await sql(a, 'SELECT pg_terminate_backend(pid) FROM unnest(ARRAY[:pids]::int[]) pid', { pids: listeners.map((l) => l.pid) });
    await until(() => !b.ctx.authCache.listening || null, { what: 'app B to notice its listener is gone', timeoutMs: 5_000, intervalMs: 10 });
    try {
      // Deactivated while nobody listens: no notification reaches B, yet B refuses (what it held was dropped with the connection).
      await sql(a, 'UPDATE users SET is_active = false WHERE email = :email', { email: DEMO_USERS.physician.email });
      await list(b).expect(401);
    } finally {
      await sql(a, 'UPDATE users SET is_active = true WHERE email = :email', { email: DEMO_USERS.physician.email });
    }
    await until(() => b.ctx.authCache.listening, { what: 'app B to listen again', timeoutMs: 10_000, intervalMs: 50 });
    // Listening again (a refused session lost its sign-in: a new one), the cache bites as before.
    const again = await physicianWarmOnB();
    try {
      const before = b.ctx.authCache.generation;
      await sql(a, 'UPDATE users SET is_active = false WHERE email = :email', { email: DEMO_USERS.physician.email });
      await notified(before);
      await again.list(b).expect(401);
    } finally {
      await sql(a, 'UPDATE users SET is_active = true WHERE email = :email', { email: DEMO_USERS.physician.email });
    }
  });
});
