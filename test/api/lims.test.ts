/**
 * The LIMS calls (lab users only) and sfpatient/search (lab users and admins): who may call each,
 * what each answers, the sample metadata correction (a reason required, nothing changes without
 * one, the old and new values in the audit event, refused once a result is released) and the kit
 * check before intake (an unknown barcode answers clearly).
 */
import { expect } from 'chai';
import { Op } from 'sequelize';
import { SampleType, SPECIMEN_SOURCES } from '@platform/domain';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { freshBarcode, makeResult, makeSample, SampleStatus, TestName, TestResultStatus, userId } from '../support/fixtures/lab';

describe('LIMS calls and the cross-account patient search', function () {
  this.timeout(60_000);
  let t: TestApp;
  let lab: Session;
  let admin: Session;
  let provider: Session;
  let anonymous: Session;
  let riversideId: number;

  before(async () => {
    t = await buildTestApp();
    lab = await signIn(t.app, 'lab1', 'lab');
    admin = await signIn(t.app, 'admin', 'admin');
    provider = await signIn(t.app, 'physician', 'provider');
    anonymous = await newSession(t.app);
    riversideId = (await t.ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
  });
  after(() => t.close());

  const auditsOf = (action: string, entityId?: number) =>
    t.ctx.db.models.AuditEvent.findAll({ where: { action, ...(entityId ? { entityId: String(entityId) } : {}) }, order: [['id', 'ASC']] });

  describe('who may call', () => {
    it('every LIMS call: anonymous 401, providers and admins 403, lab users 200', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InTransit });
      const calls: { method: 'get' | 'post'; path: string; body?: object }[] = [
        { method: 'get', path: '/api/lims/accounts' },
        { method: 'get', path: `/api/lims/accounts/${riversideId}/departments` },
        { method: 'get', path: `/api/lims/accounts/${riversideId}/physicians` },
        { method: 'get', path: '/api/lims/contact/technicians' },
        { method: 'get', path: `/api/lims/sample/${s.id}` },
        { method: 'get', path: `/api/lims/sample/auth/${s.barcode}` },
        { method: 'post', path: '/api/lims/sample/update', body: { sampleId: s.id, reason: 'Requisition says saliva', sampleType: SampleType.Saliva } },
      ];
      for (const call of calls) {
        const send = (who: Session) => (call.method === 'get' ? who.agent.get(call.path) : who.post(call.path, call.body));
        expect((await send(anonymous)).status, `${call.path} anonymous`).to.equal(401);
        expect((await send(provider)).status, `${call.path} provider`).to.equal(403);
        expect((await send(admin)).status, `${call.path} admin`).to.equal(403);
        expect((await send(lab)).status, `${call.path} lab`).to.equal(200);
      }
    });

    it('sfpatient/search: lab users and admins 200, providers 403, anonymous 401', async () => {
      const body = { q: 'Labson' };
      expect((await anonymous.post('/api/sfpatient/search', body)).status).to.equal(401);
      expect((await provider.post('/api/sfpatient/search', body)).status).to.equal(403);
      expect((await lab.post('/api/sfpatient/search', body)).status).to.equal(200);
      expect((await admin.post('/api/sfpatient/search', body)).status).to.equal(200);
    });
  });

  describe('reference data', () => {
    it('lims/accounts pages every account by name with x-total-count, and finds one by part of its name', async () => {
      const all = await lab.agent.get('/api/lims/accounts?pageSize=200').expect(200);
      expect(Number(all.headers['x-total-count'])).to.be.at.least(3);
      const names = all.body.map((a: { name: string }) => a.name);
      expect(names).to.include.members(['Riverside Oncology', 'Lakeside Urology', 'Northwind Research']);
      expect(names).to.deep.equal([...names].sort((a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
      const found = await lab.agent.get('/api/lims/accounts?q=riverside').expect(200);
      expect(found.headers['x-total-count']).to.equal('1');
      expect(found.body[0]).to.deep.include({ id: riversideId, name: 'Riverside Oncology', eapPartner: true, clinicAccess: true, isActive: true });
      const page = await lab.agent.get('/api/lims/accounts?pageSize=1&page=2').expect(200);
      expect(page.body).to.have.length(1);
      const bad = await lab.agent.get('/api/lims/accounts?pageSize=500').expect(400);
      expect(bad.body.error.fields[0].field).to.equal('pageSize');
    });

    it('an account\'s departments and physicians; an unknown account is a 404', async () => {
      const departments = await lab.agent.get(`/api/lims/accounts/${riversideId}/departments`).expect(200);
      expect(departments.body.map((d: { name: string }) => d.name)).to.deep.equal(['Radiation Oncology']);
      const physicians = await lab.agent.get(`/api/lims/accounts/${riversideId}/physicians`).expect(200);
      expect(physicians.body.map((p: { name: string }) => p.name)).to.include.members(['Paula Grant', 'Omar Reyes']);
      expect(physicians.body.find((p: { name: string }) => p.name === 'Omar Reyes')).to.deep.include({ npi: '1987654321', specialty: 'Urology' });
      for (const path of ['/api/lims/accounts/999999999/departments', '/api/lims/accounts/999999999/physicians', '/api/lims/accounts/abc/physicians']) {
        const res = await lab.agent.get(path).expect(404);
        expect(res.body.error.message, path).to.equal('Account not found');
      }
    });

    it('lims/contact/technicians lists the lab\'s people with their lab user', async () => {
      const res = await lab.agent.get('/api/lims/contact/technicians').expect(200);
      const lab1 = res.body.find((x: { name: string }) => x.name === 'Leo Bench');
      expect(lab1).to.deep.include({ userId: await userId(t.ctx.db, 'lab1'), email: 'lab1@demo.test', active: true });
      expect(res.body.map((x: { name: string }) => x.name)).to.include('Lena Pipette');
    });
  });

  describe('lims/sample/{id}', () => {
    it('finds a sample by id or by barcode: status, type, dates, account, patient, tests and timeline; the read is audited', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra, TestName.Kras] });
      const r = await makeResult(t.ctx.db, s.testIds[1], 'T/G positive heterozygous', await userId(t.ctx.db, 'lab1'));
      const byId = await lab.agent.get(`/api/lims/sample/${s.id}`).expect(200);
      const byBarcode = await lab.agent.get(`/api/lims/sample/${s.barcode}`).expect(200);
      expect(byBarcode.body).to.deep.equal(byId.body);
      const v = byId.body;
      expect(v).to.deep.include({ id: s.id, barcode: s.barcode, status: 'In Testing', sampleType: 'Buccal Swab', specimenSource: SPECIMEN_SOURCES['Buccal Swab'] });
      expect(v.account).to.deep.equal({ id: riversideId, name: 'Riverside Oncology' });
      expect(v.patient).to.deep.include({ id: s.patientId, firstName: 'Testy', dateOfBirth: '1960-02-03', sex: 'M' });
      expect(v.receivedAt).to.be.a('string');
      expect(v.order.origin).to.equal('Provider Ordered');
      expect(v.physician.name).to.be.a('string');
      expect(v.tests.map((x: { name: string }) => x.name)).to.deep.equal(['PROSTOX ultra', 'KRAS']);
      expect(v.tests[0].result).to.equal(null);
      expect(v.tests[1].result).to.deep.include({ id: r.id, version: 1, value: 'T/G positive heterozygous', status: 'In Review', releasedAt: null });
      expect(v.timeline.map((e: { to: string }) => e.to)).to.deep.equal(['Order Placed', 'Pending Shipment', 'In Transit', 'In Queue', 'In Testing']);
      const audits = await auditsOf('sample.viewed', s.id);
      expect(audits).to.have.length(2);
      expect(audits[0].details).to.deep.equal({ by: 'lims', patientId: s.patientId });
    });

    it('an unknown id or barcode is a 404 that says so', async () => {
      const barcode = freshBarcode();
      const res = await lab.agent.get(`/api/lims/sample/${barcode}`).expect(404);
      expect(res.body.error.message).to.equal(`No sample has id or barcode ${barcode}`);
      await lab.agent.get('/api/lims/sample/999999999').expect(404);
      await lab.agent.get('/api/lims/sample/not-a-sample').expect(404);
    });
  });

  describe('lims/sample/update', () => {
    const snapshot = async (sampleId: number) => {
      const sample = (await t.ctx.db.models.Sample.findByPk(sampleId))!;
      const patient = (await t.ctx.db.models.Patient.findByPk(sample.patientId))!;
      return { sampleType: sample.sampleType, collectedAt: sample.collectedAt?.toISOString() ?? null, firstName: patient.firstName, lastName: patient.lastName, dateOfBirth: patient.dateOfBirth, sex: patient.sex };
    };

    it('without a reason (missing, empty or blank) is refused naming the field, and nothing changes', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      const before = await snapshot(s.id);
      const change = { sampleId: s.id, sampleType: SampleType.Blood, patient: { firstName: 'Tessa' } };
      for (const reason of [undefined, '', '   ']) {
        const res = await lab.post('/api/lims/sample/update', reason === undefined ? change : { ...change, reason }).expect(400);
        expect(res.body.error.fields.map((f: { field: string }) => f.field), JSON.stringify(reason)).to.deep.equal(['reason']);
        expect(res.body.error.message).to.equal('Reason is required: say why the sample is corrected');
      }
      expect(await snapshot(s.id)).to.deep.equal(before);
      expect(await auditsOf('sample.metadata_corrected', s.id)).to.have.length(0);
    });

    it('corrects the sample type, collection time and patient details in one go; the audit keeps the reason and every old and new value', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      const before = await snapshot(s.id);
      const collectedAt = new Date(Date.now() - 2 * 86_400_000).toISOString();
      const res = await lab.post('/api/lims/sample/update', {
        sampleId: s.id, reason: '  Requisition form says saliva, collected two days ago; name misspelt  ', sampleType: SampleType.Saliva, collectedAt,
        patient: { firstName: 'Tessa', dateOfBirth: '1960-03-02', sex: 'F' },
      }).expect(200);
      const changes = [
        { field: 'sampleType', from: 'Buccal Swab', to: 'Saliva' },
        { field: 'collectedAt', from: null, to: collectedAt },
        { field: 'patient.firstName', from: 'Testy', to: 'Tessa' },
        { field: 'patient.dateOfBirth', from: '1960-02-03', to: '1960-03-02' },
        { field: 'patient.sex', from: 'M', to: 'F' },
      ];
      expect(res.body.changes).to.deep.equal(changes);
      expect(res.body.sample).to.deep.include({ sampleType: 'Saliva', collectedAt, specimenSource: SPECIMEN_SOURCES.Saliva });
      expect(res.body.sample.patient).to.deep.include({ firstName: 'Tessa', dateOfBirth: '1960-03-02', sex: 'F' });
      expect(await snapshot(s.id)).to.deep.equal({ ...before, sampleType: 'Saliva', collectedAt, firstName: 'Tessa', dateOfBirth: '1960-03-02', sex: 'F' });

      const [audit] = await auditsOf('sample.metadata_corrected', s.id);
      expect(audit.actorUserId).to.equal(await userId(t.ctx.db, 'lab1'));
      expect(audit.details).to.deep.equal({ reason: 'Requisition form says saliva, collected two days ago; name misspelt', patientId: s.patientId, changes });

      // A field given with the value it has is not a change.
      const again = await lab.post('/api/lims/sample/update', { sampleId: s.id, reason: 'first name is Tess', sampleType: SampleType.Saliva, patient: { firstName: 'Tess' } }).expect(200);
      expect(again.body.changes).to.deep.equal([{ field: 'patient.firstName', from: 'Tessa', to: 'Tess' }]);
    });

    it('refuses bad values naming the field (type, future or after-receipt collection, unknown keys, no change at all), changing nothing', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      const before = await snapshot(s.id);
      const reason = 'checking';
      const cases: [object, string, RegExp][] = [
        [{ sampleType: 'Urine' }, 'sampleType', /^Sample type must be one of: Buccal Swab/],
        [{ collectedAt: new Date(Date.now() + 86_400_000).toISOString() }, 'collectedAt', /cannot be in the future/],
        [{ collectedAt: 'yesterday' }, 'collectedAt', /must be a date and time/],
        [{ collectedAt: new Date().toISOString() }, 'collectedAt', /^The collection time must be before the sample was received/],
        [{ patient: { dateOfBirth: '1960-02-30' } }, 'patient.dateOfBirth', /real date/],
        [{ patient: {} }, 'patient', /at least one field/],
        [{ patient: { middleName: 'X' } }, 'patient.middleName', /not allowed/],
        [{ barcode: '41000000000001' }, 'barcode', /not allowed/],
        [{}, '', /Give at least one correction/],
      ];
      for (const [change, field, message] of cases) {
        const res = await lab.post('/api/lims/sample/update', { sampleId: s.id, reason, ...change }).expect(400);
        const fields = (res.body.error.fields ?? []).map((f: { field: string }) => f.field);
        if (field) expect(fields, JSON.stringify(change)).to.include(field);
        expect(res.body.error.message, JSON.stringify(change)).to.match(message);
      }
      const same = await lab.post('/api/lims/sample/update', { sampleId: s.id, reason, sampleType: before.sampleType }).expect(400);
      expect(same.body.error.message).to.equal('Nothing to correct: the sample and patient already have these values');
      await lab.post('/api/lims/sample/update', { sampleId: 999999999, reason, sampleType: SampleType.Blood }).expect(404);
      expect(await snapshot(s.id)).to.deep.equal(before);
      expect(await auditsOf('sample.metadata_corrected', s.id)).to.have.length(0);
    });

    it('a COVID-19 sample keeps a respiratory specimen type', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.CovidRapid], sampleType: SampleType.NasalCavity });
      const res = await lab.post('/api/lims/sample/update', { sampleId: s.id, reason: 'typo', sampleType: SampleType.Blood }).expect(400);
      expect(res.body.error.fields[0]).to.deep.equal({ field: 'sampleType', message: 'A COVID-19 Rapid sample must be one of: Oropharyngeal, Nasal Cavity, Saliva, Nasopharyngeal' });
      await lab.post('/api/lims/sample/update', { sampleId: s.id, reason: 'swab was nasopharyngeal', sampleType: SampleType.Nasopharyngeal }).expect(200);
    });

    it('once a result is released the report prints these details: a correction of the sample or its patient is refused (409), nothing changes', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.Resulted });
      await makeResult(t.ctx.db, s.testIds[0], 'High Risk', await userId(t.ctx.db, 'lab1'), { status: TestResultStatus.Released, reviewedBy: await userId(t.ctx.db, 'lab2') });
      // A second sample of the same patient, not yet resulted: its patient's details are on the first one's report.
      const first = (await t.ctx.db.models.Sample.findByPk(s.id))!;
      const other = await t.ctx.db.models.Sample.create({
        barcode: freshBarcode(), sampleType: SampleType.Blood, status: SampleStatus.InQueue, accountId: first.accountId, patientId: first.patientId, orderId: first.orderId,
      });
      const before = await snapshot(s.id);
      const own = await lab.post('/api/lims/sample/update', { sampleId: s.id, reason: 'typo', sampleType: SampleType.Blood }).expect(409);
      expect(own.body.error.message).to.equal(`Sample ${s.barcode} has a released result whose report prints these details: they can be corrected only before a result is released`);
      const viaPatient = await lab.post('/api/lims/sample/update', { sampleId: other.id, reason: 'typo', patient: { lastName: 'Otherson' } }).expect(409);
      expect(viaPatient.body.error.message).to.match(new RegExp(`^The patient's sample ${s.barcode} has a released result`));
      expect(await snapshot(s.id)).to.deep.equal(before);
      // The unresulted sample's own fields may still be corrected.
      await lab.post('/api/lims/sample/update', { sampleId: other.id, reason: 'tube was saliva', sampleType: SampleType.Saliva }).expect(200);
    });
  });

  describe('lims/sample/auth/{barcode}', () => {
    it('a kit we issued: which account, which status, whether intake may receive it now; each check is audited', async () => {
      const transit = await makeSample(t.ctx.db, { status: SampleStatus.InTransit, tests: [TestName.ProstoxCfrt] });
      const res = await lab.agent.get(`/api/lims/sample/auth/${transit.barcode}`).expect(200);
      expect(res.body).to.deep.equal({
        barcode: transit.barcode, issued: true, sampleId: transit.id, account: { id: riversideId, name: 'Riverside Oncology' }, status: 'In Transit',
        tests: ['PROSTOX CFRT'], receivable: true, message: `Kit ${transit.barcode} was issued to Riverside Oncology; it is In Transit: receive it at intake`,
      });
      const testing = await makeSample(t.ctx.db, { status: SampleStatus.InTesting });
      const received = await lab.agent.get(`/api/lims/sample/auth/${testing.barcode}`).expect(200);
      expect(received.body).to.deep.include({ issued: true, status: 'In Testing', receivable: false });
      expect(received.body.message).to.match(/it is In Testing, received \d\d\/\d\d\/\d{4}: it cannot be received now$/);
      const audits = await auditsOf('sample.kit_checked', transit.id);
      expect(audits.map((a) => a.details)).to.deep.equal([{ issued: true }]);
    });

    it('an unknown barcode answers issued: false with a sentence (not a 500); a malformed one is a 400 naming the barcode', async () => {
      const barcode = freshBarcode();
      const res = await lab.agent.get(`/api/lims/sample/auth/${barcode}`).expect(200);
      expect(res.body).to.deep.equal({
        barcode, issued: false, sampleId: null, account: null, status: null, tests: [], receivable: false,
        message: `Barcode ${barcode} is not a kit the lab issued: do not receive it`,
      });
      for (const bad of ['12345', 'abc', '41000000000001x', '%20410000000000']) {
        const refused = await lab.agent.get(`/api/lims/sample/auth/${bad}`).expect(400);
        expect(refused.body.error.fields[0].field, bad).to.equal('barcode');
        expect(refused.body.error.message, bad).to.match(/Barcode/);
      }
    });
  });

  describe('sfpatient/search', () => {
    let family: string;
    let ids: { riverside: number; lakeside: number; self: number };

    before(async () => {
      const m = t.ctx.db.models;
      family = `Crossfield${Date.now().toString(36).replace(/\d/g, '')}`;
      const lakesideId = (await m.Account.findOne({ where: { name: 'Lakeside Urology' } }))!.id;
      const make = (accountId: number | null, firstName: string, dateOfBirth: string) =>
        m.Patient.create({ accountId, firstName, lastName: family, dateOfBirth, sex: 'F', email: `${firstName.toLowerCase()}.${family.toLowerCase()}@patients.test` });
      ids = {
        riverside: (await make(riversideId, 'Ada', '1950-01-02')).id,
        lakeside: (await make(lakesideId, 'Bea', '1951-03-04')).id,
        self: (await make(null, 'Cy', '1952-05-06')).id,
      };
    });

    it('finds patients of every account (and of none) for a lab user, paged with x-total-count, each with their account and samples', async () => {
      const res = await lab.post('/api/sfpatient/search', { q: family.toLowerCase() }).expect(200);
      expect(res.headers['x-total-count']).to.equal('3');
      expect(res.headers['cache-control']).to.equal('no-store');
      expect(res.body.total).to.equal(3);
      expect(res.body.rows.map((p: { id: number }) => p.id)).to.deep.equal([ids.riverside, ids.lakeside, ids.self]);
      expect(res.body.rows[0]).to.deep.include({ firstName: 'Ada', lastName: family, dateOfBirth: '1950-01-02', account: { id: riversideId, name: 'Riverside Oncology' }, samples: [] });
      expect(res.body.rows[1].account.name).to.equal('Lakeside Urology');
      expect(res.body.rows[2].account).to.equal(null);

      const page2 = await lab.post('/api/sfpatient/search', { q: family, page: 2, pageSize: 2 }).expect(200);
      expect(page2.headers['x-total-count']).to.equal('3');
      expect(page2.body.rows.map((p: { id: number }) => p.id)).to.deep.equal([ids.self]);
      const byDob = await lab.post('/api/sfpatient/search', { q: '03/04/1951' }).expect(200);
      expect(byDob.body.rows.map((p: { id: number }) => p.id)).to.include(ids.lakeside);
      const byNameAndEmail = await lab.post('/api/sfpatient/search', { q: `bea ${family}` }).expect(200);
      expect(byNameAndEmail.body.rows.map((p: { id: number }) => p.id)).to.deep.equal([ids.lakeside]);
    });

    it('lists a patient\'s samples, newest first', async () => {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InQueue });
      const patient = (await t.ctx.db.models.Patient.findByPk(s.patientId))!;
      const res = await lab.post('/api/sfpatient/search', { q: `${patient.firstName} ${patient.lastName}` }).expect(200);
      const row = res.body.rows.find((p: { id: number }) => p.id === s.patientId);
      expect(row.samples).to.deep.equal([{ id: s.id, barcode: s.barcode, status: 'In Queue' }]);
    });

    it('serves admins the same search, and the admin portal\'s patients/search is the same query', async () => {
      const res = await admin.post('/api/sfpatient/search', { q: family }).expect(200);
      expect(res.body.rows.map((p: { id: number }) => p.id)).to.deep.equal([ids.riverside, ids.lakeside, ids.self]);
      const picker = await admin.post('/api/admin/patients/search', { q: family }).expect(200);
      expect(picker.body.map((p: { id: number }) => p.id)).to.deep.equal([ids.riverside, ids.lakeside, ids.self]);
      expect(picker.body[1]).to.deep.equal({ id: ids.lakeside, name: `Bea ${family}`, dateOfBirth: '1951-03-04', email: `bea.${family.toLowerCase()}@patients.test`, accountName: 'Lakeside Urology' });
    });

    it('takes its terms in a JSON body only (fields named), and audits every search: who, in which scope, which patients', async () => {
      for (const [body, field] of [[{}, 'q'], [{ q: '' }, 'q'], [{ q: 'ab', pageSize: 201 }, 'pageSize'], [{ q: 'ab', page: 0 }, 'page'], [{ q: 'ab', accountId: 1 }, 'accountId']] as const) {
        const res = await lab.post('/api/sfpatient/search', body).expect(400);
        expect(res.body.error.fields[0].field, JSON.stringify(body)).to.equal(field);
      }
      await lab.agent.get(`/api/sfpatient/search?q=${family}`).expect(404);
      const before = (await auditsOf('patient.searched')).length;
      await lab.post('/api/sfpatient/search', { q: family }).expect(200);
      const audits = await t.ctx.db.models.AuditEvent.findAll({ where: { action: 'patient.searched', id: { [Op.gt]: 0 } }, order: [['id', 'ASC']] });
      expect(audits).to.have.length(before + 1);
      const last = audits.at(-1)!;
      expect(last.actorUserId).to.equal(await userId(t.ctx.db, 'lab1'));
      expect(last.details).to.deep.equal({ scope: 'all-accounts', accountId: null, by: 'name', total: 3, patientIds: [ids.riverside, ids.lakeside, ids.self] });
      expect(JSON.stringify(last.details), 'no name in the audit').to.not.include(family);
    });
  });
});
