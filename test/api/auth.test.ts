import { expect } from 'chai';
import { LOGIN_FAILURES_PER_ACCOUNT } from '@platform/domain';
import { buildTestApp, newSession, signIn, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { mailTo, waitForMail } from '../support/mail';
import { emailsSettled } from '../support/jobs';
import { until } from '../support/wait';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';
import type { RunningWorker } from '@platform/worker';

describe('sign-in', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('closing the API stops its session store pruning: no prune is left to run later on the ended pool', async () => {
    const own = await buildTestApp();
    const store = own.ctx.sessionStore as unknown as { pruneTimer?: NodeJS.Timeout };
    try {
      await signIn(own.app, 'admin', 'admin');
      expect(store.pruneTimer, 'a stored session schedules the next prune').to.not.equal(undefined);
    } finally {
      await own.close();
    }
    expect(store.pruneTimer, 'the prune timer after close').to.equal(undefined);
  });

  it('signs the demo admin in and /me answers with the user', async () => {
    const s = await signIn(t.app, 'admin', 'admin');
    const me = await s.agent.get('/api/auth/me').expect(200);
    expect(me.body.user).to.include({ email: DEMO_USERS.admin.email, kind: 'admin' });
    expect(me.body.accounts).to.deep.equal([]);
  });

  it('gives a provider their accounts, flags and current account, and switches account', async () => {
    const s = await signIn(t.app, 'physician', 'provider');
    const me = (await s.agent.get('/api/auth/me').expect(200)).body;
    expect(me.accounts.map((a: { name: string }) => a.name)).to.deep.equal(['Lakeside Urology', 'Riverside Oncology']);
    const lakeside = me.accounts.find((a: { name: string }) => a.name === 'Lakeside Urology');
    expect(lakeside).to.include({ role: 'Physician', international: true, eapPartner: false, clinicAccess: true, researchAccess: false });
    expect(me.currentAccount).to.not.equal(null);
    const switched = await s.post('/api/auth/switch-account', { accountId: lakeside.id }).expect(200);
    expect(switched.body.currentAccount.name).to.equal('Lakeside Urology');
    expect((await s.agent.get('/api/auth/me')).body.currentAccount.name).to.equal('Lakeside Urology');
  });

  it('refuses to switch to an account the user is not a member of', async () => {
    const s = await signIn(t.app, 'staff', 'provider');
    const northwind = await t.ctx.db.models.Account.findOne({ where: { name: 'Northwind Research' } });
    const res = await s.post('/api/auth/switch-account', { accountId: northwind!.id }).expect(403);
    expect(res.body.error.code).to.equal('forbidden');
  });

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const s = await newSession(t.app, '10.1.0.1');
    const wrong = await s.post('/api/auth/login', { email: DEMO_USERS.lab1.email, password: 'not-the-password1', portal: 'lab' }).expect(401);
    const unknown = await s.post('/api/auth/login', { email: 'nobody@demo.test', password: 'not-the-password1', portal: 'lab' }).expect(401);
    expect(wrong.body.error).to.deep.equal({ code: 'invalid_credentials', message: 'Invalid email or password' });
    expect(unknown.body.error).to.deep.equal(wrong.body.error);
    await s.agent.get('/api/auth/me').expect(401);
  });

  it('refuses the right password through the wrong portal and says which portal is theirs', async () => {
    const s = await newSession(t.app, '10.1.0.2');
    const cases: [string, string, string][] = [
      [DEMO_USERS.lab1.email, 'admin', 'This account signs in at the Lab Toolbox: /lab_toolbox/login'],
      [DEMO_USERS.admin.email, 'provider', 'This account signs in at the Administration: /admin/login'],
      [DEMO_USERS.physician.email, 'research', 'This account signs in at the Clinical Portal: /provider/login'],
      [DEMO_USERS.researcher.email, 'provider', 'This account signs in at the Research Portal: /provider-research/login'],
    ];
    for (const [email, portal, message] of cases) {
      const res = await s.post('/api/auth/login', { email, password: DEMO_PASSWORD, portal }).expect(401);
      expect(res.body.error, `${email} at ${portal}`).to.deep.equal({ code: 'wrong_portal', message });
    }
    await s.agent.get('/api/auth/me').expect(401);
    // A wrong password at the wrong portal says nothing about the account.
    const guess = await s.post('/api/auth/login', { email: DEMO_USERS.lab1.email, password: 'not-the-password1', portal: 'admin' }).expect(401);
    expect(guess.body.error).to.deep.equal({ code: 'invalid_credentials', message: 'Invalid email or password' });
    await s.post('/api/auth/login', { email: DEMO_USERS.researcher.email, password: DEMO_PASSWORD, portal: 'research' }).expect(200);
  });

  it('throttles an account after repeated failures, whether or not it exists, with Retry-After', async () => {
    // A user of its own: the demo users must stay usable for the other tests of the run.
    const { hashPassword } = await import('@platform/server/auth/passwords');
    await t.ctx.db.models.User.create({ kind: 'lab', email: 'throttled-lab@demo.test', passwordHash: await hashPassword(DEMO_PASSWORD), firstName: 'Tess', lastName: 'Throttle' });
    for (const email of ['throttled-lab@demo.test', 'ghost@demo.test']) {
      const s = await newSession(t.app, `10.2.0.${email.length}`);
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) {
        await s.post('/api/auth/login', { email, password: 'wrong-password-1', portal: 'lab' }).expect(401);
      }
      const blocked = await s.post('/api/auth/login', { email, password: DEMO_PASSWORD, portal: 'lab' }).expect(429);
      expect(blocked.body.error.code).to.equal('too_many_attempts');
      expect(blocked.body.error.message).to.match(/^Too many sign-in attempts\. Try again in \d+ minutes?\.$/);
      expect(Number(blocked.headers['retry-after'])).to.be.greaterThan(0);
    }
  });

  it('a burst of parallel guesses gets no more tries than the limit', async () => {
    const { hashPassword } = await import('@platform/server/auth/passwords');
    await t.ctx.db.models.User.create({ kind: 'lab', email: 'burst-lab@demo.test', passwordHash: await hashPassword(DEMO_PASSWORD), firstName: 'Bea', lastName: 'Burst' });
    const s = await newSession(t.app, '10.2.9.1');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => s.post('/api/auth/login', { email: 'burst-lab@demo.test', password: 'wrong-password-1', portal: 'lab' })),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((x) => x === 401)).to.have.length(LOGIN_FAILURES_PER_ACCOUNT);
    expect(statuses.filter((x) => x === 429)).to.have.length(30 - LOGIN_FAILURES_PER_ACCOUNT);
  });

  it('successful sign-ins from one address (a clinic behind one router) never use up its allowance', async () => {
    for (let i = 0; i < 25; i++) {
      const s = await newSession(t.app, '10.3.5.5');
      await s.post('/api/auth/login', { email: DEMO_USERS.admin.email, password: DEMO_PASSWORD, portal: 'admin' }).expect(200);
    }
  });

  it('throttles an address that tries many accounts', async () => {
    const s = await newSession(t.app, '10.3.0.1');
    for (let i = 0; i < 20; i++) {
      await s.post('/api/auth/login', { email: `spray${i}@demo.test`, password: 'wrong-password-1', portal: 'admin' }).expect(401);
    }
    await s.post('/api/auth/login', { email: DEMO_USERS.admin.email, password: DEMO_PASSWORD, portal: 'admin' }).expect(429);
    // another address is not affected
    const other = await newSession(t.app, '10.3.0.2');
    await other.post('/api/auth/login', { email: DEMO_USERS.admin.email, password: DEMO_PASSWORD, portal: 'admin' }).expect(200);
  });

  it('refuses a state-changing request without the CSRF token', async () => {
    const s = await newSession(t.app, '10.4.0.1');
    const res = await s.agent.post('/api/auth/login').send({ email: DEMO_USERS.admin.email, password: DEMO_PASSWORD, portal: 'admin' }).expect(403);
    expect(res.body.error.code).to.equal('csrf');
    const forged = await s.agent.post('/api/auth/login').set('x-csrf-token', 'forged').send({ email: DEMO_USERS.admin.email, password: DEMO_PASSWORD, portal: 'admin' }).expect(403);
    expect(forged.body.error.code).to.equal('csrf');
  });

  it('regenerates the session at sign-in (the old cookie is not the new one)', async () => {
    const s = await newSession(t.app, '10.4.0.2');
    const before = s.agent.jar.getCookie('platform.sid', { path: '/', domain: '127.0.0.1', secure: false, script: false } as never)?.value;
    await s.post('/api/auth/login', { email: DEMO_USERS.admin.email, password: DEMO_PASSWORD, portal: 'admin' }).expect(200);
    const after = s.agent.jar.getCookie('platform.sid', { path: '/', domain: '127.0.0.1', secure: false, script: false } as never)?.value;
    expect(after).to.be.a('string');
    expect(after).to.not.equal(before);
  });

  it('logout really ends the session: the old cookie no longer works', async () => {
    const s = await signIn(t.app, 'admin', 'admin', '10.5.0.1');
    const cookie = (await s.agent.get('/api/auth/me').expect(200)).request.getHeader?.('cookie');
    await s.post('/api/auth/logout').expect(204);
    await s.agent.get('/api/auth/me').expect(401);
    const { default: request } = await import('supertest');
    if (cookie) await request(t.app).get('/api/auth/me').set('Cookie', String(cookie)).expect(401);
  });

  describe('password reset', () => {
    let worker: RunningWorker;
    before(async () => {
      worker = await startTestWorker();
    });
    after(() => worker.close());

    it('emails a single-use link that sets a new password', async () => {
      const s = await newSession(t.app, '10.6.0.1');
      const email = DEMO_USERS.staff.email;
      const res = await s.post('/api/auth/forgot-password', { email, portal: 'provider' }).expect(202);
      const unknown = await s.post('/api/auth/forgot-password', { email: 'nobody@demo.test', portal: 'provider' }).expect(202);
      expect(unknown.body).to.deep.equal(res.body);

      const [mail] = await waitForMail(email);
      expect(mail.subject).to.match(/Reset your .+ Platform password/);
      const link = mail.text.match(/https?:\/\/\S+\/provider\/reset-password\?token=([0-9a-f]{64})/);
      expect(link, mail.text).to.not.equal(null);
      const token = link![1];
      await until(async () => (await t.ctx.db.models.Email.findOne({ where: { toAddress: email, template: 'password-reset' }, order: [['id', 'DESC']] }))?.status === 'Sent', { what: 'the reset email logged as Sent', timeoutMs: 10_000 });
      const logged = await t.ctx.db.models.Email.findOne({ where: { toAddress: email, template: 'password-reset' }, order: [['id', 'DESC']] });
      expect(logged!.textBody, 'the email log keeps no usable link').to.not.include(token);
      expect(logged!.textBody).to.include('reset-password?token=[redacted]');

      await s.post('/api/auth/reset-password', { token, password: 'brand-new-pass-42' }).expect(204);
      const again = await s.post('/api/auth/reset-password', { token, password: 'another-pass-43' }).expect(400);
      expect(again.body.error).to.deep.equal({ code: 'invalid_token', message: 'This reset link is invalid or has expired.' });

      await s.post('/api/auth/login', { email, password: DEMO_PASSWORD, portal: 'provider' }).expect(401);
      await s.post('/api/auth/login', { email, password: 'brand-new-pass-42', portal: 'provider' }).expect(200);
      // put the demo password back for the other tests
      await s.refreshCsrf();
      await s.post('/api/auth/change-password', { currentPassword: 'brand-new-pass-42', newPassword: DEMO_PASSWORD }).expect(204);
    });

    it('sends at most three reset emails to one address in a window, answering the same every time', async () => {
      const { hashPassword } = await import('@platform/server/auth/passwords');
      const email = 'flooded@demo.test';
      await t.ctx.db.models.User.create({ kind: 'lab', email, passwordHash: await hashPassword(DEMO_PASSWORD), firstName: 'Flo', lastName: 'Ood' });
      const s = await newSession(t.app, '10.6.0.9');
      for (let i = 0; i < 6; i++) {
        const res = await s.post('/api/auth/forgot-password', { email, portal: 'lab' }).expect(202);
        expect(res.body).to.deep.equal({ message: 'If an account exists for that email, a reset link is on its way.' });
      }
      // Each answer goes before its request's work (the throttle's decision, then the email): wait
      // until the throttle has decided on all six (it counts every request to the address, refused
      // ones too), then until every email it let through has been through its send-email job.
      const counted = async () => Number(await t.ctx.redis.get(`${t.ctx.config.redisPrefix}:reset-email:${email}`));
      await until(async () => (await counted()) >= 6, { what: 'the throttle to decide on all six requests' });
      await waitForMail(email, 3);
      expect(await emailsSettled(t.ctx, email), 'reset emails logged').to.equal(3);
      expect(await mailTo(email)).to.have.length(3);
    });

    it('refuses a reset token that was never issued', async () => {
      const s = await newSession(t.app, '10.6.0.2');
      await s.post('/api/auth/reset-password', { token: 'a'.repeat(64), password: 'brand-new-pass-42' }).expect(400);
    });
  });

  it('changing the password ends the other sessions of that user and keeps this one', async () => {
    const { hashPassword } = await import('@platform/server/auth/passwords');
    await t.ctx.db.models.User.create({ kind: 'admin', email: 'two-sessions@demo.test', passwordHash: await hashPassword(DEMO_PASSWORD), firstName: 'Tom', lastName: 'Two' });
    const login = async (ip: string, password = DEMO_PASSWORD) => {
      const s = await newSession(t.app, ip);
      await s.post('/api/auth/login', { email: 'two-sessions@demo.test', password, portal: 'admin' }).expect(200);
      await s.refreshCsrf();
      return s;
    };
    const a = await login('10.7.1.1');
    const b = await login('10.7.1.2');
    await a.post('/api/auth/change-password', { currentPassword: DEMO_PASSWORD, newPassword: 'another-pass-77' }).expect(204);
    await b.agent.get('/api/auth/me').expect(401);
    await a.agent.get('/api/auth/me').expect(200);
    await a.refreshCsrf();
    await a.post('/api/auth/logout').expect(204);
    await login('10.7.1.3', 'another-pass-77');
  });

  it('change password refuses a wrong current password and names the field', async () => {
    const s = await signIn(t.app, 'lab1', 'lab', '10.7.0.1');
    const res = await s.post('/api/auth/change-password', { currentPassword: 'wrong-password-9', newPassword: 'whatever-pass-12' }).expect(400);
    expect(res.body.error.fields).to.deep.equal([{ field: 'currentPassword', message: 'The current password is not correct' }]);
  });

  it('change password allows as many wrong current passwords as sign-in does, then answers 429 before checking', async () => {
    const { hashPassword } = await import('@platform/server/auth/passwords');
    await t.ctx.db.models.User.create({ kind: 'admin', email: 'guesser@demo.test', passwordHash: await hashPassword(DEMO_PASSWORD), firstName: 'Gus', lastName: 'Guess' });
    const s = await newSession(t.app, '10.7.2.1');
    await s.post('/api/auth/login', { email: 'guesser@demo.test', password: DEMO_PASSWORD, portal: 'admin' }).expect(200);
    await s.refreshCsrf();
    const change = (currentPassword: string) => s.post('/api/auth/change-password', { currentPassword, newPassword: 'another-pass-77' });
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i += 1) await change(`wrong-password-${i}`).expect(400);
    const blocked = await change('wrong-password-x').expect(429);
    expect(blocked.body.error.message).to.match(/^Too many wrong current passwords\. Try again in \d+ minutes?\.$/);
    expect(Number(blocked.headers['retry-after'])).to.be.greaterThan(0);
    // Even the right password waits: the check is not made at all.
    await change(DEMO_PASSWORD).expect(429);
    const row = await t.ctx.db.models.User.findOne({ where: { email: 'guesser@demo.test' } });
    expect(await (await import('@platform/server/auth/passwords')).verifyPassword(row!.passwordHash, DEMO_PASSWORD)).to.equal(true);
  });
});
