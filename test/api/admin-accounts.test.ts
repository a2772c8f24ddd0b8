/**
 * Accounts the admin runs (issue 31, part 2): the list (search, portal access and type filters,
 * users and samples counted), the account page's read and edit (addresses, phone, flags,
 * departments, physicians with NPI, support mailboxes per test line), field-named refusals, the
 * audit's old and new values, and the support mailbox in the result email about a test of its line.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { AccountType, JobStatus, Specialty, TestLine, type AdminAccountDetail, type AdminAccountRow, type UpdateAccountBody } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { accountShippingAddress } from '@platform/server';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker, testConfig } from '../support/server';
import { waitForMail } from '../support/mail';
import { VALID_NPIS } from '../support/fixtures/first-sign-in';
import { createClinic, createResult, runJob } from '../support/fixtures/reports';

const tag = () => randomBytes(4).toString('hex');
const SHIPPING = { addressLine1: '10 Harbor Way', addressLine2: 'Suite 200', city: 'Bayport', state: 'CA', postalCode: '94000', country: 'US' };

describe('admin accounts: list and account page', function () {
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
    await worker.close();
    await t.close();
  });

  const createAccount = async (overrides: Record<string, unknown> = {}): Promise<AdminAccountRow> =>
    (await admin.post('/api/admin/accounts/create', {
      name: `Harbor Accounts ${tag()}`, type: AccountType.General, clinicAccess: true, departments: ['Radiation Oncology'],
      physicians: [{ firstName: 'Nadia', lastName: 'Ortiz', npi: VALID_NPIS[1], specialty: Specialty.RadiationOncology }], ...overrides,
    }).expect(201)).body;

  /** The account page's answer turned back into what the page sends. */
  const asEdit = (d: AdminAccountDetail): UpdateAccountBody => ({
    name: d.name, type: d.type, eapPartner: d.eapPartner, international: d.international, clinicAccess: d.clinicAccess, researchAccess: d.researchAccess,
    takesPatientOrders: d.takesPatientOrders, phone: d.phone, shippingAddress: d.shippingAddress, billingAddress: d.billingAddress, departments: d.departments,
    physicians: d.physicians.map((p) => ({ id: p.id, firstName: p.firstName, lastName: p.lastName, npi: p.npi ?? '', specialty: p.specialty })),
    supportMailboxes: d.supportMailboxes,
  });

  it('finds accounts by name, by portal access and by type, with their users and samples counted, a page at a time', async () => {
    const word = `Findme${tag()}`;
    const clinic = await createAccount({ name: `${word} Clinic` });
    const research = await createAccount({ name: `${word} Research`, clinicAccess: false, researchAccess: true, type: AccountType.ProstoxResearchPartner, physicians: [] });
    const fixture = await createClinic(t.ctx.db, 'list');
    await t.ctx.db.models.Account.update({ name: `${word} Results` }, { where: { id: fixture.account.id } });
    await createResult(t.ctx.db, { accountId: fixture.account.id, physicianId: fixture.physician.id });
    await createResult(t.ctx.db, { accountId: fixture.account.id, physicianId: fixture.physician.id });

    const all = await admin.agent.get(`/api/admin/accounts?q=${word.toLowerCase()}`).expect(200);
    expect(all.body.map((a: AdminAccountRow) => a.name)).to.deep.equal([`${word} Clinic`, `${word} Research`, `${word} Results`]);
    expect(all.headers['x-total-count']).to.equal('3');
    const results = all.body.find((a: AdminAccountRow) => a.id === fixture.account.id);
    expect(results).to.include({ userCount: 1, sampleCount: 2 });
    expect(all.body.find((a: AdminAccountRow) => a.id === clinic.id)).to.include({ userCount: 0, sampleCount: 0, physicianCount: 1 });

    const researchOnly = await admin.agent.get(`/api/admin/accounts?q=${word}&access=research`).expect(200);
    expect(researchOnly.body.map((a: AdminAccountRow) => a.id)).to.deep.equal([research.id]);
    const clinics = await admin.agent.get(`/api/admin/accounts?q=${word}&access=clinic`).expect(200);
    expect(clinics.body.map((a: AdminAccountRow) => a.id)).to.deep.equal([clinic.id, fixture.account.id]);
    const partners = await admin.agent.get(`/api/admin/accounts?q=${word}&type=${encodeURIComponent(AccountType.ProstoxResearchPartner)}`).expect(200);
    expect(partners.body.map((a: AdminAccountRow) => a.id)).to.deep.equal([research.id]);

    const page2 = await admin.agent.get(`/api/admin/accounts?q=${word}&pageSize=2&page=2`).expect(200);
    expect(page2.body.map((a: AdminAccountRow) => a.name)).to.deep.equal([`${word} Results`]);
    expect(page2.headers['x-total-count']).to.equal('3');

    const bad = await admin.agent.get('/api/admin/accounts?access=lab&type=Nope').expect(400);
    expect(bad.body.error.fields.map((f: { field: string }) => f.field).sort()).to.deep.equal(['access', 'type']);
  });

  it('edits an account: addresses, phone, flags, departments, physicians and support mailboxes, saved and audited with old and new values', async () => {
    const created = await createAccount();
    const before: AdminAccountDetail = (await admin.agent.get(`/api/admin/accounts/${created.id}`).expect(200)).body;
    expect(before).to.include({ name: created.name, phone: null, shippingAddress: null, billingAddress: null, researchAccess: false });
    expect(before.departments).to.deep.equal(['Radiation Oncology']);
    expect(before.physicians).to.have.length(1);

    const edit: UpdateAccountBody = {
      ...asEdit(before),
      phone: '(555) 010-2000',
      researchAccess: true,
      takesPatientOrders: true,
      shippingAddress: { ...SHIPPING, state: 'ca' },
      billingAddress: { addressLine1: '1 Rue de la Paix', addressLine2: null, city: 'Montréal', state: 'QC', postalCode: 'H2X 1Y4', country: 'ca' },
      departments: ['Radiation Oncology', 'Urology'],
      physicians: [
        { ...asEdit(before).physicians[0], lastName: 'Ortiz-Lane' },
        { id: null, firstName: 'Sam', lastName: 'Reed', npi: VALID_NPIS[2], specialty: null },
      ],
      supportMailboxes: [{ testLine: TestLine.Prostox, email: 'Prostox-Help@Lab.test' }],
    };
    const saved: AdminAccountDetail = (await admin.put(`/api/admin/accounts/${created.id}`, edit).expect(200)).body;
    expect(saved).to.include({ phone: '(555) 010-2000', researchAccess: true, takesPatientOrders: true });
    expect(saved.shippingAddress).to.deep.equal(SHIPPING);
    expect(saved.billingAddress).to.deep.equal({ addressLine1: '1 Rue de la Paix', addressLine2: null, city: 'Montréal', state: 'QC', postalCode: 'H2X 1Y4', country: 'CA' });
    expect(saved.departments).to.deep.equal(['Radiation Oncology', 'Urology']);
    expect(saved.physicians.map((p) => `${p.firstName} ${p.lastName} ${p.npi}`)).to.deep.equal([`Nadia Ortiz-Lane ${VALID_NPIS[1]}`, `Sam Reed ${VALID_NPIS[2]}`]);
    expect(saved.physicians[0].id, 'the edited physician keeps its id').to.equal(before.physicians[0].id);
    expect(saved.supportMailboxes).to.deep.equal([{ testLine: 'PROSTOX', email: 'prostox-help@lab.test' }]);
    expect(await admin.agent.get(`/api/admin/accounts/${created.id}`).expect(200).then((r) => r.body)).to.deep.equal(saved);
    expect(await accountShippingAddress(t.ctx.db, created.id), 'shipping reads the same address').to.deep.equal(SHIPPING);

    const audits = await t.ctx.db.models.AuditEvent.findAll({ where: { action: 'account.updated', entityKind: 'account', entityId: String(created.id) } });
    expect(audits).to.have.length(1);
    const details = audits[0].details as { before: Record<string, unknown>; after: Record<string, unknown> };
    expect(Object.keys(details.after).sort()).to.deep.equal(['billingAddress', 'departments', 'phone', 'physicians', 'researchAccess', 'shippingAddress', 'supportMailboxes', 'takesPatientOrders']);
    expect(details.before).to.deep.include({ phone: null, researchAccess: false, shippingAddress: null, supportMailboxes: {} });
    expect(details.after).to.deep.include({ phone: '(555) 010-2000', researchAccess: true, supportMailboxes: { PROSTOX: 'prostox-help@lab.test' } });
    expect(details.after.physicians).to.deep.equal([`Nadia Ortiz-Lane (NPI ${VALID_NPIS[1]}, Radiation Oncology)`, `Sam Reed (NPI ${VALID_NPIS[2]})`]);

    // The same edit again changes nothing and writes no audit event.
    await admin.put(`/api/admin/accounts/${created.id}`, asEdit(saved)).expect(200);
    expect(await t.ctx.db.models.AuditEvent.count({ where: { action: 'account.updated', entityId: String(created.id) } })).to.equal(1);

    // Removing the shipping address and a physician with no orders.
    const cleared: AdminAccountDetail = (await admin.put(`/api/admin/accounts/${created.id}`, { ...asEdit(saved), shippingAddress: null, physicians: asEdit(saved).physicians.slice(0, 1) }).expect(200)).body;
    expect(cleared.shippingAddress).to.equal(null);
    expect(cleared.physicians).to.have.length(1);
    expect(await accountShippingAddress(t.ctx.db, created.id)).to.equal(null);
  });

  it('says which field is wrong: an address field, the NPI check digit, the phone, a test line, a mailbox; a taken name is a 409', async () => {
    const created = await createAccount();
    const base = asEdit((await admin.agent.get(`/api/admin/accounts/${created.id}`).expect(200)).body);
    const refusal = async (body: unknown, status = 400) => (await admin.put(`/api/admin/accounts/${created.id}`, body).expect(status)).body.error.fields as { field: string; message: string }[];

    const address = await refusal({ ...base, shippingAddress: { addressLine1: '', city: 'Bayport', state: 'California', postalCode: '9400', country: 'US' } });
    expect(address).to.deep.include({ field: 'shippingAddress.addressLine1', message: 'Shipping address line 1 is not allowed to be empty' });
    expect(address.map((f) => f.field)).to.include.members(['shippingAddress.state', 'shippingAddress.postalCode']);
    expect(address.find((f) => f.field === 'shippingAddress.postalCode')!.message).to.match(/ZIP code.*5 digits/);
    const country = await refusal({ ...base, billingAddress: { ...SHIPPING, country: 'USA' } });
    expect(country.map((f) => f.field)).to.deep.equal(['billingAddress.country']);

    const npi = await refusal({ ...base, physicians: [{ id: null, firstName: 'Ada', lastName: 'Byrne', npi: '1234567890', specialty: null }] });
    expect(npi).to.deep.equal([{ field: 'physicians.0.npi', message: 'NPI must be a valid 10-digit National Provider Identifier' }]);
    expect((await refusal({ ...base, phone: 'call me' })).map((f) => f.field)).to.deep.equal(['phone']);
    const lines = await refusal({ ...base, supportMailboxes: [{ testLine: 'Nope', email: 'x@lab.test' }, { testLine: TestLine.Kras, email: 'not-an-address' }] });
    expect(lines.map((f) => f.field)).to.deep.equal(['supportMailboxes.0.testLine', 'supportMailboxes.1.email']);
    expect((await refusal({ ...base, clinicAccess: false, researchAccess: false }))[0].message).to.equal('An account needs clinic access, research access or both');

    const other = await createAccount();
    const taken = await refusal({ ...base, name: other.name.toUpperCase() }, 409);
    expect(taken).to.deep.equal([{ field: 'name', message: `An account named "${other.name.toUpperCase()}" already exists` }]);
    await admin.agent.get('/api/admin/accounts/99999999').expect(404);
    await admin.put('/api/admin/accounts/99999999', base).expect(404);
  });

  it("keeps a physician that orders name (409 naming them) and refuses another account's physician id", async () => {
    const clinic = await createClinic(t.ctx.db, 'keep');
    await clinic.physician.update({ lastName: 'Keeper' }); // the fixture's name carries digits, which the account page refuses
    await createResult(t.ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id });
    const base = asEdit((await admin.agent.get(`/api/admin/accounts/${clinic.account.id}`).expect(200)).body);
    const kept = await admin.put(`/api/admin/accounts/${clinic.account.id}`, { ...base, physicians: [] }).expect(409);
    expect(kept.body.error.fields).to.deep.equal([{ field: 'physicians', message: 'Dana Keeper is named on orders and cannot be removed' }]);
    const other = await createAccount();
    const foreign = (await admin.agent.get(`/api/admin/accounts/${other.id}`).expect(200)).body as AdminAccountDetail;
    await admin.put(`/api/admin/accounts/${clinic.account.id}`, { ...base, physicians: [...base.physicians, { ...asEdit(foreign).physicians[0] }] }).expect(404);
    const still = (await admin.agent.get(`/api/admin/accounts/${other.id}`).expect(200)).body as AdminAccountDetail;
    expect(still.physicians).to.deep.equal(foreign.physicians);
  });

  it('refuses everyone but admins: anonymous 401, providers and lab users 403', async () => {
    const created = await createAccount();
    const anonymous = await newSession(t.app, '10.61.1.1');
    const callers: [string, Session, number][] = [
      ['anonymous', anonymous, 401],
      ['super admin', await signIn(t.app, 'superAdmin', 'provider', '10.61.1.2'), 403],
      ['lab user', await signIn(t.app, 'lab1', 'lab', '10.61.1.3'), 403],
    ];
    for (const [who, session, status] of callers) {
      expect((await session.agent.get(`/api/admin/accounts/${created.id}`)).status, `${who} GET`).to.equal(status);
      expect((await session.put(`/api/admin/accounts/${created.id}`, { name: 'Taken over' })).status, `${who} PUT`).to.equal(status);
    }
    expect((await t.ctx.db.models.Account.findByPk(created.id))!.name).to.equal(created.name);
  });

  it("names the account's support mailbox for the test's line in the result email to the clinic; another line uses the lab's address", async () => {
    const clinic = await createClinic(t.ctx.db, 'mailbox');
    await clinic.physician.update({ lastName: 'Mailer' });
    const base = asEdit((await admin.agent.get(`/api/admin/accounts/${clinic.account.id}`).expect(200)).body);
    await admin.put(`/api/admin/accounts/${clinic.account.id}`, { ...base, supportMailboxes: [{ testLine: TestLine.Prostox, email: 'prostox-desk@lab.test' }] }).expect(200);

    const prostox = await createResult(t.ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, testName: 'PROSTOX ultra' });
    expect((await runJob(t.ctx, 'notify-result', { testResultId: prostox.resultId })).status).to.equal(JobStatus.Completed);
    const [mail] = await waitForMail(clinic.email, 1, { matching: (m) => m.subject.includes(prostox.barcode) });
    expect(mail.text).to.include('Questions about this PROSTOX ultra result: write to prostox-desk@lab.test');

    const kras = await createResult(t.ctx.db, { accountId: clinic.account.id, physicianId: clinic.physician.id, testName: 'KRAS', value: 'T/T negative' });
    await t.ctx.db.models.TestResult.update({ scale: 'kras' }, { where: { id: kras.resultId } });
    expect((await runJob(t.ctx, 'notify-result', { testResultId: kras.resultId })).status).to.equal(JobStatus.Completed);
    const [krasMail] = await waitForMail(clinic.email, 1, { matching: (m) => m.subject.includes(kras.barcode) });
    expect(krasMail.text).to.include(`Questions about this KRAS result: write to ${testConfig().lab.email}`);
  });
});
