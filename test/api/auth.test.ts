import { expect } from 'chai';
import { LOGIN_FAILURES_PER_ACCOUNT } from '@platform/domain';
import { buildTestApp, newSession, signIn, signInWith, type TestApp } from '../support/http';
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

  describe('nobody can lock the owner out (OWASP lockout guidance)', () => {
    // A throttle of its own (Redis prefix): the demo users' allowances stay untouched for other tests.
    let own: TestApp;
    before(async () => {
      own = await buildTestApp({ REDIS_PREFIX: `${process.env.REDIS_PREFIX}-lockout` });
    });
    after(() => own.close());

    const PORTALS = [['admin', 'admin'], ['physician', 'provider'], ['researcher', 'research'], ['lab1', 'lab']] as const;
    for (const [who, portal] of PORTALS) {
      it(`${portal} sign-in: failures from other addresses leave the owner's own browser its allowance`, async () => {
        const { email } = DEMO_USERS[who];
        const owner = await signIn(own.app, who, portal, '10.7.1.1');
        // The attacker: one wrong password from each of five addresses, no device cookie.
        for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) {
          const attacker = await newSession(own.app, `10.7.2.${i + 1}`);
          await attacker.post('/api/auth/login', { email, password: 'wrong-password-1', portal }).expect(401);
        }
        const stranger = await newSession(own.app, '10.7.3.1');
        await stranger.post('/api/auth/login', { email, password: DEMO_PASSWORD, portal }).expect(429);
        // The owner, in the browser they signed in with before: signed in.
        await owner.refreshCsrf();
        await owner.post('/api/auth/login', { email, password: DEMO_PASSWORD, portal }).expect(200);
        // Guessing in the owner's browser is still limited, by its own allowance.
        await owner.refreshCsrf();
        for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) await owner.post('/api/auth/login', { email, password: 'wrong-password-1', portal }).expect(401);
        await owner.post('/api/auth/login', { email, password: DEMO_PASSWORD, portal }).expect(429);
      });
    }

    it("a device cookie is the account's it was issued for: another account's, or a forged one, counts as an unknown device", async () => {
      const owner = await signIn(own.app, 'staff', 'provider', '10.7.4.1');
      const { email } = DEMO_USERS.superAdmin;
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) {
        const attacker = await newSession(own.app, `10.7.5.${i + 1}`);
        await attacker.post('/api/auth/login', { email, password: 'wrong-password-1', portal: 'provider' }).expect(401);
      }
      await owner.refreshCsrf();
      await owner.post('/api/auth/login', { email, password: DEMO_PASSWORD, portal: 'provider' }).expect(429);
      const forged = await newSession(own.app, '10.7.6.1');
      forged.agent.jar.setCookie('platform.device=abc.def; Path=/api/auth', '127.0.0.1', '/api/auth');
      await forged.post('/api/auth/login', { email, password: DEMO_PASSWORD, portal: 'provider' }).expect(429);
    });
  });

  it('refuses a body nested thousands deep before any work, naming the limit; the sign-in throttle counts it first', async () => {
    const s = await newSession(t.app, '10.2.7.1');
    for (const depth of [5_000, 6_000]) {
      const body = `{"email":${'['.repeat(depth)}${']'.repeat(depth)},"password":"x","portal":"lab"}`;
      const res = await s.agent.post('/api/auth/login').set('x-csrf-token', s.csrf).set('X-Forwarded-For', '10.2.7.1').set('Content-Type', 'application/json').send(body);
      expect(res.status, `depth ${depth}`).to.equal(400);
      expect(res.body.error).to.deep.equal({ code: 'body_too_deep', message: 'The request body is nested too deeply (the limit is 32 levels of objects and arrays)' });
    }
    // A bad body still takes its point from the address's allowance before validation runs.
    const { hashPassword } = await import('@platform/server/auth/passwords');
    await t.ctx.db.models.User.create({ kind: 'lab', email: 'shape-lab@demo.test', passwordHash: await hashPassword(DEMO_PASSWORD), firstName: 'Shay', lastName: 'Pe' });
    for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT; i++) {
      await s.post('/api/auth/login', { email: 'shape-lab@demo.test', password: 'wrong-password-1', portal: 'nowhere' }).expect(400);
    }
    await s.post('/api/auth/login', { email: 'shape-lab@demo.test', password: DEMO_PASSWORD, portal: 'lab' }).expect(429);
  });

  it('with TRUST_PROXY unset, X-Forwarded-For is not believed: rotating it does not escape the per-address limit', async () => {
    const { LOGIN_FAILURES_PER_ADDRESS } = await import('@platform/domain');
    const direct = await buildTestApp({ TRUST_PROXY: '', REDIS_PREFIX: `${process.env.REDIS_PREFIX}-direct` });
    try {
      for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
        const s = await newSession(direct.app, `10.8.${i}.1`);
        await s.post('/api/auth/login', { email: `nobody-${i}@demo.test`, password: 'wrong-password-1', portal: 'lab' }).expect(401);
      }
      const next = await newSession(direct.app, '10.8.99.1');
      await next.post('/api/auth/login', { email: 'nobody-else@demo.test', password: 'wrong-password-1', portal: 'lab' }).expect(429);
    } finally {
      await direct.close();
    }
  });

  it('a session ends at its absolute lifetime however active it is: 8 hours for admins and lab users, 12 for providers', async () => {
    const { pastLifetime } = await import('../../api/src/auth/session');
    const hour = 3_600_000;
    const at = Date.parse('2026-11-27T08:00:00Z');
    expect(pastLifetime('admin', at, at + 8 * hour)).to.equal(false);
    expect(pastLifetime('admin', at, at + 8 * hour + 1)).to.equal(true);
    expect(pastLifetime('lab', at, at + 8 * hour + 1)).to.equal(true);
    expect(pastLifetime('provider', at, at + 12 * hour)).to.equal(false);
    expect(pastLifetime('provider', at, at + 12 * hour + 1)).to.equal(true);
    expect(pastLifetime('provider', undefined, at), 'a session with no sign-in time').to.equal(true);

    // A real session whose sign-in was 8 hours and a minute ago: the next request is signed out.
    const s = await signIn(t.app, 'lab2', 'lab', '10.2.8.1');
    await s.agent.get('/api/auth/me').expect(200);
    const [[row]] = (await t.ctx.db.sequelize.query(`SELECT sid FROM "session" WHERE (sess -> 'passport' ->> 'user')::int = (SELECT id FROM users WHERE email = :email) ORDER BY expire DESC LIMIT 1`, { replacements: { email: DEMO_USERS.lab2.email } })) as [{ sid: string }[], unknown];
    await t.ctx.db.sequelize.query(`UPDATE "session" SET sess = jsonb_set(sess::jsonb, '{signedInAt}', to_jsonb(:at::bigint))::json WHERE sid = :sid`, { replacements: { at: Date.now() - 8 * hour - 60_000, sid: row.sid } });
    t.ctx.authCache?.forgetSession(row.sid);
    await s.agent.get('/api/auth/me').expect(401);
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

    it('a new password ends every link sent before it: a reset, or a change of password', async () => {
      const { hashPassword } = await import('@platform/server/auth/passwords');
      const { createHash, randomBytes } = await import('node:crypto');
      const email = 'many-links@demo.test';
      const user = await t.ctx.db.models.User.create({ kind: 'lab', email, passwordHash: await hashPassword(DEMO_PASSWORD), firstName: 'Manny', lastName: 'Links' });
      /** A link as the forgot-password email carries it (only its hash is stored). */
      const link = async () => {
        const token = randomBytes(32).toString('hex');
        await t.ctx.db.models.PasswordResetToken.create({ userId: user.id, tokenHash: createHash('sha256').update(token).digest('hex'), expiresAt: new Date(Date.now() + 3_600_000) });
        return token;
      };
      const [first, , third] = [await link(), await link(), await link()];
      const s = await newSession(t.app, '10.6.0.3');
      await s.post('/api/auth/reset-password', { token: first, password: 'first-link-pass-1' }).expect(204);
      const stale = await s.post('/api/auth/reset-password', { token: third, password: 'third-link-pass-3' }).expect(400);
      expect(stale.body.error.code).to.equal('invalid_token');
      const signedIn = await signInWith(t.app, { email, password: 'first-link-pass-1', portal: 'lab' }, '10.6.0.3');

      const beforeChange = await link();
      await signedIn.post('/api/auth/change-password', { currentPassword: 'first-link-pass-1', newPassword: 'changed-pass-22' }).expect(204);
      await s.refreshCsrf();
      await s.post('/api/auth/reset-password', { token: beforeChange, password: 'sneaky-pass-99' }).expect(400);
      await s.post('/api/auth/login', { email, password: 'changed-pass-22', portal: 'lab' }).expect(200);
    });

    it('refuses a reset token that was never issued', async () => {
      const s = await newSession(t.app, '10.6.0.2');
      await s.post('/api/auth/reset-password', { token: 'a'.repeat(64), password: 'brand-new-pass-42' }).expect(400);
    });
  });

  it('changing the password ends the other sessions of that user and keeps this one', async () => {
    const { hashPassword } = await import('@platform/server/auth/passwords');
    await t.ctx.db.models.User.create({ kind: 'admin', email: 'two-sessions@demo.test', passwordHash: await hashPassword(DEMO_PASSWORD), firstName: 'Tom', lastName: 'Two' });
    const login = (ip: string, password = DEMO_PASSWORD) => signInWith(t.app, { email: 'two-sessions@demo.test', password, portal: 'admin' }, ip);
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
    const s = await signInWith(t.app, { email: 'guesser@demo.test', password: DEMO_PASSWORD, portal: 'admin' }, '10.7.2.1');
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
