import { expect } from 'chai';
import request from 'supertest';
import { buildTestApp, newSession, type TestApp } from '../support/http';

describe('system endpoints and bad input', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('get-build-id answers the configured id, uncached', async () => {
    const res = await request(t.app).get('/api/system/get-build-id').expect(200);
    expect(res.body).to.deep.equal({ buildId: process.env.BUILD_ID });
    expect(res.headers['cache-control']).to.include('no-store');
  });

  it('health checks PostgreSQL and Redis', async () => {
    const res = await request(t.app).get('/api/system/health').expect(200);
    expect(res.body).to.deep.equal({ postgres: 'ok', redis: 'ok' });
  });

  it('sends security headers and a request id', async () => {
    const res = await request(t.app).get('/api/system/get-build-id');
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers['content-security-policy']).to.be.a('string');
    expect(res.headers['x-request-id']).to.match(/^[\w-]{8,}$/);
    expect(res.headers['x-powered-by']).to.equal(undefined);
  });

  it('lets Stripe\'s Payment Element load when real Stripe is configured, and nothing of Stripe with the local stand-in', async () => {
    // The test environment names no STRIPE_API_URL: the product talks to Stripe itself.
    const csp = (await request(t.app).get('/api/system/get-build-id')).headers['content-security-policy'] as string;
    expect(csp).to.match(/script-src 'self' https:\/\/js\.stripe\.com/);
    expect(csp).to.match(/frame-src 'self' https:\/\/js\.stripe\.com/);
    expect(csp).to.match(/connect-src 'self' https:\/\/api\.stripe\.com/);
    const standIn = await buildTestApp({ STRIPE_API_URL: 'http://127.0.0.1:9' });
    try {
      expect((await request(standIn.app).get('/api/system/get-build-id')).headers['content-security-policy']).not.to.include('stripe.com');
    } finally {
      await standIn.close();
    }
  });

  it('answers a path with broken percent-encoding with a 400, not a 500', async () => {
    const res = await request(t.app).get('/api/reports/patient-result/%E0%A4%A?token=x').expect(400);
    expect(res.body.error).to.deep.equal({ code: 'bad_request', message: 'The request is malformed' });
  });

  it('answers an unknown endpoint with a JSON 404', async () => {
    const res = await request(t.app).get('/api/no/such/thing').expect(404);
    expect(res.body.error.code).to.equal('not_found');
  });

  describe('bad input never becomes a 500 and writes nothing', () => {
    const auditCount = () => t.ctx.db.models.AuditEvent.count();

    it('malformed JSON → 400 malformed_json', async () => {
      const s = await newSession(t.app, '10.20.0.1');
      const before = await auditCount();
      const res = await s.agent.post('/api/auth/login').set('x-csrf-token', s.csrf).set('Content-Type', 'application/json').send('{"email": "a@b.c",').expect(400);
      expect(res.body.error.code).to.equal('malformed_json');
      expect(res.body.requestId).to.be.a('string');
      expect(await auditCount()).to.equal(before);
    });

    it('unknown fields → 400 naming the field', async () => {
      const s = await newSession(t.app, '10.20.0.2');
      const res = await s.post('/api/auth/login', { email: 'a@b.test', password: 'x', portal: 'admin', isAdmin: true }).expect(400);
      expect(res.body.error.code).to.equal('validation_failed');
      expect(res.body.error.fields).to.deep.include({ field: 'isAdmin', message: 'isAdmin is not allowed' });
    });

    it('wrong types → 400 naming each field', async () => {
      const s = await newSession(t.app, '10.20.0.3');
      const res = await s.post('/api/auth/login', { email: 42, password: ['x'], portal: 'moon' }).expect(400);
      const fields = res.body.error.fields.map((f: { field: string }) => f.field);
      expect(fields).to.include.members(['email', 'password', 'portal']);
    });

    it('a 10 MB body → 413 body_too_large', async () => {
      const s = await newSession(t.app, '10.20.0.4');
      const before = await auditCount();
      const big = JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(10 * 1024 * 1024), portal: 'admin' });
      const res = await s.agent.post('/api/auth/login').set('x-csrf-token', s.csrf).set('Content-Type', 'application/json').send(big).expect(413);
      expect(res.body.error.code).to.equal('body_too_large');
      expect(await auditCount()).to.equal(before);
    });

    it('an upload from someone not signed in is refused before its body is read', async () => {
      const s = await newSession(t.app, '10.20.0.6');
      const res = await s.agent.post('/api/lab-toolbox/import-files?kind=kras&filename=a.csv').set('x-csrf-token', s.csrf).set('Content-Type', 'text/csv').send('barcode,genotype\n').expect(401);
      expect(res.body.error.code).to.equal('unauthorized');
    });

    it('a body that is not JSON → 415', async () => {
      const s = await newSession(t.app, '10.20.0.5');
      const res = await s.agent.post('/api/auth/login').set('x-csrf-token', s.csrf).set('Content-Type', 'text/plain').send('email=a').expect(415);
      expect(res.body.error.code).to.equal('unsupported_encoding');
    });
  });
});
