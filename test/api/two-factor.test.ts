/**
 * Two-factor sign-in over the API (issue 29, part 1; docs/two-factor.md): enrolment of an
 * authenticator app (codes computed here from the secret, time moved, never slept), the second
 * step, replay refusal, recovery codes used once, remembered devices, the second step's throttle,
 * the pending step expiring and reading nothing meanwhile, an account's requirement, and the
 * admin's reset (the email arrives).
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { generateSync } from 'otplib';
import { SECOND_STEP_FAILURES_PER_USER, SECOND_STEP_MINUTES } from '@platform/domain';
import { hashPassword } from '@platform/server/auth/passwords';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { waitForMail } from '../support/mail';
import { DEMO_USERS } from '../../scripts/demo-users';

const PASSWORD = 'Two-factor-test-1';
const realNow = Date.now;

/** Moves the clock of this process (the API runs in it) by `ms`; `restoreClock` puts it back. */
function moveClock(ms: number) {
  const offset = Date.now() - realNow() + ms;
  Date.now = () => realNow() + offset;
}
const restoreClock = () => {
  Date.now = realNow;
};

const codeAt = (secret: string, ms = Date.now()) => generateSync({ secret, epoch: Math.floor(ms / 1000) });

describe('two-factor sign-in', function () {
  this.timeout(30_000);
  let t: TestApp;
  let worker: RunningWorker | undefined;
  before(async () => {
    t = await buildTestApp();
  });
  after(async () => {
    restoreClock();
    await worker?.close();
    await t.close();
  });
  afterEach(restoreClock);

  /** A lab user of its own (no factor), with a known password. */
  async function newLabUser(): Promise<{ id: number; email: string }> {
    const email = `tf-${randomBytes(4).toString('hex')}@lab.test`;
    const user = await t.ctx.db.models.User.create({ kind: 'lab', email, firstName: 'Tess', lastName: 'Factor', passwordHash: await hashPassword(PASSWORD), isActive: true } as never);
    return { id: Number(user.id), email };
  }

  async function login(email: string, portal = 'lab', ip = '10.77.0.1', password = PASSWORD): Promise<{ s: Session; body: Record<string, unknown> }> {
    const s = await newSession(t.app, ip);
    const res = await s.post('/api/auth/login', { email, password, portal }).expect(200);
    return { s, body: res.body };
  }

  async function audits(action: string, userId: number) {
    return t.ctx.db.sequelize.query<{ details: Record<string, unknown> }>(
      'SELECT details FROM audit_events WHERE action = :action AND entity_id = :id ORDER BY id', { replacements: { action, id: String(userId) }, type: 'SELECT' as never },
    );
  }

  /** Signs in (a lab user, no factor yet: the enrolment screen), sets up the app: answers the secret and the recovery codes. */
  async function enrolTotp(email: string): Promise<{ secret: string; recoveryCodes: string[] }> {
    const { s, body } = await login(email);
    expect(body).to.deep.equal({ secondFactor: { required: true, enrol: true, methods: [] } });
    await s.agent.get('/api/auth/me').expect(401);
    const setup = await s.post('/api/auth/second-factor/enrol/totp').expect(200);
    expect(setup.body.uri).to.match(/^otpauth:\/\/totp\//);
    expect(setup.body.uri).to.contain(`secret=${setup.body.secret}`);
    expect(setup.body.qrSvg).to.match(/^<svg/);
    const wrong = await s.post('/api/auth/second-factor/enrol/totp/confirm', { code: String((Number(codeAt(setup.body.secret)) + 1) % 1_000_000).padStart(6, '0') }).expect(400);
    expect(wrong.body.error.fields[0].field).to.equal('code');
    const confirmed = await s.post('/api/auth/second-factor/enrol/totp/confirm', { code: codeAt(setup.body.secret) }).expect(200);
    expect(confirmed.body.recoveryCodes).to.have.length(10);
    expect(confirmed.body.me.user.email).to.equal(email); // signed in once the factor is confirmed
    await s.refreshCsrf();
    const status = await s.agent.get('/api/auth/two-factor').expect(200);
    expect(status.body).to.include({ recoveryCodesLeft: 10, required: true });
    expect(status.body.factors.map((f: { kind: string }) => f.kind)).to.deep.equal(['totp']);
    return { secret: setup.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
  }

  it('admins and lab users must use a second factor: without one, the enrolment screen comes after the password; a clinic user is not asked', async () => {
    for (const kind of ['admin', 'lab'] as const) {
      const email = `must-${kind}-${randomBytes(4).toString('hex')}@lab.test`;
      const user = await t.ctx.db.models.User.create({ kind, email, firstName: 'Mona', lastName: 'Must', passwordHash: await hashPassword(PASSWORD), isActive: true } as never);
      const { s, body } = await login(email, kind);
      expect(body, kind).to.deep.equal({ secondFactor: { required: true, enrol: true, methods: [] } });
      await s.agent.get('/api/auth/me').expect(401);
      expect((await audits('auth.second_step_started', Number(user.id))).at(-1)!.details).to.include({ portal: kind, enrol: true });
    }
    const physician = await newSession(t.app, '10.77.0.5');
    const res = await physician.post('/api/auth/login', { email: DEMO_USERS.physician.email, password: (await import('../../scripts/demo-users')).DEMO_PASSWORD, portal: 'provider' }).expect(200);
    expect(res.body.user.email).to.equal(DEMO_USERS.physician.email);
  });

  it('an enrolled user is asked for the code after the password; a wrong code is refused and audited, the right one signs in', async () => {
    const u = await newLabUser();
    const { secret } = await enrolTotp(u.email);
    moveClock(31_000); // the enrolment's code is spent: the next step's

    const { s, body } = await login(u.email);
    expect(body).to.deep.equal({ secondFactor: { required: true, enrol: false, methods: ['totp', 'recovery'] } });
    const wrong = await s.post('/api/auth/second-factor', { method: 'totp', code: '000000' === codeAt(secret) ? '111111' : '000000' }).expect(401);
    expect(wrong.body.error.fields).to.deep.equal([{ field: 'code', message: 'That code is not correct' }]);
    expect(await audits('auth.second_factor_failed', u.id)).to.have.length.at.least(1);

    const ok = await s.post('/api/auth/second-factor', { method: 'totp', code: codeAt(secret) }).expect(200);
    expect(ok.body.user.email).to.equal(u.email);
    await s.refreshCsrf();
    await s.agent.get('/api/auth/me').expect(200);
    const logins = await audits('auth.login', u.id);
    expect(logins.at(-1)!.details).to.include({ portal: 'lab', secondFactor: 'totp' });
  });

  it('refuses a code a second time (replay), even within its 30 seconds; the next step\'s code works', async () => {
    const u = await newLabUser();
    const { secret } = await enrolTotp(u.email);
    moveClock(31_000);
    const code = codeAt(secret);
    const first = await login(u.email);
    await first.s.post('/api/auth/second-factor', { method: 'totp', code }).expect(200);
    const again = await login(u.email);
    await again.s.post('/api/auth/second-factor', { method: 'totp', code }).expect(401);
    moveClock(30_000);
    await again.s.post('/api/auth/second-factor', { method: 'totp', code: codeAt(secret) }).expect(200);
  });

  it('a recovery code signs in once, and not again', async () => {
    const u = await newLabUser();
    const { recoveryCodes } = await enrolTotp(u.email);
    const first = await login(u.email);
    await first.s.post('/api/auth/second-factor', { method: 'recovery', code: recoveryCodes[3].toUpperCase() }).expect(200);
    const again = await login(u.email);
    const refused = await again.s.post('/api/auth/second-factor', { method: 'recovery', code: recoveryCodes[3] }).expect(401);
    expect(refused.body.error.fields[0].field).to.equal('code');
    await again.s.post('/api/auth/second-factor', { method: 'recovery', code: recoveryCodes[4] }).expect(200);
    await again.s.refreshCsrf();
    expect((await again.s.agent.get('/api/auth/two-factor').expect(200)).body.recoveryCodesLeft).to.equal(8);
  });

  it('"remember this device": the cookie skips the second step for that user only; removing a factor ends it', async () => {
    const u = await newLabUser();
    const { secret } = await enrolTotp(u.email);
    moveClock(31_000);
    const first = await login(u.email);
    const done = await first.s.post('/api/auth/second-factor', { method: 'totp', code: codeAt(secret), rememberDevice: true }).expect(200);
    const cookie = ([] as string[]).concat(done.headers['set-cookie'] ?? []).find((c) => c.startsWith('platform.remembered='));
    expect(cookie, 'the remembered-device cookie').to.be.a('string');
    expect(cookie).to.match(/HttpOnly/i).and.match(/SameSite=Lax/i).and.match(/Path=\/api\/auth/);

    // Same browser (the agent keeps the cookie), signed out and back in: by the password alone.
    await first.s.refreshCsrf();
    await first.s.post('/api/auth/logout').expect(204);
    await first.s.refreshCsrf();
    const again = await first.s.post('/api/auth/login', { email: u.email, password: PASSWORD, portal: 'lab' }).expect(200);
    expect(again.body.user.email).to.equal(u.email);
    expect((await audits('auth.login', u.id)).at(-1)!.details).to.include({ secondFactor: 'remembered_device' });

    // Another browser: asked.
    expect((await login(u.email, 'lab', '10.77.0.9')).body).to.have.property('secondFactor');

    // Removing the factor (password again) ends remembered devices.
    await first.s.refreshCsrf();
    const status = (await first.s.agent.get('/api/auth/two-factor').expect(200)).body;
    expect(status.rememberedDevices).to.equal(1);
    const wrongPassword = await first.s.post(`/api/auth/two-factor/factors/${status.factors[0].id}/remove`, { password: 'not-it-1' }).expect(400);
    expect(wrongPassword.body.error.fields[0].field).to.equal('password');
    await first.s.post(`/api/auth/two-factor/factors/${status.factors[0].id}/remove`, { password: PASSWORD }).expect(204);
    const [{ n }] = await t.ctx.db.sequelize.query<{ n: string }>('SELECT count(*) AS n FROM remembered_devices WHERE user_id = :id', { replacements: { id: u.id }, type: 'SELECT' as never });
    expect(Number(n)).to.equal(0);
    expect((await audits('auth.two_factor_removed', u.id))).to.have.length(1);
  });

  it('the second step has its own throttle per user: past the allowance even the right code is refused (429)', async () => {
    const u = await newLabUser();
    const { secret } = await enrolTotp(u.email);
    moveClock(31_000);
    const { s } = await login(u.email);
    const wrong = codeAt(secret) === '123456' ? '654321' : '123456';
    for (let i = 0; i < SECOND_STEP_FAILURES_PER_USER; i++) await s.post('/api/auth/second-factor', { method: 'totp', code: wrong }).expect(401);
    const blocked = await s.post('/api/auth/second-factor', { method: 'totp', code: codeAt(secret) }).expect(429);
    expect(blocked.body.error.message).to.match(/Too many wrong codes/);
    expect(blocked.headers['retry-after']).to.match(/^\d+$/);
    const failures = (await audits('auth.second_factor_failed', u.id)).filter((a) => a.details.reason === 'wrong answer');
    expect(failures).to.have.length(SECOND_STEP_FAILURES_PER_USER);
  });

  it('a pending second step reads nothing, and expires after ten minutes', async () => {
    const u = await newLabUser();
    const { secret } = await enrolTotp(u.email);
    moveClock(31_000);
    const { s } = await login(u.email);
    await s.agent.get('/api/auth/me').expect(401);
    await s.agent.get('/api/auth/two-factor').expect(401);
    await s.agent.get('/api/lab-toolbox/pcr/queue').expect(401);
    await s.post('/api/auth/two-factor/totp').expect(401);
    await s.post('/api/auth/second-factor/enrol/totp').expect(401); // enrolling at sign-in is for those who must and have no factor
    moveClock(SECOND_STEP_MINUTES * 60_000 + 1000);
    const late = await s.post('/api/auth/second-factor', { method: 'totp', code: codeAt(secret) }).expect(401);
    expect(late.body.error.code).to.equal('second_step_expired');
    expect((await audits('auth.second_factor_failed', u.id)).at(-1)!.details).to.include({ reason: 'expired' });
    await s.post('/api/auth/second-factor', { method: 'totp', code: codeAt(secret) }).expect(401);
  });

  it('validates the second step\'s body, naming the field', async () => {
    const u = await newLabUser();
    await enrolTotp(u.email);
    const { s } = await login(u.email);
    const bad = await s.post('/api/auth/second-factor', { method: 'totp', code: '12' }).expect(400);
    expect(bad.body.error.fields[0].field).to.equal('code');
    const none = await s.post('/api/auth/second-factor', { method: 'sms', code: '123456' }).expect(400);
    expect(none.body.error.fields[0].field).to.equal('method');
  });

  it('an account whose Super Admin requires it: its members enrol at the next sign-in (audited), the others are not asked', async () => {
    const admin = await signIn(t.app, 'superAdmin', 'provider', '10.77.1.1');
    const me = (await admin.agent.get('/api/auth/me').expect(200)).body;
    const account = me.currentAccount.id as number;
    const path = `/api/provider-clinic/${account}/two-factor-requirement`;
    expect((await admin.agent.get(path).expect(200)).body).to.deep.equal({ required: false });
    const bad = await admin.put(path, { required: 'yes' }).expect(400);
    expect(bad.body.error.fields[0].field).to.equal('required');
    const staffUser = await t.ctx.db.models.User.findOne({ where: { email: DEMO_USERS.staff.email } });
    const staffWasMember = (await t.ctx.db.sequelize.query(
      `SELECT 1 FROM contacts c JOIN account_memberships m ON m.contact_id = c.id AND m.is_active WHERE c.user_id = :u AND m.account_id = :a`,
      { replacements: { u: staffUser!.id, a: account }, type: 'SELECT' as never },
    )).length > 0;
    try {
      await admin.put(path, { required: true }).expect(200, { required: true });
      const [audit] = await t.ctx.db.sequelize.query<{ details: Record<string, unknown> }>(
        "SELECT details FROM audit_events WHERE action = 'account.two_factor_requirement_set' AND entity_id = :id ORDER BY id DESC LIMIT 1", { replacements: { id: String(account) }, type: 'SELECT' as never },
      );
      expect(audit.details).to.include({ old: false, new: true });

      // A member (the Super Admin themself, or the staff) without a factor: the enrolment screen first.
      const who = staffWasMember ? DEMO_USERS.staff.email : DEMO_USERS.superAdmin.email;
      const whoId = Number((await t.ctx.db.models.User.findOne({ where: { email: who } }))!.id);
      const s = await newSession(t.app, '10.77.1.2');
      const res = await s.post('/api/auth/login', { email: who, password: (await import('../../scripts/demo-users')).DEMO_PASSWORD, portal: 'provider' }).expect(200);
      expect(res.body).to.deep.equal({ secondFactor: { required: true, enrol: true, methods: [] } });
      await s.agent.get('/api/auth/me').expect(401);
      await s.post('/api/auth/two-factor/totp').expect(401); // the menu's enrolment is for the signed in
      const setup = await s.post('/api/auth/second-factor/enrol/totp').expect(200);
      const enrolled = await s.post('/api/auth/second-factor/enrol/totp/confirm', { code: codeAt(setup.body.secret), rememberDevice: false }).expect(200);
      expect(enrolled.body.recoveryCodes).to.have.length(10);
      expect(enrolled.body.me.user.email).to.equal(who);
      await s.refreshCsrf();
      expect((await s.agent.get('/api/auth/two-factor').expect(200)).body.required).to.equal(true);
      expect((await audits('auth.login', whoId)).at(-1)!.details).to.include({ secondFactor: 'totp' });
      await t.ctx.db.sequelize.query('DELETE FROM two_factor_factors WHERE user_id = :id; DELETE FROM two_factor_recovery_codes WHERE user_id = :id', { replacements: { id: whoId } });

      // A provider of no requiring account is not asked.
      const other = await newSession(t.app, '10.77.1.3');
      const researcher = await other.post('/api/auth/login', { email: DEMO_USERS.researcher.email, password: (await import('../../scripts/demo-users')).DEMO_PASSWORD, portal: 'research' }).expect(200);
      expect(researcher.body).to.have.property('user');
    } finally {
      await t.ctx.db.sequelize.query('UPDATE accounts SET require_two_factor = false WHERE id = :id', { replacements: { id: account } });
    }
  });

  it("the admin's reset removes factors, codes and remembered devices, ends the sessions and emails the user", async () => {
    worker = await startTestWorker();
    const u = await newLabUser();
    const { secret } = await enrolTotp(u.email);
    moveClock(31_000);
    const { s } = await login(u.email);
    await s.post('/api/auth/second-factor', { method: 'totp', code: codeAt(secret), rememberDevice: true }).expect(200);
    await s.refreshCsrf();
    await s.agent.get('/api/auth/me').expect(200);

    const lab = await signIn(t.app, 'physician', 'provider', '10.77.2.2');
    await lab.post(`/api/admin/users/${u.id}/two-factor/reset`).expect(403);
    const admin = await signIn(t.app, 'admin', 'admin', '10.77.2.1');
    await admin.post(`/api/admin/users/${u.id}/two-factor/reset`).expect(204);
    await admin.post('/api/admin/users/999999999/two-factor/reset').expect(404);

    await s.agent.get('/api/auth/me').expect(401); // signed out everywhere
    const [{ factors, codes, devices }] = await t.ctx.db.sequelize.query<{ factors: string; codes: string; devices: string }>(
      `SELECT (SELECT count(*) FROM two_factor_factors WHERE user_id = :id) AS factors, (SELECT count(*) FROM two_factor_recovery_codes WHERE user_id = :id) AS codes,
              (SELECT count(*) FROM remembered_devices WHERE user_id = :id) AS devices`, { replacements: { id: u.id }, type: 'SELECT' as never },
    );
    expect([factors, codes, devices].map(Number)).to.deep.equal([0, 0, 0]);
    expect(await audits('auth.two_factor_reset', u.id)).to.have.length(1);
    const [mail] = await waitForMail(u.email);
    expect(mail.subject).to.match(/two-factor sign-in was reset/);
    expect(mail.text).to.not.contain(secret);
  });
});
