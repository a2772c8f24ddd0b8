import { pdfBarcodes, pdfPageCount } from '../support/pdf';
import { expect } from 'chai';
import request from 'supertest';
import { SampleStatus, TestName, TestOrigin, Portal, SampleType } from '@platform/domain';
import { moveSample, systemCaller } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { until } from '../support/wait';
import {
  ALL_ATTESTED, addPatient, binaryParser, createClinic, pdfText, placeOrder, rowCounts, uniquePatient, type TestClinic,
} from '../support/fixtures/clinic';

describe('clinic provider API', () => {
  let t: TestApp;
  let clinic: TestClinic;
  let other: TestClinic;

  before(async () => {
    t = await buildTestApp();
    clinic = await createClinic(t.ctx, t.app, 'Harbor Clinic');
    other = await createClinic(t.ctx, t.app, 'Summit Clinic');
  });
  after(() => t.close());

  describe('who may call it', () => {
    let riversideId: number;
    let lakesideId: number;
    let staff: Session;
    let researcher: Session;
    let physician: Session;
    let lab: Session;
    let lakesidePatientId: number;
    let lakesideSample: { id: number; barcode: string };

    before(async () => {
      const m = t.ctx.db.models;
      riversideId = (await m.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
      lakesideId = (await m.Account.findOne({ where: { name: 'Lakeside Urology' } }))!.id;
      staff = await signIn(t.app, 'staff', 'provider', '10.70.0.1');
      researcher = await signIn(t.app, 'researcher', 'research', '10.70.0.2');
      physician = await signIn(t.app, 'physician', 'provider', '10.70.0.3');
      lab = await signIn(t.app, 'lab1', 'lab', '10.70.0.4');
      const patient = await physician.post(`/api/provider-clinic/${lakesideId}/patient`, uniquePatient({ firstName: 'Lakeside', dateOfBirth: '1950-06-06' })).expect(201);
      lakesidePatientId = patient.body.id;
      const physicians = await physician.agent.get(`/api/provider-clinic/${lakesideId}/physicians`).expect(200);
      const order = await physician
        .post(`/api/provider-clinic/${lakesideId}/order`, {
          patientId: lakesidePatientId, tests: [TestName.Kras], physicianId: physicians.body[0].id, sampleType: SampleType.Saliva, attestations: ALL_ATTESTED, diagnosisCodes: ['C61'],
        })
        .expect(201);
      lakesideSample = { id: order.body.sample.id, barcode: order.body.sample.barcode };
    });

    const endpoints = (accountId: number, patientId: number, sampleId: number) => [
      { method: 'post', path: `/api/provider-clinic/${accountId}/patient/search`, body: { q: 'Lakeside' } },
      { method: 'post', path: `/api/provider-clinic/${accountId}/patient/exists`, body: { firstName: 'A', lastName: 'B', dateOfBirth: '1950-06-06' } },
      { method: 'post', path: `/api/provider-clinic/${accountId}/patient`, body: uniquePatient() },
      { method: 'get', path: `/api/provider-clinic/${accountId}/patient/${patientId}` },
      { method: 'get', path: `/api/provider-clinic/${accountId}/physicians` },
      { method: 'get', path: `/api/provider-clinic/${accountId}/tests/catalogue` },
      { method: 'get', path: `/api/provider-clinic/${accountId}/tests?category=PENDING` },
      { method: 'post', path: `/api/provider-clinic/${accountId}/order`, body: { patientId, tests: [TestName.Kras], physicianId: 1, sampleType: SampleType.Saliva, attestations: ALL_ATTESTED, diagnosisCodes: ['C61'] } },
      { method: 'get', path: `/api/provider-clinic/${accountId}/samples?unshipped=true` },
      { method: 'get', path: `/api/provider-clinic/${accountId}/shipments` },
      { method: 'post', path: `/api/provider-clinic/${accountId}/shipments/create`, body: { sampleIds: [sampleId] } },
    ];

    async function call(s: Session, e: { method: string; path: string; body?: unknown }) {
      return e.method === 'get' ? s.agent.get(e.path) : s.post(e.path, e.body);
    }

    it('answers 404 to a provider who is not a member of the account, and leaks nothing', async () => {
      const before = await rowCounts(t.ctx);
      for (const who of [staff, researcher]) {
        for (const e of endpoints(lakesideId, lakesidePatientId, lakesideSample.id)) {
          const res = await call(who, e);
          expect(res.status, `${e.method} ${e.path}`).to.equal(404);
          expect(res.body.error.code).to.equal('not_found');
          // The error only: the answer's requestId is a random UUID, which may hold "1950" by chance.
          expect(JSON.stringify(res.body.error)).to.not.match(/Lakeside|Tester|1950/);
          expect(Object.keys(res.body).sort()).to.deep.equal(['error', 'requestId']);
          expect(res.headers['x-total-count']).to.equal(undefined);
        }
      }
      expect(await rowCounts(t.ctx)).to.deep.equal(before);
    });

    it('answers 403 to a signed-in user who is not a provider, and 401 to nobody', async () => {
      for (const e of endpoints(riversideId, lakesidePatientId, lakesideSample.id)) {
        expect((await call(lab, e)).status, `lab ${e.method} ${e.path}`).to.equal(403);
        const anonymous = e.method === 'get' ? await request(t.app).get(e.path) : await request(t.app).post(e.path).send(e.body as object);
        // A POST without a session has no CSRF token either: refused before anything is read.
        expect([401, 403], `anonymous ${e.method} ${e.path}`).to.include(anonymous.status);
      }
    });

    it('refuses ids of another account through the caller’s own account (patient, physician, sample)', async () => {
      // physician@demo.test is in Riverside and Lakeside: a Lakeside patient is not found through Riverside.
      await physician.agent.get(`/api/provider-clinic/${riversideId}/patient/${lakesidePatientId}`).expect(404);
      const search = await physician.post(`/api/provider-clinic/${riversideId}/patient/search`, { q: 'Lakeside' }).expect(200);
      expect(search.body.rows.map((p: { id: number }) => p.id)).to.not.include(lakesidePatientId);
      const riversidePhysicians = (await physician.agent.get(`/api/provider-clinic/${riversideId}/physicians`).expect(200)).body;
      const before = await rowCounts(t.ctx);
      const wrongPatient = await physician
        .post(`/api/provider-clinic/${riversideId}/order`, { patientId: lakesidePatientId, tests: [TestName.Kras], physicianId: riversidePhysicians[0].id, sampleType: SampleType.Saliva, attestations: ALL_ATTESTED, diagnosisCodes: ['C61'] })
        .expect(404);
      expect(wrongPatient.body.error.message).to.equal('Patient not found in this account');
      const shipment = await physician.post(`/api/provider-clinic/${riversideId}/shipments/create`, { sampleIds: [lakesideSample.id] }).expect(404);
      expect(shipment.body.error.message).to.not.include(lakesideSample.barcode);
      expect(await rowCounts(t.ctx)).to.deep.equal(before);
    });

    it('lets only providers of the sample’s account download its requisition form', async () => {
      const path = `/api/sample/${lakesideSample.barcode}/pdf_order`;
      await staff.agent.get(path).expect(404);
      await researcher.agent.get(path).expect(404);
      await lab.agent.get(path).expect(403);
      await request(t.app).get(path).expect(401);
      // The physician belongs to Lakeside: the form is there or still being rendered, never a 404.
      expect([200, 409]).to.include((await physician.agent.get(path)).status);
    });

    it('gives each account its own physicians', async () => {
      const riverside = (await physician.agent.get(`/api/provider-clinic/${riversideId}/physicians`).expect(200)).body;
      const lakeside = (await physician.agent.get(`/api/provider-clinic/${lakesideId}/physicians`).expect(200)).body;
      expect(riverside.map((p: { name: string }) => p.name)).to.include.members(['Paula Grant', 'Omar Reyes']);
      expect(lakeside.map((p: { name: string }) => p.name)).to.deep.equal(['Paula Grant']);
      expect(riverside[0]).to.have.keys(['id', 'firstName', 'lastName', 'name', 'npi', 'specialty', 'isCaller']);
    });

    it("marks the signed-in user's own physician record, which the order form pre-selects", async () => {
      const mine = (list: { name: string; isCaller: boolean }[]) => list.filter((p) => p.isCaller).map((p) => p.name);
      expect(mine((await physician.agent.get(`/api/provider-clinic/${riversideId}/physicians`).expect(200)).body)).to.deep.equal(['Paula Grant']);
      expect(mine((await physician.agent.get(`/api/provider-clinic/${lakesideId}/physicians`).expect(200)).body)).to.deep.equal(['Paula Grant']);
      // Support staff order for a physician: none is theirs.
      expect(mine((await staff.agent.get(`/api/provider-clinic/${riversideId}/physicians`).expect(200)).body)).to.deep.equal([]);
    });
  });

  describe('patients', () => {
    it('creates a patient, refuses the same name and date of birth again (any case), and says it exists', async () => {
      const p = uniquePatient({ dateOfBirth: '1948-12-31', sex: 'F' });
      const created = await clinic.session.post(clinic.api('patient'), { ...p, email: 'Pat@Example.org', phone: '+1 (555) 010-2030', city: 'Springfield' }).expect(201);
      expect(created.body).to.include({ firstName: p.firstName, lastName: p.lastName, dateOfBirth: '1948-12-31', sex: 'F', email: 'pat@example.org' });
      const again = await clinic.session.post(clinic.api('patient'), { ...p, firstName: ` ${p.firstName.toUpperCase()} ` }).expect(409);
      expect(again.body.error).to.deep.equal({ code: 'conflict', message: 'A patient with this first name, last name and date of birth already exists in this account.' });
      // Another account may have a patient with the same name and birthday.
      await other.session.post(other.api('patient'), p).expect(201);

      const exists = await clinic.session.post(clinic.api('patient/exists'), { firstName: p.firstName.toLowerCase(), lastName: p.lastName, dateOfBirth: p.dateOfBirth }).expect(200);
      expect(exists.body).to.deep.equal({ exists: true, patientId: created.body.id });
      expect(exists.headers['cache-control']).to.equal('no-store');
      const missing = await clinic.session.post(clinic.api('patient/exists'), { firstName: p.firstName, lastName: p.lastName, dateOfBirth: '1948-12-30' }).expect(200);
      expect(missing.body).to.deep.equal({ exists: false });
      const bad = await clinic.session.post(clinic.api('patient/exists'), { firstName: p.firstName, lastName: p.lastName, dateOfBirth: '12/31/1948' }).expect(400);
      expect(bad.body.error.fields[0].field).to.equal('dateOfBirth');
    });

    it('creates a patient once when the same patient is added twice at the same moment', async () => {
      const p = uniquePatient({ dateOfBirth: '1971-03-03' });
      const answers = await Promise.all([1, 2, 3].map(() => clinic.session.post(clinic.api('patient'), p)));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 409, 409]);
      expect(await t.ctx.db.models.Patient.count({ where: { accountId: clinic.accountId, lastName: p.lastName } })).to.equal(1);
    });

    it('refuses a bad date of birth, a missing name or sex, and unknown fields, naming them, with nothing written', async () => {
      const before = await rowCounts(t.ctx);
      const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ dateOfBirth: tomorrow }, 'dateOfBirth', /must not be in the future/],
        [{ dateOfBirth: '1961-02-29' }, 'dateOfBirth', /real date written YYYY-MM-DD/],
        [{ dateOfBirth: '04/17/1961' }, 'dateOfBirth', /real date written YYYY-MM-DD/],
        [{ dateOfBirth: '1899-12-31' }, 'dateOfBirth', /not be before 1900-01-01/],
        [{ firstName: '' }, 'firstName', /First name/],
        [{ lastName: 'Robert"); DROP' }, 'lastName', /letters, spaces/],
        [{ sex: 'male' }, 'sex', /Sex must be one of/],
        [{ email: 'not-an-email' }, 'email', /Email/],
        [{ phone: '12' }, 'phone', /Phone/],
        [{ ssn: '123-45-6789' }, 'ssn', /not allowed/],
      ];
      for (const [change, field, message] of cases) {
        const res = await clinic.session.post(clinic.api('patient'), { ...uniquePatient(), ...change }).expect(400);
        expect(res.body.error.code).to.equal('validation_failed');
        const f = res.body.error.fields.find((x: { field: string }) => x.field === field);
        expect(f, `${JSON.stringify(change)} -> ${JSON.stringify(res.body.error.fields)}`).to.not.equal(undefined);
        expect(f.message).to.match(message);
      }
      const noSex = { ...uniquePatient() } as Record<string, unknown>;
      delete noSex.sex;
      expect((await clinic.session.post(clinic.api('patient'), noSex).expect(400)).body.error.fields).to.deep.equal([{ field: 'sex', message: 'Sex is required' }]);
      expect(await rowCounts(t.ctx)).to.deep.equal(before);
    });

    it('searches by part of a name, by full name in any order, and by date of birth, only in the account, paginated', async () => {
      const family = `Quill${Date.now().toString(36).replace(/\d/g, '')}`;
      const ids: number[] = [];
      for (const [first, dob] of [['Anna', '1970-01-02'], ['Bruno', '1970-01-02'], ['Carla', '1980-05-06']] as const) {
        ids.push((await addPatient(clinic, { firstName: first, lastName: family, dateOfBirth: dob, sex: 'F' })).id);
      }
      await addPatient(other, { firstName: 'Anna', lastName: family, dateOfBirth: '1970-01-02', sex: 'F' });

      const search = (q: string, extra: { page?: number; pageSize?: number } = {}) => clinic.session.post(clinic.api('patient/search'), { q, ...extra }).expect(200);
      const part = await search(family.slice(0, 7).toLowerCase());
      expect(part.headers['x-total-count']).to.equal('3');
      expect(part.headers['cache-control']).to.equal('no-store');
      expect(part.body).to.have.keys(['rows', 'total']);
      expect(part.body.total).to.equal(3);
      expect(part.body.rows.map((p: { firstName: string }) => p.firstName)).to.deep.equal(['Anna', 'Bruno', 'Carla']);
      expect(part.body.rows[0]).to.include({ lastName: family, dateOfBirth: '1970-01-02' });

      const full = await search(`${family}, bru`);
      expect(full.body.rows.map((p: { id: number }) => p.id)).to.deep.equal([ids[1]]);
      const byDob = await search('1980-05-06');
      expect(byDob.body.rows.map((p: { id: number }) => p.id)).to.include(ids[2]);
      expect(byDob.body.rows.every((p: { dateOfBirth: string }) => p.dateOfBirth === '1980-05-06')).to.equal(true);
      const usDob = await search('05/06/1980');
      expect(usDob.body.rows.map((p: { id: number }) => p.id)).to.include(ids[2]);

      const page2 = await search(family, { pageSize: 2, page: 2 });
      expect(page2.headers['x-total-count']).to.equal('3');
      expect(page2.body.total).to.equal(3);
      expect(page2.body.rows.map((p: { firstName: string }) => p.firstName)).to.deep.equal(['Carla']);
      // LIKE wildcards are taken literally.
      const wildcard = await search('%');
      expect(wildcard.headers['x-total-count']).to.equal('0');
      expect(wildcard.body).to.deep.equal({ rows: [], total: 0 });
    });

    it('takes the search and exists-check terms in a JSON body only: fields named, unknown keys refused, GET not found, CSRF required', async () => {
      const p = await addPatient(clinic);
      const cases: [string, Record<string, unknown>, string, RegExp][] = [
        ['patient/search', {}, 'q', /^Search is required$/],
        ['patient/search', { q: '' }, 'q', /Search/],
        ['patient/search', { q: 'ab', pageSize: 201 }, 'pageSize', /Page size/],
        ['patient/search', { q: 'ab', page: 0 }, 'page', /Page/],
        ['patient/search', { q: 'ab', dateOfBirth: p.dateOfBirth }, 'dateOfBirth', /not allowed/],
        ['patient/exists', { lastName: p.lastName, dateOfBirth: p.dateOfBirth }, 'firstName', /^First name is required$/],
        ['patient/exists', { firstName: p.firstName, lastName: 'Robert"); DROP', dateOfBirth: p.dateOfBirth }, 'lastName', /letters, spaces/],
        ['patient/exists', { firstName: p.firstName, lastName: p.lastName, dateOfBirth: '2999-01-01' }, 'dateOfBirth', /must not be in the future/],
        ['patient/exists', { ...p }, 'sex', /not allowed/],
      ];
      for (const [path, body, field, message] of cases) {
        const res = await clinic.session.post(clinic.api(path), body).expect(400);
        expect(res.body.error.code).to.equal('validation_failed');
        const f = res.body.error.fields.find((x: { field: string }) => x.field === field);
        expect(f, `${path} ${JSON.stringify(body)} -> ${JSON.stringify(res.body.error.fields)}`).to.not.equal(undefined);
        expect(f.message).to.match(message);
      }

      // The old GETs with the terms in the URL are answered by nothing: not found, nothing read.
      const audited = () => t.ctx.db.models.AuditEvent.count({ where: { actorUserId: clinic.userId } });
      const auditsBefore = await audited();
      const q = new URLSearchParams({ firstName: p.firstName, lastName: p.lastName, dateOfBirth: p.dateOfBirth, q: p.lastName }).toString();
      for (const path of [`patient/search?${q}`, `patient/exists?${q}`, 'patient/search', 'patient/exists']) {
        const res = await clinic.session.agent.get(clinic.api(path));
        expect([404, 405], `GET ${path}`).to.include(res.status);
        expect(res.body.error.code).to.be.a('string');
        expect(JSON.stringify(res.body)).to.not.include(p.lastName);
        expect(res.headers['x-total-count']).to.equal(undefined);
      }
      expect(await audited()).to.equal(auditsBefore);

      // They only read, but like every POST they need the CSRF token.
      for (const [path, body] of [['patient/search', { q: p.lastName }], ['patient/exists', { firstName: p.firstName, lastName: p.lastName, dateOfBirth: p.dateOfBirth }]] as const) {
        const res = await clinic.session.agent.post(clinic.api(path)).send(body).expect(403);
        expect(res.body.error.code).to.equal('csrf');
        expect(JSON.stringify(res.body)).to.not.include(p.lastName);
      }
      expect(await audited()).to.equal(auditsBefore);
    });

    it('audits searches and views with ids only', async () => {
      const p = await addPatient(clinic);
      await clinic.session.post(clinic.api('patient/search'), { q: p.lastName }).expect(200);
      await clinic.session.post(clinic.api('patient/exists'), { firstName: p.firstName, lastName: p.lastName, dateOfBirth: p.dateOfBirth }).expect(200);
      await clinic.session.agent.get(clinic.api(`patient/${p.id}`)).expect(200);
      const events = await t.ctx.db.models.AuditEvent.findAll({ where: { actorUserId: clinic.userId }, order: [['id', 'ASC']] });
      const actions = events.map((e) => e.action);
      expect(actions).to.include.members(['patient.created', 'patient.searched', 'patient.exists_checked', 'patient.viewed']);
      const viewed = events.filter((e) => e.action === 'patient.viewed').pop()!;
      expect(viewed.entityId).to.equal(String(p.id));
      expect(JSON.stringify(events.map((e) => e.details))).to.not.include(p.lastName);
      expect(JSON.stringify(events.map((e) => e.details))).to.not.include(p.dateOfBirth);
    });

    it('answers 404 for a patient id that does not exist or is not a number', async () => {
      await clinic.session.agent.get(clinic.api('patient/999999999')).expect(404);
      await clinic.session.agent.get(clinic.api('patient/abc')).expect(404);
    });
  });

  describe('ordering', () => {
    it('offers the Clinical Portal catalogue only', async () => {
      const res = await clinic.session.agent.get(clinic.api('tests/catalogue')).expect(200);
      expect(res.body.map((e: { name: string }) => e.name)).to.deep.equal([TestName.ProstoxUltra, TestName.ProstoxCfrt, TestName.ProstoxResearch, TestName.Kras, TestName.Previotox]);
    });

    it('refuses an order with an attestation missing or refused, naming each, with nothing written', async () => {
      const p = await addPatient(clinic);
      const before = await rowCounts(t.ctx);
      const base = { patientId: p.id, tests: [TestName.Kras], physicianId: clinic.physicianIds[0], sampleType: SampleType.BuccalSwab };
      const refused = await clinic.session.post(clinic.api('order'), { ...base, attestations: { ...ALL_ATTESTED, informedConsent: false } }).expect(400);
      expect(refused.body.error.fields).to.deep.equal([{ field: 'attestations.informedConsent', message: 'The attestation of informed consent must be confirmed' }]);
      const { reimbursementClaim: _r, supportingDocumentation: _s, ...two } = ALL_ATTESTED;
      const missing = await clinic.session.post(clinic.api('order'), { ...base, attestations: two }).expect(400);
      expect(missing.body.error.fields.map((f: { message: string }) => f.message)).to.deep.equal([
        'The attestation of reimbursement claim must be confirmed',
        'The attestation of supporting documentation must be confirmed',
      ]);
      const strings = await clinic.session.post(clinic.api('order'), { ...base, attestations: { ...ALL_ATTESTED, medicalNecessity: 'true' } }).expect(400);
      expect(strings.body.error.fields[0].field).to.equal('attestations.medicalNecessity');
      const none = await clinic.session.post(clinic.api('order'), base).expect(400);
      expect(none.body.error.fields).to.deep.equal([{ field: 'attestations', message: 'Attestations is required' }]);
      expect(await rowCounts(t.ctx)).to.deep.equal(before);
    });

    it('refuses a test the Clinical Portal cannot order, a physician or patient of another account, a bad sample type', async () => {
      const p = await addPatient(clinic);
      const foreign = await addPatient(other);
      const before = await rowCounts(t.ctx);
      const base = { patientId: p.id, tests: [TestName.Kras], physicianId: clinic.physicianIds[0], sampleType: SampleType.BuccalSwab, attestations: ALL_ATTESTED, diagnosisCodes: ['C61'] };
      const research = await clinic.session.post(clinic.api('order'), { ...base, tests: [TestName.ProstoxUltra, TestName.HeadAndNeck] }).expect(400);
      expect(research.body.error.fields).to.deep.equal([{ field: 'tests.1', message: 'HEAD AND NECK cannot be ordered in the Clinical Portal' }]);
      const labOnly = await clinic.session.post(clinic.api('order'), { ...base, tests: [TestName.CovidPcr] }).expect(400);
      expect(labOnly.body.error.message).to.equal('COVID-19 PCR cannot be ordered in the Clinical Portal');
      const unknown = await clinic.session.post(clinic.api('order'), { ...base, tests: ['PROSTOX mega'] }).expect(400);
      expect(unknown.body.error.message).to.equal('PROSTOX mega is not a test of the catalogue');
      const empty = await clinic.session.post(clinic.api('order'), { ...base, tests: [] }).expect(400);
      expect(empty.body.error.message).to.equal('Choose at least one test');
      const doctor = await clinic.session.post(clinic.api('order'), { ...base, physicianId: other.physicianIds[0] }).expect(404);
      expect(doctor.body.error.message).to.equal('Physician not found in this account');
      const patient = await clinic.session.post(clinic.api('order'), { ...base, patientId: foreign.id }).expect(404);
      expect(patient.body.error.message).to.equal('Patient not found in this account');
      const type = await clinic.session.post(clinic.api('order'), { ...base, sampleType: 'Hair' }).expect(400);
      expect(type.body.error.fields[0].field).to.equal('sampleType');
      expect(await rowCounts(t.ctx)).to.deep.equal(before);
    });

    describe('a placed order and its requisition form', function () {
      // A real worker renders the form.
      this.timeout(60_000);
      let worker: RunningWorker | null = null;
      after(async () => {
        await worker?.close();
      });

      it('creates order, tests and sample in Order Placed with its first timeline event, audit and render job', async () => {
        const p = await addPatient(clinic, uniquePatient({ firstName: 'Orla', dateOfBirth: '1957-08-09', sex: 'F' }));
        const res = await clinic.session
          .post(clinic.api('order'), {
            patientId: p.id, tests: [TestName.ProstoxUltra, TestName.ProstoxCfrt], physicianId: clinic.physicianIds[1], sampleType: SampleType.Saliva, attestations: ALL_ATTESTED, diagnosisCodes: ['C61'],
          })
          .expect(201);
        const body = res.body;
        expect(body.order.orderNumber).to.match(/^RF_\d{9}$/);
        expect(body.order).to.include({ origin: TestOrigin.ProviderOrdered, portal: Portal.Clinical });
        expect(body.sample).to.include({ status: SampleStatus.OrderPlaced, sampleType: SampleType.Saliva });
        expect(body.sample.barcode).to.match(/^41\d{12}$/);
        expect(body.tests.map((x: { name: string }) => x.name)).to.deep.equal([TestName.ProstoxUltra, TestName.ProstoxCfrt]);
        expect(body.requisitionForm.url).to.equal(`/api/sample/${body.sample.barcode}/pdf_order`);

        const m = t.ctx.db.models;
        const order = await m.Order.findByPk(body.order.id);
        expect(order).to.include({ accountId: clinic.accountId, patientId: p.id, physicianId: clinic.physicianIds[1], createdByUserId: clinic.userId });
        expect(order!.attestations).to.include(ALL_ATTESTED);
        const events = await m.SampleStatusEvent.findAll({ where: { sampleId: body.sample.id } });
        expect(events.map((e) => [e.fromStatus, e.toStatus, e.actorKind, e.actorUserId])).to.deep.equal([[null, SampleStatus.OrderPlaced, 'provider', clinic.userId]]);
        const outbox = await m.Outbox.findOne({ where: { idempotencyKey: `requisition:${body.sample.id}` } });
        expect(outbox!.jobName).to.equal('render-pdf');
        expect((outbox!.payload as { payload: unknown }).payload).to.deep.equal({ sampleId: body.sample.id, documentType: 'test_requisition_form' });
        const audit = await m.AuditEvent.findOne({ where: { action: 'order.created', entityId: String(body.sample.id) } });
        expect(audit!.actorUserId).to.equal(clinic.userId);

        // The patient page shows the sample, its tests and its timeline with who and when.
        const detail = (await clinic.session.agent.get(clinic.api(`patient/${p.id}`)).expect(200)).body;
        expect(detail.patient).to.include({ firstName: 'Orla', dateOfBirth: '1957-08-09', sex: 'F' });
        expect(detail.samples).to.have.length(1);
        const s = detail.samples[0];
        expect(s).to.include({ barcode: body.sample.barcode, status: SampleStatus.OrderPlaced, orderNumber: body.order.orderNumber });
        expect(s.physician).to.include({ name: 'Nadia Ortiz', npi: '1558888881' });
        expect(s.tests.map((x: { name: string }) => x.name)).to.deep.equal([TestName.ProstoxUltra, TestName.ProstoxCfrt]);
        expect(s.timeline).to.have.length(1);
        const me = (await m.User.findByPk(clinic.userId))!;
        expect(s.timeline[0]).to.deep.include({ from: null, to: SampleStatus.OrderPlaced, actor: { kind: 'provider', name: `${me.firstName} ${me.lastName}` } });
        expect(new Date(s.timeline[0].at).getTime()).to.be.closeTo(Date.now(), 60_000);
      });

      it('gives unique order numbers and barcodes to orders placed at the same moment', async () => {
        const p = await addPatient(clinic);
        const placed = await Promise.all(Array.from({ length: 8 }, () => placeOrder(clinic, p.id)));
        expect(new Set(placed.map((o) => o.orderNumber)).size).to.equal(8);
        expect(new Set(placed.map((o) => o.barcode)).size).to.equal(8);
      });

      it('answers "not ready" while the form is rendered, then the PDF once a worker ran, with the order on it', async () => {
        const p = await addPatient(clinic, uniquePatient({ firstName: 'Rosalind', dateOfBirth: '1944-02-29', sex: 'F' }));
        const order = await placeOrder(clinic, p.id, { tests: [TestName.Kras], physicianId: clinic.physicianIds[1] });
        const path = `/api/sample/${order.barcode}/pdf_order`;
        const early = await clinic.session.agent.get(path).expect(409);
        expect(early.body.error).to.deep.equal({ code: 'not_ready', message: 'The requisition form is still being prepared. Try again in a moment.' });

        worker = await startTestWorker();
        const res = await until(async () => {
          const r = await clinic.session.agent.get(path).buffer(true).parse(binaryParser as never);
          return r.status === 200 ? r : null;
        }, { what: 'the requisition form' });
        expect(res.headers['content-type']).to.equal('application/pdf');
        expect(res.headers['content-disposition']).to.equal(`attachment; filename="test-requisition-${order.barcode}.pdf"`);
        expect(pdfPageCount(res.body as Buffer), 'one page, no blank page after it').to.equal(1);
        // The kit barcode is a barcode, not only digits: a scanner at intake reads it (Code 128).
        expect(pdfBarcodes(res.body as Buffer)).to.deep.equal([[`CODE-128:${order.barcode}`]]);
        const text = pdfText(res.body as Buffer);
        for (const expected of [
          'Test Requisition Form', order.barcode, order.orderNumber, `Rosalind ${p.lastName}`, '02/29/1944', 'Female', 'KRAS', 'Buccal Swab',
          'Nadia Ortiz', '1558888881', clinic.name, 'Order origin Provider Ordered', 'Place this form in the kit with the sample.',
          'Confirmed: The ordering physician confirms the medical necessity of the test or tests ordered.',
          'Confirmed: Informed consent has been obtained from the patient.',
          'Confirmed: The patient acknowledges that the provider will submit a claim for reimbursement.',
          'Confirmed: The physician keeps documentation supporting this order and will furnish it on request.',
        ]) {
          expect(text.replace(/\s+/g, ' '), expected).to.include(expected);
        }
        expect(text).to.not.include('NOT CONFIRMED');

        // With the patient's date of birth it answers; with another one it is as if the sample did not exist.
        await clinic.session.agent.get(`${path}?dob=1944-02-29`).expect(200);
        const wrong = await clinic.session.agent.get(`${path}?dob=1944-03-01`).expect(404);
        expect(wrong.body.error.message).to.equal('Sample not found');
        await clinic.session.agent.get(`${path}?dob=29/02/1944`).expect(400);
        await clinic.session.agent.get('/api/sample/41999999999999/pdf_order').expect(404);
        await other.session.agent.get(path).expect(404);

        const downloads = await t.ctx.db.models.AuditEvent.count({ where: { action: 'document.downloaded', entityId: String(order.sampleId), actorUserId: clinic.userId } });
        expect(downloads).to.equal(2);
        // The patient page says the form is there.
        const detail = (await clinic.session.agent.get(clinic.api(`patient/${p.id}`)).expect(200)).body;
        expect(detail.samples[0].documents).to.deep.equal({ requisitionForm: true, labReport: false });
      });
    });
  });

  describe('result lists', () => {
    let list: TestClinic;
    const placed: { sampleId: number; barcode: string; lastName: string }[] = [];

    before(async () => {
      list = await createClinic(t.ctx, t.app, 'Listing Clinic');
      for (const last of ['Young', 'Adams', 'Moreau', 'Baker']) {
        const p = await addPatient(list, uniquePatient({ lastName: `${last}${list.accountId}`.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]) }));
        const o = await placeOrder(list, p.id);
        placed.push({ sampleId: o.sampleId, barcode: o.barcode, lastName: p.lastName });
      }
      // Walk two samples along the lifecycle as the lab and the shipping service would.
      const m = t.ctx.db.models;
      const lab1 = (await m.User.findOne({ where: { email: 'lab1@demo.test' } }))!.id;
      await t.ctx.db.sequelize.transaction(async (transaction) => {
        for (const [i, path] of [[1, [SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue, SampleStatus.InTesting, SampleStatus.Resulted]], [2, [SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue, SampleStatus.Rejected]]] as const) {
          const sample = (await m.Sample.findByPk(placed[i].sampleId, { transaction }))!;
          for (const to of path) {
            await moveSample(t.ctx.db, transaction, sample, { to, by: to === SampleStatus.PendingShipment || to === SampleStatus.InTransit ? systemCaller() : { userId: lab1, kind: 'lab', accountId: null, ip: null, requestId: null }, reason: to === SampleStatus.Rejected ? 'Rejected - specimen expired' : undefined });
          }
        }
        // And one patient-ordered sample of the account.
        const p = await m.Patient.create({ accountId: list.accountId, firstName: 'Self', lastName: 'Orderer', dateOfBirth: '1966-06-16', sex: 'M' }, { transaction });
        const order = await m.Order.create({ orderNumber: `RG_${String(Date.now()).slice(-9)}`, accountId: list.accountId, patientId: p.id, physicianId: list.physicianIds[0], origin: TestOrigin.PatientOrdered, portal: Portal.Patient }, { transaction });
        const s = await m.Sample.create({ barcode: `61${String(Date.now()).slice(-12).padStart(12, '0')}`, sampleType: SampleType.BuccalSwab, accountId: list.accountId, patientId: p.id, orderId: order.id }, { transaction });
        await m.Test.create({ orderId: order.id, sampleId: s.id, name: TestName.ProstoxCfrt, parentType: 'PROSTOX' }, { transaction });
        placed.push({ sampleId: s.id, barcode: s.barcode, lastName: 'Orderer' });
      });
    });

    const get = (q: string) => list.session.agent.get(list.api(`tests?${q}`));

    it('lists pending samples (not resulted, not rejected) with x-total-count, default 10 per page, newest first', async () => {
      const res = await get('category=PENDING').expect(200);
      expect(res.headers['x-total-count']).to.equal('3');
      expect(res.body.map((r: { sampleId: number }) => r.sampleId)).to.deep.equal([placed[4].sampleId, placed[3].sampleId, placed[0].sampleId]);
      const row = res.body.find((r: { sampleId: number }) => r.sampleId === placed[0].sampleId);
      expect(row).to.include({ barcode: placed[0].barcode, status: SampleStatus.OrderPlaced, origin: TestOrigin.ProviderOrdered, resultedAt: null, reportAvailable: false });
      expect(row.tests).to.deep.equal([TestName.ProstoxUltra]);
      expect(row.patient.lastName).to.equal(placed[0].lastName);
      expect(row.physician.name).to.match(/^Casey Clinic/);
    });

    it('lists completed samples (resulted and rejected) with when they were resulted', async () => {
      const res = await get('category=COMPLETED').expect(200);
      expect(res.headers['x-total-count']).to.equal('2');
      const byId = Object.fromEntries(res.body.map((r: { sampleId: number }) => [r.sampleId, r]));
      expect(byId[placed[1].sampleId]).to.include({ status: SampleStatus.Resulted });
      expect(byId[placed[2].sampleId]).to.include({ status: SampleStatus.Rejected, rejectionReason: 'Rejected - specimen expired' });
      expect(byId[placed[1].sampleId].resultedAt).to.be.a('string');
    });

    it('lists patient-ordered samples', async () => {
      const res = await get('category=PATIENT_ORDERED').expect(200);
      expect(res.headers['x-total-count']).to.equal('1');
      expect(res.body[0]).to.include({ sampleId: placed[4].sampleId, origin: TestOrigin.PatientOrdered });
    });

    it('pages and sorts by the whitelisted fields only', async () => {
      const page1 = await get('category=PENDING&pageSize=2&page=1&sort=patientName&order=asc').expect(200);
      const page2 = await get('category=PENDING&pageSize=2&page=2&sort=patientName&order=asc').expect(200);
      expect(page1.headers['x-total-count']).to.equal('3');
      expect(page2.headers['x-total-count']).to.equal('3');
      const names = [...page1.body, ...page2.body].map((r: { patient: { lastName: string } }) => r.patient.lastName);
      expect(names).to.deep.equal([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
      expect(names).to.have.length(3);
      const byBarcode = (await get('category=PENDING&sort=barcode&order=desc').expect(200)).body.map((r: { barcode: string }) => r.barcode);
      expect(byBarcode).to.deep.equal([...byBarcode].sort().reverse());
      expect((await get('category=PENDING&page=9').expect(200)).body).to.deep.equal([]);
      for (const bad of ['category=DONE', 'category=PENDING&sort=p.last_name', 'category=PENDING&sort=barcode;drop', 'category=PENDING&pageSize=201', 'category=PENDING&order=up', '']) {
        const res = await get(bad).expect(400);
        expect(res.body.error.code, bad).to.equal('validation_failed');
      }
      const two = await get('category=PENDING&pageSize=200').expect(200);
      expect(two.body).to.have.length(3);
    });
  });
});
