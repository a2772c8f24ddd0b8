/**
 * An account's Super Admin adds people by invitation (issue 24, hole 7: the email oracle). Adding
 * an address new to the platform and one that already signs in for another clinic answer the
 * same, list the same and email the same words; the person joins by accepting through the link.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { AccountRole, AccountType, ProviderTitle, Specialty } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { waitForMail } from '../support/mail';
import { DEMO_USERS } from '../../scripts/demo-users';
import { firstSignIn, VALID_NPIS } from '../support/fixtures/first-sign-in';

const tag = () => randomBytes(4).toString('hex');

describe('account invitations (a Super Admin adds a user)', function () {
  this.timeout(60_000);
  let t: TestApp;
  let worker: RunningWorker;
  let admin: Session;
  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    admin = await signIn(t.app, 'admin', 'admin', '10.61.0.1');
  });
  after(async () => {
    await worker?.close();
    await t?.close();
  });

  const newAccount = async () => (await admin.post('/api/admin/accounts/create', {
    name: `Cove Oncology ${tag()}`, type: AccountType.General, clinicAccess: true, departments: ['Radiation Oncology'],
    physicians: [{ firstName: 'Nadia', lastName: 'Ortiz', npi: VALID_NPIS[1], specialty: Specialty.RadiationOncology }],
  }).expect(201)).body as { id: number; name: string };

  /** A provider registered by the admin in an account, signed in once (their password chosen). */
  async function provider(accountId: number, role: AccountRole, ip: string) {
    const email = `person-${tag()}@cove.test`;
    const res = await admin.post('/api/admin/contacts/create', { firstName: 'Robin', lastName: 'Known', email, title: ProviderTitle.Nurse, npi: null, accounts: [{ accountId, role }] }).expect(201);
    const session = await firstSignIn(t.app, email, 'provider', ip);
    return { email, contactId: res.body.contact.id as number, session };
  }

  const invite = (superAdmin: Session, accountId: number, email: string, role: AccountRole = AccountRole.SupportStaff) =>
    superAdmin.post(`/api/provider-clinic/${accountId}/contacts/create`, {
      firstName: 'Sam', lastName: 'Newcomer', email, title: ProviderTitle.Nurse, npi: null, accounts: [{ accountId, role }],
    });

  /** The invitation link's token in the `nth` invitation email to the address (the first by default). */
  async function invitationToken(email: string, nth = 1): Promise<{ token: string; text: string; subject: string }> {
    const mail = (await waitForMail(email, nth, { matching: (m) => /accept-invitation\?token=/.test(m.text) }))[nth - 1];
    return { token: /accept-invitation\?token=([0-9a-f]{64})/.exec(mail.text)![1], text: mail.text, subject: mail.subject };
  }

  /** An answer or email with the address and names it carries made generic: what is left must be identical. */
  const shape = (text: string, email: string) => text.replaceAll(email, '<email>').replace(/token=[0-9a-f]{64}/, 'token=<token>')
    .replace(/"(id|createdAt|expiresAt)":("[^"]*"|\d+)/g, '"$1":<x>');

  it('answers, lists and emails the same for a new address and for one that signs in for another clinic', async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    const boss = await provider(mine.id, AccountRole.SuperAdmin, '10.61.1.1');
    const known = await provider(theirs.id, AccountRole.SupportStaff, '10.61.1.2');
    const fresh = `fresh-${tag()}@elsewhere.test`;

    const a = await invite(boss.session, mine.id, fresh);
    const b = await invite(boss.session, mine.id, known.email);
    // Before the fix the second answered 409 "A user with the email … already exists".
    expect([a.status, b.status]).to.deep.equal([201, 201]);
    expect(shape(JSON.stringify(a.body), fresh)).to.equal(shape(JSON.stringify(b.body), known.email));
    expect(a.body.message).to.equal(`Invitation sent to ${fresh}: they join this account when they accept it from the email`);

    const pending = (await boss.session.agent.get(`/api/provider-clinic/${mine.id}/invitations`).expect(200)).body as { email: string }[];
    expect(pending.map((p) => p.email).sort()).to.deep.equal([fresh, known.email].sort());
    expect(shape(JSON.stringify(pending.find((p) => p.email === fresh)), fresh)).to.equal(shape(JSON.stringify(pending.find((p) => p.email === known.email)), known.email));
    // Nobody new is on the account's list until they accept, whoever they are.
    const listed = (await boss.session.agent.get(`/api/provider-clinic/${mine.id}/contacts?pageSize=100`).expect(200)).body as { email: string }[];
    expect(listed.map((u) => u.email)).to.deep.equal([boss.email]);

    const mailA = await invitationToken(fresh);
    const mailB = await invitationToken(known.email);
    expect(mailA.subject).to.equal(mailB.subject);
    expect(shape(mailA.text, fresh)).to.equal(shape(mailB.text, known.email));
    expect(mailA.subject).to.equal(`Robin Known invites you to ${mine.name} on the ${t.ctx.config.brand} Platform`);
  });

  it('the known person accepts: the account joins their sign-in, their other account untouched', async () => {
    const mine = await newAccount();
    const theirs = await newAccount();
    const boss = await provider(mine.id, AccountRole.SuperAdmin, '10.61.2.1');
    const known = await provider(theirs.id, AccountRole.SupportStaff, '10.61.2.2');
    await invite(boss.session, mine.id, known.email).expect(201);
    const { token } = await invitationToken(known.email);

    const anon = await newSession(t.app, '10.61.2.3');
    const preview = (await anon.post('/api/auth/account-invitation', { token }).expect(200)).body;
    expect(preview).to.include({ accountName: mine.name, invitedBy: 'Robin Known', email: known.email, role: AccountRole.SupportStaff });
    const accepted = (await anon.post('/api/auth/account-invitation/accept', { token }).expect(200)).body;
    expect(accepted).to.deep.equal({ message: `You now work in ${mine.name}. Sign in to continue.`, next: 'sign-in', path: '/provider/login' });

    const me = (await known.session.agent.get('/api/auth/me').expect(200)).body as { accounts: { id: number; role: string }[] };
    expect(me.accounts.map((x) => [x.id, x.role]).sort()).to.deep.equal([[mine.id, AccountRole.SupportStaff], [theirs.id, AccountRole.SupportStaff]].sort());
    const listed = (await boss.session.agent.get(`/api/provider-clinic/${mine.id}/contacts?pageSize=100`).expect(200)).body as { id: number }[];
    expect(listed.map((u) => u.id)).to.include(known.contactId);
    expect((await boss.session.agent.get(`/api/provider-clinic/${mine.id}/invitations`).expect(200)).body).to.deep.equal([]);
    // The link works once.
    const again = await anon.post('/api/auth/account-invitation/accept', { token }).expect(404);
    expect(again.body.error.message).to.match(/^This invitation link is not valid/);
  });

  it('a new person accepts and chooses a password next; then signs in to the account', async () => {
    const mine = await newAccount();
    const boss = await provider(mine.id, AccountRole.SuperAdmin, '10.61.3.1');
    const email = `new-${tag()}@cove.test`;
    await invite(boss.session, mine.id, email, AccountRole.SupportStaff).expect(201);
    const { token } = await invitationToken(email);
    const anon = await newSession(t.app, '10.61.3.2');
    const accepted = (await anon.post('/api/auth/account-invitation/accept', { token }).expect(200)).body;
    expect(accepted).to.include({ message: `You now work in ${mine.name}. Choose your password to sign in.`, next: 'set-password' });
    const resetToken = /^\/provider\/reset-password\?token=([0-9a-f]{64})$/.exec(accepted.path)![1];
    const password = `chosen-password-${tag()}1`;
    await anon.post('/api/auth/reset-password', { token: resetToken, password }).expect(204);
    const session = await newSession(t.app, '10.61.3.2');
    const me = (await session.post('/api/auth/login', { email, password, portal: 'provider' }).expect(200)).body;
    expect(me.accounts.map((x: { id: number }) => x.id)).to.deep.equal([mine.id]);
  });

  it('a cancelled or expired invitation no longer works; one pending invitation per address; lab staff addresses cannot join', async () => {
    const mine = await newAccount();
    const boss = await provider(mine.id, AccountRole.SuperAdmin, '10.61.4.1');
    const email = `cancel-${tag()}@cove.test`;
    const first = (await invite(boss.session, mine.id, email).expect(201)).body;
    const twice = await invite(boss.session, mine.id, email.toUpperCase()).expect(409);
    expect(twice.body.error.fields[0]).to.deep.equal({ field: 'email', message: `${email} was already invited to this account: cancel that invitation below to invite them again` });
    const { token } = await invitationToken(email);
    await boss.session.post(`/api/provider-clinic/${mine.id}/invitations/${first.invitation.id}/cancel`).expect(200);
    const anon = await newSession(t.app, '10.61.4.2');
    await anon.post('/api/auth/account-invitation', { token }).expect(404);
    await anon.post('/api/auth/account-invitation/accept', { token }).expect(404);

    await invite(boss.session, mine.id, email).expect(201);
    const second = await invitationToken(email, 2);
    await t.ctx.db.models.AccountInvitation.update({ expiresAt: new Date(Date.now() - 1000) }, { where: { email, status: 'Pending' } });
    const expired = await anon.post('/api/auth/account-invitation/accept', { token: second.token }).expect(410);
    expect(expired.body.error.message).to.equal('This invitation has expired. Ask the person who invited you for a new one.');

    // A lab user's address: invited like any other (nothing said to the Super Admin); accepting is refused to the person, who is told why.
    await invite(boss.session, mine.id, DEMO_USERS.lab1.email).expect(201);
    const lab = await invitationToken(DEMO_USERS.lab1.email);
    const refused = await anon.post('/api/auth/account-invitation/accept', { token: lab.token }).expect(409);
    expect(refused.body.error.message).to.match(/signs in to the laboratory's own portal/);
  });

  it("another account's Super Admin cannot see or cancel the invitations; a Physician role needs its NPI at once", async () => {
    const mine = await newAccount();
    const other = await newAccount();
    const boss = await provider(mine.id, AccountRole.SuperAdmin, '10.61.5.1');
    const otherBoss = await provider(other.id, AccountRole.SuperAdmin, '10.61.5.2');
    const sent = (await invite(boss.session, mine.id, `x-${tag()}@cove.test`).expect(201)).body;
    await otherBoss.session.agent.get(`/api/provider-clinic/${mine.id}/invitations`).expect(404);
    await otherBoss.session.post(`/api/provider-clinic/${other.id}/invitations/${sent.invitation.id}/cancel`).expect(404);
    await invite(otherBoss.session, mine.id, `y-${tag()}@cove.test`).expect(404);
    const noNpi = await invite(boss.session, mine.id, `z-${tag()}@cove.test`, AccountRole.Physician).expect(400);
    expect(noNpi.body.error.fields).to.deep.equal([{ field: 'npi', message: 'NPI is required for the Physician role' }]);
  });
});
