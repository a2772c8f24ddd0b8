import { expect } from 'chai';
import request from 'supertest';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';
import { buildTestApp, newSession, signIn, type TestApp } from '../support/http';

/** Anonymous traffic (the CSRF token, reads) stores no session row; CSRF still guards every POST. */
describe('CSRF without a session row per anonymous caller', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const sessionRows = async () => Number((await t.ctx.sessionPool.query<{ n: string }>('SELECT count(*) AS n FROM "session"')).rows[0].n);

  it('N anonymous callers reading the CSRF token and the SPA\'s other anonymous reads leave the session table as it was', async () => {
    const before = await sessionRows();
    for (let i = 0; i < 25; i++) {
      const agent = request.agent(t.app);
      const first = await agent.get('/api/auth/csrf').expect(200);
      expect(first.body.csrfToken).to.be.a('string').and.not.equal('');
      // The same browser keeps its token.
      expect((await agent.get('/api/auth/csrf').expect(200)).body.csrfToken).to.equal(first.body.csrfToken);
      await agent.get('/api/auth/me').expect(401);
      await agent.get('/api/system/health');
      await agent.get('/api/system/get-build-id').expect(200);
      await agent.get(`/api/reports/patient-result/41000000000001?token=${'0'.repeat(64)}`).expect(404);
    }
    expect(await sessionRows()).to.equal(before);
  });

  it('anonymous posts with the token pass (no session row); a signed-in session works on its own token', async () => {
    const before = await sessionRows();
    const anon = await newSession(t.app, '10.9.8.1');
    await anon.post('/api/auth/forgot-password', { email: 'nobody@example.com', portal: 'provider' }).expect(202);
    expect(await sessionRows()).to.equal(before);

    const s = await signIn(t.app, 'physician', 'provider', '10.9.8.2');
    expect(await sessionRows()).to.equal(before + 1);
    const me = (await s.agent.get('/api/auth/me').expect(200)).body;
    await s.post('/api/auth/switch-account', { accountId: me.accounts[0].id }).expect(200);
    await s.post('/api/auth/logout').expect(204);
    expect(await sessionRows()).to.equal(before);
  });

  it('refuses a cross-site POST: no token, a token without its cookie, a self-made token, or an anonymous token on a signed-in session', async () => {
    const body = { email: DEMO_USERS.physician.email, password: DEMO_PASSWORD, portal: 'provider' };
    const noToken = await request(t.app).post('/api/auth/login').send(body).expect(403);
    expect(noToken.body.error.code).to.equal('csrf');

    // A cross-site page cannot send the SameSite=Strict cookie: a token alone is refused.
    const anon = await newSession(t.app, '10.9.8.3');
    await request(t.app).post('/api/auth/login').set('x-csrf-token', anon.csrf).send(body).expect(403);

    // A cookie and header both set by someone else are not a token this server signed.
    await request(t.app).post('/api/auth/login').set('Cookie', 'platform.csrf=made.up').set('x-csrf-token', 'made.up').send(body).expect(403);

    // Once signed in, the session's own token is needed.
    const s = await signIn(t.app, 'physician', 'provider', '10.9.8.4');
    const me = (await s.agent.get('/api/auth/me').expect(200)).body;
    const res = await s.agent.post('/api/auth/switch-account').set('x-csrf-token', anon.csrf).send({ accountId: me.accounts[0].id }).expect(403);
    expect(res.body.error.code).to.equal('csrf');
  });
});
