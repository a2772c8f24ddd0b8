/**
 * The admin portal's API: who may call it, onboarding a clinic (account, registered physician,
 * set-password email, first sign-in), access requests and decisions, duplicates as 409s (also at
 * the same moment), lab users, insurance plans, financial aid, and the audit of each action.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import { AccessStatus, AccountRole, AccountType, ProviderTitle, Specialty } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { hashPassword } from '@platform/server/auth/passwords';
import { buildTestApp, newSession, signIn, signInWith, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { mailTo, waitForMail } from '../support/mail';
import { firstSignIn, setPasswordToken, VALID_NPIS } from '../support/fixtures/first-sign-in';
import { freshNpi } from '../support/fixtures/npi';
import { emailsSettled } from '../support/jobs';

const tag = () => randomBytes(4).toString('hex');

describe('admin API', () => {
  let t: TestApp;
  let worker: RunningWorker;
  let admin: Session;
  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    admin = await signIn(t.app, 'admin', 'admin', '10.60.0.1');
  });
  after(async () => {
    await worker.close();
    await t.close();
  });

  const newAccount = (overrides: Record<string, unknown> = {}) => ({
    name: `Harbor Oncology ${tag()}`, type: AccountType.General, clinicAccess: true, departments: ['Radiation Oncology'],
    physicians: [{ firstName: 'Nadia', lastName: 'Ortiz', npi: VALID_NPIS[1], specialty: Specialty.RadiationOncology }], ...overrides,
  });

  /** A provider the admin registers in an account (their set-password email on its way). */
  async function provider(accountId: number, role: AccountRole, title: ProviderTitle = ProviderTitle.Nurse, npi: string | null = null) {
    const email = `user-${tag()}@harbor.test`;
    const res = await admin.post('/api/admin/contacts/create', { firstName: 'Robin', lastName: `User${tag().replace(/\d/g, '')}`, email, title, npi, accounts: [{ accountId, role }] }).expect(201);
    return { email, contactId: res.body.contact.id as number, userId: res.body.contact.userId as number };
  }

  describe('who may call it', () => {
    const endpoints: { method: 'get' | 'post'; path: string }[] = [
      { method: 'get', path: '/api/admin/attention' },
      { method: 'get', path: '/api/admin/accounts' },
      { method: 'post', path: '/api/admin/accounts/create' },
      { method: 'get', path: '/api/admin/contacts' },
      { method: 'get', path: '/api/admin/contacts/pending' },
      { method: 'post', path: '/api/admin/contacts/create' },
      { method: 'post', path: '/api/admin/contacts/update-access' },
      { method: 'get', path: '/api/admin/contacts/1' },
      { method: 'post', path: '/api/admin/contacts/1/npi' },
      { method: 'post', path: '/api/admin/add-account-access' },
      { method: 'post', path: '/api/admin/remove-account-access' },
      { method: 'post', path: '/api/admin/add-super-admin' },
      { method: 'post', path: '/api/admin/activate-deactivate' },
      { method: 'get', path: '/api/admin/provider-staff-relationships/get-support-staff?accountId=1' },
      { method: 'post', path: '/api/admin/provider-staff-relationships/upsert' },
      { method: 'get', path: '/api/admin/lab-toolbox/users' },
      { method: 'post', path: '/api/admin/lab-toolbox/users/create' },
      { method: 'post', path: '/api/admin/lab-toolbox/users/delete' },
      { method: 'post', path: '/api/admin/lab-toolbox/users/reactivate' },
      { method: 'get', path: '/api/admin/insurance-plans' },
      { method: 'post', path: '/api/admin/insurance-plans/create' },
      { method: 'post', path: '/api/admin/insurance-plans/1/update' },
      { method: 'post', path: '/api/admin/patients/search' },
      { method: 'get', path: '/api/admin/patients/financial-assistance' },
      { method: 'post', path: '/api/admin/patients/financial-assistance/create' },
    ];

    it('refuses anonymous callers (401), providers, super admins and lab users (403) on every admin endpoint', async () => {
      const anonymous = await newSession(t.app, '10.60.1.1');
      const callers: [string, Session, number][] = [
        ['anonymous', anonymous, 401],
        ['physician', await signIn(t.app, 'physician', 'provider', '10.60.1.2'), 403],
        ['super admin', await signIn(t.app, 'superAdmin', 'provider', '10.60.1.3'), 403],
        ['lab user', await signIn(t.app, 'lab1', 'lab', '10.60.1.4'), 403],
      ];
      for (const [who, session, status] of callers) {
        for (const e of endpoints) {
          const res = e.method === 'get' ? await session.agent.get(e.path) : await session.post(e.path, {});
          expect(res.status, `${who} ${e.method.toUpperCase()} ${e.path}`).to.equal(status);
        }
      }
    });
  });

  describe('onboarding a clinic', () => {
    it('creates an account, registers a physician who sets a password from the email and signs in to that account', async () => {
      const account = (await admin.post('/api/admin/accounts/create', newAccount()).expect(201)).body;
      expect(account).to.include({ clinicAccess: true, physicianCount: 1 });
      expect(account.departments).to.deep.equal(['Radiation Oncology']);

      const email = `dr-${tag()}@harbor.test`;
      const irisNpi = freshNpi();
      const created = await admin.post('/api/admin/contacts/create', {
        firstName: 'Iris', lastName: 'Vance', email, title: ProviderTitle.Physician, specialty: Specialty.RadiationOncology, npi: irisNpi,
        accounts: [{ accountId: account.id, role: AccountRole.Physician }],
      }).expect(201);
      expect(created.body.message).to.equal('User Created Successfully');
      expect(created.body.contact.memberships).to.deep.equal([{ accountId: account.id, accountName: account.name, role: AccountRole.Physician, isActive: true }]);

      const physician = await firstSignIn(t.app, email, 'provider', '10.60.2.1');
      const me = (await physician.agent.get('/api/auth/me').expect(200)).body;
      expect(me.accounts.map((a: { id: number }) => a.id)).to.deep.equal([account.id]);
      const mine = (await physician.agent.get(`/api/provider-clinic/${account.id}/get-physicians-by-contact`).expect(200)).body;
      expect(mine.map((p: { name: string }) => p.name)).to.deep.equal(['Iris Vance']);
      expect(mine[0].isCaller).to.equal(true);

      const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'access.provider_registered', entityId: String(created.body.contact.userId) } });
      expect(audit!.actorUserId).to.equal((await t.ctx.db.models.User.findOne({ where: { email: 'admin@demo.test' } }))!.id);
      expect(audit!.details).to.have.nested.property('after.accounts[0].role', AccountRole.Physician);

      // A second person with the same NPI is refused, naming it (issue 25, item 5; it was accepted silently).
      const twin = await admin.post('/api/admin/contacts/create', {
        firstName: 'Ivy', lastName: 'Vance', email: `twin-${tag()}@harbor.test`, title: ProviderTitle.Physician, npi: irisNpi, accounts: [{ accountId: account.id, role: AccountRole.Physician }],
      }).expect(409);
      expect(twin.body.error.fields).to.deep.equal([{ field: 'npi', message: `NPI ${irisNpi} already belongs to another user` }]);
    });

    it('refuses a taken account name or email with a 409 that names it, also when two arrive at the same moment', async () => {
      const body = newAccount();
      await admin.post('/api/admin/accounts/create', body).expect(201);
      const again = await admin.post('/api/admin/accounts/create', { ...body, name: body.name.toUpperCase() }).expect(409);
      expect(again.body.error.message).to.equal(`An account named "${body.name.toUpperCase()}" already exists`);
      expect(again.body.error.fields).to.deep.equal([{ field: 'name', message: again.body.error.message }]);

      const race = newAccount({ physicians: [] });
      const answers = await Promise.all([1, 2, 3].map(() => admin.post('/api/admin/accounts/create', race)));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 409, 409]);

      const dup = await admin.post('/api/admin/contacts/create', {
        firstName: 'Paula', lastName: 'Again', email: 'PHYSICIAN@demo.test', title: ProviderTitle.Nurse, accounts: [{ accountId: 1, role: AccountRole.SupportStaff }],
      }).expect(409);
      expect(dup.body.error.message).to.equal('A user with the email physician@demo.test already exists');
    });

    it('says what is wrong with a registration, field by field', async () => {
      const res = await admin.post('/api/admin/contacts/create', {
        firstName: '', lastName: 'Vance', email: 'not-an-email', title: ProviderTitle.Physician, npi: '1234567890', accounts: [],
      }).expect(400);
      const fields = res.body.error.fields.map((f: { field: string }) => f.field);
      expect(fields).to.include.members(['firstName', 'email', 'npi', 'accounts']);
      expect(res.body.error.fields.find((f: { field: string }) => f.field === 'npi').message).to.equal('NPI must be a valid 10-digit National Provider Identifier');
    });
  });

  describe('requests for access', () => {
    const request = (email: string) => ({
      firstName: 'Quinn', lastName: 'Asker', email, title: ProviderTitle.Nurse, accountName: 'Hilltop Clinic', note: 'We treat prostate cancer patients.',
    });

    it('answers the same whether or not the email is known, and keeps one Pending request', async () => {
      const anon = await newSession(t.app, '10.60.3.1');
      const email = `asker-${tag()}@hilltop.test`;
      const fresh = await anon.post('/api/auth/request-access', request(email)).expect(202);
      const known = await anon.post('/api/auth/request-access', request('physician@demo.test')).expect(202);
      const twice = await anon.post('/api/auth/request-access', request(email)).expect(202);
      expect(known.body).to.deep.equal(fresh.body);
      expect(twice.body).to.deep.equal(fresh.body);
      const pending = (await admin.agent.get('/api/admin/contacts/pending').expect(200)).body;
      expect(pending.filter((c: { email: string }) => c.email === email)).to.have.length(1);
      expect(pending.find((c: { email: string }) => c.email === email)).to.include({ requestedAccountName: 'Hilltop Clinic', accessStatus: AccessStatus.Pending });
    });

    it('approving a physician asks for the NPI the request lacked (check digit checked); the user page corrects it; one NPI, one person', async () => {
      const anon = await newSession(t.app, '10.60.3.9');
      const email = `doc-${tag()}@hilltop.test`;
      // Asked as a Nurse (no NPI needed), approved as a Physician (who orders: an NPI needed).
      await anon.post('/api/auth/request-access', request(email)).expect(202);
      const asker = ((await admin.agent.get('/api/admin/contacts/pending').expect(200)).body as { id: number; email: string }[]).find((c) => c.email === email)!;
      const account = (await admin.post('/api/admin/accounts/create', newAccount()).expect(201)).body;
      const approve = (npi?: string) => admin.post('/api/admin/contacts/update-access', {
        contactId: asker.id, decision: 'Approved', accounts: [{ accountId: account.id, role: AccountRole.Physician }], ...(npi ? { npi } : {}),
      });
      // Before: "A physician needs an NPI to order" and no way to give one (issue 25, item 5).
      expect((await approve().expect(400)).body.error.fields).to.deep.equal([{ field: 'npi', message: 'NPI is required for the Physician role' }]);
      expect((await approve('1234567890').expect(400)).body.error.fields[0]).to.deep.equal({ field: 'npi', message: 'NPI must be a valid 10-digit National Provider Identifier' });
      const npi = freshNpi();
      const approved = (await approve(npi).expect(200)).body;
      expect(approved).to.include({ accessStatus: AccessStatus.Approved, npi });
      const m = t.ctx.db.models;
      expect((await m.Physician.findOne({ where: { accountId: account.id, contactId: asker.id } }))!.npi).to.equal(npi);

      // The user's page corrects it; the physician entry follows; another's NPI is refused.
      const other = await provider(account.id, AccountRole.Physician, ProviderTitle.Physician, freshNpi());
      const otherNpi = (await m.Contact.findByPk(other.contactId))!.npi!;
      const taken = await admin.post(`/api/admin/contacts/${asker.id}/npi`, { npi: otherNpi }).expect(409);
      expect(taken.body.error.fields).to.deep.equal([{ field: 'npi', message: `NPI ${otherNpi} already belongs to another user` }]);
      const corrected = freshNpi();
      expect((await admin.post(`/api/admin/contacts/${asker.id}/npi`, { npi: corrected }).expect(200)).body.npi).to.equal(corrected);
      expect((await m.Physician.findOne({ where: { accountId: account.id, contactId: asker.id } }))!.npi).to.equal(corrected);
      const audit = await m.AuditEvent.findOne({ where: { action: 'access.npi_changed' }, order: [['id', 'DESC']] });
      expect(audit!.details).to.deep.include({ contactId: asker.id, before: { npi }, after: { npi: corrected } });
    });

    it('approval admits the provider to the chosen account with a set-password link; a denial emails the reason; a decision is made once', async () => {
      const anon = await newSession(t.app, '10.60.3.2');
      const approvedEmail = `yes-${tag()}@hilltop.test`;
      const deniedEmail = `no-${tag()}@hilltop.test`;
      await anon.post('/api/auth/request-access', request(approvedEmail)).expect(202);
      await anon.post('/api/auth/request-access', request(deniedEmail)).expect(202);
      const pending = (await admin.agent.get('/api/admin/contacts/pending').expect(200)).body as { id: number; email: string }[];
      const yes = pending.find((c) => c.email === approvedEmail)!;
      const no = pending.find((c) => c.email === deniedEmail)!;
      const account = (await admin.post('/api/admin/accounts/create', newAccount()).expect(201)).body;

      const missing = await admin.post('/api/admin/contacts/update-access', { contactId: no.id, decision: 'Denied' }).expect(400);
      expect(missing.body.error.message).to.equal('Give a reason for the denial');
      await admin.post('/api/admin/contacts/update-access', { contactId: no.id, decision: 'Denied', reason: 'We could not verify your practice.' }).expect(200);
      const [denial] = await waitForMail(deniedEmail);
      expect(denial.text).to.include('We could not verify your practice.');

      const approved = await admin.post('/api/admin/contacts/update-access', {
        contactId: yes.id, decision: 'Approved', accounts: [{ accountId: account.id, role: AccountRole.SupportStaff }],
      }).expect(200);
      expect(approved.body).to.include({ accessStatus: AccessStatus.Approved });
      const again = await admin.post('/api/admin/contacts/update-access', { contactId: yes.id, decision: 'Denied', reason: 'changed my mind' }).expect(409);
      expect(again.body.error.message).to.equal('This request was already decided: Approved');

      const staff = await firstSignIn(t.app, approvedEmail, 'provider', '10.60.3.3');
      expect((await staff.agent.get('/api/auth/me').expect(200)).body.accounts[0]).to.include({ id: account.id, role: AccountRole.SupportStaff });
      await emailsSettled(t.ctx, deniedEmail);
      expect(await mailTo(deniedEmail)).to.have.length(1);
    });
  });

  describe('users and access', () => {

    it('deactivating a user ends their live session at once; activating lets them sign in again', async () => {
      const account = (await admin.post('/api/admin/accounts/create', newAccount()).expect(201)).body;
      const p = await provider(account.id, AccountRole.SupportStaff);
      const session = await firstSignIn(t.app, p.email, 'provider', '10.60.4.1');
      await session.agent.get('/api/auth/me').expect(200);
      await admin.post('/api/admin/activate-deactivate', { contactId: p.contactId, active: false }).expect(200);
      await session.agent.get('/api/auth/me').expect(401);
      const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'access.deactivated', entityId: String(p.userId) } });
      expect(audit!.details).to.deep.include({ userActive: { before: true, after: false } });
      const password = `first-password-${tag()}2`;
      await t.ctx.db.models.User.update({ passwordHash: await hashPassword(password) }, { where: { id: p.userId } });
      const refused = await newSession(t.app, '10.60.4.2');
      await refused.post('/api/auth/login', { email: p.email, password, portal: 'provider' }).expect(401);

      const back = await admin.post('/api/admin/activate-deactivate', { contactId: p.contactId, active: true }).expect(200);
      expect(back.body.userActive).to.equal(true);
      const again = await newSession(t.app, '10.60.4.3');
      await again.post('/api/auth/login', { email: p.email, password, portal: 'provider' }).expect(200);
      expect((await again.agent.get('/api/auth/me').expect(200)).body.accounts.map((a: { id: number }) => a.id)).to.deep.equal([account.id]);
      const activated = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'access.activated', entityId: String(p.userId) } });
      expect(activated!.details).to.deep.include({ userActive: { before: false, after: true } });
    });

    it('an account\'s super admin deactivates a user in the account and activates them again', async () => {
      const account = (await admin.post('/api/admin/accounts/create', newAccount()).expect(201)).body;
      const boss = await provider(account.id, AccountRole.SuperAdmin);
      const staff = await provider(account.id, AccountRole.SupportStaff);
      const superAdmin = await firstSignIn(t.app, boss.email, 'provider', '10.60.8.4');
      const staffSession = await firstSignIn(t.app, staff.email, 'provider', '10.60.8.5');
      const base = `/api/provider-clinic/${account.id}`;
      const off = await superAdmin.post(`${base}/activate-deactivate`, { contactId: staff.contactId, accountId: account.id, active: false }).expect(200);
      expect(off.body.memberships).to.deep.equal([{ accountId: account.id, accountName: account.name, role: AccountRole.SupportStaff, isActive: false }]);
      await staffSession.agent.get(`${base}/tests?category=PENDING`).expect(404);
      const on = await superAdmin.post(`${base}/activate-deactivate`, { contactId: staff.contactId, accountId: account.id, active: true }).expect(200);
      expect(on.body.memberships).to.deep.equal([{ accountId: account.id, accountName: account.name, role: AccountRole.SupportStaff, isActive: true }]);
      await staffSession.agent.get(`${base}/tests?category=PENDING`).expect(200);
    });

    it('lets an account\'s super admin manage that account\'s users only', async () => {
      const account = (await admin.post('/api/admin/accounts/create', newAccount()).expect(201)).body;
      const other = (await admin.post('/api/admin/accounts/create', newAccount()).expect(201)).body;
      const boss = await provider(account.id, AccountRole.SuperAdmin);
      const staff = await provider(account.id, AccountRole.SupportStaff);
      const stranger = await provider(other.id, AccountRole.SupportStaff);
      const superAdmin = await firstSignIn(t.app, boss.email, 'provider', '10.60.5.1');
      const staffSession = await firstSignIn(t.app, staff.email, 'provider', '10.60.5.2');
      const base = `/api/provider-clinic/${account.id}`;

      const users = (await superAdmin.agent.get(`${base}/contacts`).expect(200)).body as { id: number }[];
      expect(users.map((u) => u.id).sort()).to.deep.equal([boss.contactId, staff.contactId].sort());
      // Another account's user, or another account in the body: not found, nothing changed.
      await superAdmin.agent.get(`${base}/contacts/${stranger.contactId}`).expect(404);
      await superAdmin.post(`${base}/remove-account-access`, { contactId: stranger.contactId, accountId: account.id }).expect(404);
      await superAdmin.post(`${base}/add-account-access`, { contactId: staff.contactId, accountId: other.id, role: AccountRole.SupportStaff }).expect(404);
      await superAdmin.agent.get(`/api/provider-clinic/${other.id}/contacts`).expect(404);
      // Whole-user deactivation is the lab's.
      await superAdmin.post(`${base}/activate-deactivate`, { contactId: staff.contactId, active: false }).expect(403);
      // Staff cannot manage users.
      await staffSession.agent.get(`${base}/contacts`).expect(403);
      // The last super admin stays.
      const last = await superAdmin.post(`${base}/remove-account-access`, { contactId: boss.contactId, accountId: account.id }).expect(409);
      expect(last.body.error.message).to.match(/at least one active super admin/);

      // Removing access: the staff member's next request there is refused and the account leaves their list.
      await staffSession.agent.get(`${base}/tests?category=PENDING`).expect(200);
      await superAdmin.post(`${base}/remove-account-access`, { contactId: staff.contactId, accountId: account.id }).expect(200);
      await staffSession.agent.get(`${base}/tests?category=PENDING`).expect(404);
      expect((await staffSession.agent.get('/api/auth/me').expect(200)).body.accounts).to.deep.equal([]);
    });

    it('an account\'s super admin gives a removed user access again, with the role chosen; they reach the account at once', async () => {
      const account = (await admin.post('/api/admin/accounts/create', newAccount()).expect(201)).body;
      const elsewhere = (await admin.post('/api/admin/accounts/create', newAccount()).expect(201)).body;
      const boss = await provider(account.id, AccountRole.SuperAdmin);
      const staff = await provider(account.id, AccountRole.SupportStaff, ProviderTitle.Physician, freshNpi());
      await admin.post('/api/admin/add-account-access', { contactId: staff.contactId, accountId: elsewhere.id, role: AccountRole.SupportStaff }).expect(200);
      const superAdmin = await firstSignIn(t.app, boss.email, 'provider', '10.60.8.1');
      const staffSession = await firstSignIn(t.app, staff.email, 'provider', '10.60.8.2');
      const base = `/api/provider-clinic/${account.id}`;

      // Removed: the answer shows no access here, and nothing of their other account.
      const removed = await superAdmin.post(`${base}/remove-account-access`, { contactId: staff.contactId, accountId: account.id }).expect(200);
      expect(removed.body.memberships).to.deep.equal([]);
      await staffSession.agent.get(`${base}/tests?category=PENDING`).expect(404);
      // Still on the account's list (with no access) and theirs to open; a second removal has nothing to remove.
      const listed = (await superAdmin.agent.get(`${base}/contacts?q=${encodeURIComponent(staff.email)}`).expect(200)).body as { id: number; memberships: unknown[] }[];
      expect(listed.map((u) => ({ id: u.id, memberships: u.memberships }))).to.deep.equal([{ id: staff.contactId, memberships: [] }]);
      expect((await superAdmin.agent.get(`${base}/contacts/${staff.contactId}`).expect(200)).body.memberships).to.deep.equal([]);
      await superAdmin.post(`${base}/remove-account-access`, { contactId: staff.contactId, accountId: account.id }).expect(404);
      await superAdmin.post(`${base}/activate-deactivate`, { contactId: staff.contactId, accountId: account.id, active: true }).expect(404);
      // The admin's account filter lists the people with access to it.
      const inAccount = (await admin.agent.get(`/api/admin/contacts?accountId=${account.id}`).expect(200)).body as { id: number }[];
      expect(inAccount.map((u) => u.id)).to.deep.equal([boss.contactId]);

      // "Add user" with the same email says where to find them, and adds no one.
      const dup = await superAdmin.post(`${base}/contacts/create`, {
        firstName: 'Robin', lastName: 'Again', email: staff.email.toUpperCase(), title: ProviderTitle.Nurse, accounts: [{ accountId: account.id, role: AccountRole.SupportStaff }],
      }).expect(409);
      const listedAlready = `${staff.email} is already on this account's list of users: open them there to give them access again or change their role`;
      expect(dup.body.error.fields).to.deep.equal([{ field: 'email', message: listedAlready }]);

      // Given access again, as a Physician this time: they reach the account at once.
      const back = await superAdmin.post(`${base}/add-account-access`, { contactId: staff.contactId, accountId: account.id, role: AccountRole.Physician }).expect(200);
      expect(back.body.memberships).to.deep.equal([{ accountId: account.id, accountName: account.name, role: AccountRole.Physician, isActive: true }]);
      const me = (await staffSession.agent.get('/api/auth/me').expect(200)).body;
      expect(me.accounts.map((a: { id: number; role: string }) => ({ id: a.id, role: a.role })).sort((x: { id: number }, y: { id: number }) => x.id - y.id)).to.deep.equal([
        { id: account.id, role: AccountRole.Physician }, { id: elsewhere.id, role: AccountRole.SupportStaff },
      ]);
      await staffSession.agent.get(`${base}/tests?category=PENDING`).expect(200);
      const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'access.account_access_added', entityId: String(staff.userId), actorUserId: boss.userId } });
      expect(audit!.details).to.deep.include({
        before: [{ accountId: elsewhere.id, role: AccountRole.SupportStaff, isActive: true }],
        after: [{ accountId: account.id, role: AccountRole.Physician, isActive: true }, { accountId: elsewhere.id, role: AccountRole.SupportStaff, isActive: true }],
      });
    });

    it('an admin gives a removed user access to the account again', async () => {
      const account = (await admin.post('/api/admin/accounts/create', newAccount()).expect(201)).body;
      const staff = await provider(account.id, AccountRole.SupportStaff);
      const session = await firstSignIn(t.app, staff.email, 'provider', '10.60.8.3');
      const base = `/api/provider-clinic/${account.id}`;
      await admin.post('/api/admin/remove-account-access', { contactId: staff.contactId, accountId: account.id }).expect(200);
      await session.agent.get(`${base}/tests?category=PENDING`).expect(404);
      const back = await admin.post('/api/admin/add-account-access', { contactId: staff.contactId, accountId: account.id, role: AccountRole.SupportStaff }).expect(200);
      expect(back.body.memberships).to.deep.equal([{ accountId: account.id, accountName: account.name, role: AccountRole.SupportStaff, isActive: true }]);
      await session.agent.get(`${base}/tests?category=PENDING`).expect(200);
    });

    it('support staff order only for the physicians they are linked to', async () => {
      const account = (await admin.post('/api/admin/accounts/create', newAccount({ physicians: [] })).expect(201)).body;
      const doctor = await provider(account.id, AccountRole.Physician, ProviderTitle.Physician, freshNpi());
      const colleague = await provider(account.id, AccountRole.Physician, ProviderTitle.Physician, freshNpi());
      const staff = await provider(account.id, AccountRole.SupportStaff);
      // The same links set N times at once: every answer 200, never a 500 (provider_staff_relationships_key), one link kept.
      const upserts = await Promise.all(Array.from({ length: 5 }, () =>
        admin.post('/api/admin/provider-staff-relationships/upsert', { accountId: account.id, staffContactId: staff.contactId, physicianContactIds: [doctor.contactId] })));
      expect(upserts.map((u) => u.status)).to.deep.equal([200, 200, 200, 200, 200]);
      const links = (await admin.agent.get(`/api/admin/provider-staff-relationships/get-support-staff?accountId=${account.id}`).expect(200)).body;
      expect(links).to.have.length(1);
      expect(links[0].physicians.map((p: { contactId: number }) => p.contactId)).to.deep.equal([doctor.contactId]);

      const s = await firstSignIn(t.app, staff.email, 'provider', '10.60.6.1');
      const base = `/api/provider-clinic/${account.id}`;
      const mine = (await s.agent.get(`${base}/get-physicians-by-contact`).expect(200)).body as { id: number; name: string }[];
      expect(mine).to.have.length(1);
      const all = (await s.agent.get(`${base}/physicians`).expect(200)).body as { id: number; name: string }[];
      const unlinked = all.find((p) => p.id !== mine[0].id)!;
      const patient = (await s.post(`${base}/patient`, { firstName: 'Ola', lastName: 'Linked', dateOfBirth: '1955-02-03', sex: 'M' }).expect(201)).body;
      const order = { patientId: patient.id, tests: ['KRAS'], sampleType: 'Saliva', attestations: { medicalNecessity: true, informedConsent: true, reimbursementClaim: true, supportingDocumentation: true }, diagnosisCodes: ['C61'] };
      const refused = await s.post(`${base}/order`, { ...order, physicianId: unlinked.id }).expect(403);
      expect(refused.body.error.message).to.equal('You may order only for the physicians you are linked to in this account');
      await s.post(`${base}/order`, { ...order, physicianId: mine[0].id }).expect(201);
      expect(colleague.contactId).to.not.equal(doctor.contactId);
    });
  });

  describe('lab users, insurance plans, financial aid', () => {
    it('creates a lab toolbox user who sets a password and signs in; deactivation keeps the row and signs them out', async () => {
      const email = `tech-${tag()}@lab.test`;
      const created = await admin.post('/api/admin/lab-toolbox/users/create', { firstName: 'Tess', lastName: 'Tube', email }).expect(201);
      expect(created.body.message).to.equal(`Lab toolbox user Tess Tube added: an email to set a password is on its way to ${email}`);
      await admin.post('/api/admin/lab-toolbox/users/create', { firstName: 'Tess', lastName: 'Again', email }).expect(409);
      const lab = await firstSignIn(t.app, email, 'lab', '10.60.7.1');
      await lab.agent.get('/api/auth/me').expect(200);
      const gone = await admin.post('/api/admin/lab-toolbox/users/delete', { userId: created.body.user.id }).expect(200);
      expect(gone.body.isActive).to.equal(false);
      await lab.agent.get('/api/auth/me').expect(401);
      const list = (await admin.agent.get('/api/admin/lab-toolbox/users').expect(200)).body as { email: string; isActive: boolean }[];
      expect(list.find((u) => u.email === email)).to.include({ isActive: false });
    });

    it('reactivates a deactivated lab toolbox user, who signs in again; an active or unknown user is refused', async () => {
      const email = `tech-${tag()}@lab.test`;
      const created = (await admin.post('/api/admin/lab-toolbox/users/create', { firstName: 'Rhea', lastName: 'Agent', email }).expect(201)).body;
      const userId = created.user.id as number;
      // Their password (as if chosen from the emailed link).
      const password = `lab-password-${tag()}3`;
      await t.ctx.db.models.User.update({ passwordHash: await hashPassword(password) }, { where: { id: userId } });

      // Only an admin may, and only a lab user who is inactive.
      const already = await admin.post('/api/admin/lab-toolbox/users/reactivate', { userId }).expect(409);
      expect(already.body.error.message).to.equal('Rhea Agent is already active');
      await admin.post('/api/admin/lab-toolbox/users/delete', { userId }).expect(200);
      const signInRefused = await newSession(t.app, '10.60.7.3');
      await signInRefused.post('/api/auth/login', { email, password, portal: 'lab' }).expect(401);
      const labUser = await signIn(t.app, 'lab1', 'lab', '10.60.7.4');
      await labUser.post('/api/admin/lab-toolbox/users/reactivate', { userId }).expect(403);
      const superAdmin = await signIn(t.app, 'superAdmin', 'provider', '10.60.7.5');
      await superAdmin.post('/api/admin/lab-toolbox/users/reactivate', { userId }).expect(403);
      const unknown = await admin.post('/api/admin/lab-toolbox/users/reactivate', { userId: 2_000_000_000 }).expect(404);
      expect(unknown.body.error.message).to.equal('Lab toolbox user not found');
      const provider = await t.ctx.db.models.User.findOne({ where: { email: 'physician@demo.test' } });
      await admin.post('/api/admin/lab-toolbox/users/reactivate', { userId: provider!.id }).expect(404);
      const bad = await admin.post('/api/admin/lab-toolbox/users/reactivate', { userId: 'x' }).expect(400);
      expect(bad.body.error.fields.map((f: { field: string }) => f.field)).to.deep.equal(['userId']);
      expect((await t.ctx.db.models.User.findByPk(userId))!.isActive, 'nothing refused changed anything').to.equal(false);

      // The admin reactivates: the row answers active, the list says so, and they sign in to the Lab Toolbox.
      const back = await admin.post('/api/admin/lab-toolbox/users/reactivate', { userId }).expect(200);
      expect(back.body).to.include({ id: userId, email, isActive: true });
      const list = (await admin.agent.get('/api/admin/lab-toolbox/users').expect(200)).body as { id: number; isActive: boolean }[];
      expect(list.find((u) => u.id === userId)).to.include({ isActive: true });
      const again = await signInWith(t.app, { email, password, portal: 'lab' }, '10.60.7.6');
      expect((await again.agent.get('/api/auth/me').expect(200)).body.user).to.include({ email });
      const audit = await t.ctx.db.models.AuditEvent.findAll({ where: { action: 'lab_user.reactivated', entityId: String(userId) } });
      expect(audit.map((a) => a.details)).to.deep.equal([{ before: { isActive: false }, after: { isActive: true } }]);
      expect(audit[0].actorUserId).to.equal((await t.ctx.db.models.User.findOne({ where: { email: 'admin@demo.test' } }))!.id);
    });

    it('keeps insurance plans: create, rename, retire, and a taken name is a 409', async () => {
      const name = `Harbor Health ${tag()}`;
      const plan = (await admin.post('/api/admin/insurance-plans/create', { name, payerCode: 'HH1' }).expect(201)).body;
      expect(plan).to.include({ name, payerCode: 'HH1', isActive: true });
      const dup = await admin.post('/api/admin/insurance-plans/create', { name: name.toLowerCase() }).expect(409);
      expect(dup.body.error.message).to.equal(`An insurance plan named "${name.toLowerCase()}" already exists`);
      const retired = (await admin.post(`/api/admin/insurance-plans/${plan.id}/update`, { name, payerCode: 'HH1', isActive: false }).expect(200)).body;
      expect(retired.isActive).to.equal(false);
      const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'insurance_plan.updated', entityId: String(plan.id) } });
      expect(audit!.details).to.deep.include({ before: { id: plan.id, name, payerCode: 'HH1', isActive: true } });
    });

    it('records financial assistance for a new patient and lists it for that patient', async () => {
      const last = `Aidwell${tag().replace(/\d/g, '')}`;
      const record = (await admin.post('/api/admin/patients/financial-assistance/create', {
        patient: { firstName: 'Mara', lastName: last, dateOfBirth: '1961-06-01', email: `mara-${tag()}@patients.test` },
        approvedPriceCents: 10000, validUntil: '2099-12-31', note: 'Household income under the threshold',
      }).expect(201)).body;
      expect(record).to.include({ patientName: `Mara ${last}`, approvedPriceCents: 10000, validUntil: '2099-12-31', current: true, createdBy: 'Ada Admin' });
      const found = (await admin.post('/api/admin/patients/search', { q: last }).expect(200)).body;
      expect(found).to.have.length(1);
      expect(found[0]).to.include({ name: `Mara ${last}`, accountName: null });
      const list = await admin.agent.get(`/api/admin/patients/financial-assistance?patientId=${found[0].id}`).expect(200);
      expect(list.headers['x-total-count']).to.equal('1');
      expect(list.body[0].id).to.equal(record.id);
      const both = await admin.post('/api/admin/patients/financial-assistance/create', {
        patientId: found[0].id, patient: { firstName: 'X', lastName: 'Y', dateOfBirth: '1961-06-01', email: 'x@y.test' }, approvedPriceCents: 1, validUntil: '2099-01-01',
      }).expect(400);
      expect(both.body.error.message).to.equal('Choose an existing patient or enter a new one, not both');
    });

    it('shows what needs attention: providers waiting', async () => {
      const before = (await admin.agent.get('/api/admin/attention').expect(200)).body;
      await (await newSession(t.app, '10.60.8.1')).post('/api/auth/request-access', {
        firstName: 'Wade', lastName: 'Waiting', email: `wait-${tag()}@x.test`, title: ProviderTitle.Other, accountName: 'Somewhere',
      }).expect(202);
      const after = (await admin.agent.get('/api/admin/attention').expect(200)).body;
      expect(after.pendingProviders).to.equal(before.pendingProviders + 1);
    });
  });
});
