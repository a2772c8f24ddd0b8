/**
 * The Research Portal's API and the study responses of both portals, on the real app: who may
 * call what (a clinic-only user cannot use the research API, a research-only user not the clinic
 * API; another account's participants and responses are not found), the research order for a
 * participant by study id, the tests list, the participant page, study responses and the
 * incomplete count, the requisition form, and a research result never emailed to a participant.
 */
import { expect } from 'chai';
import request from 'supertest';
import {
  AccountType, JobStatus, Portal, SampleStatus, SampleType, STUDY_RESPONSE_MESSAGES, TestName, TestOrigin, TestResultStatus, TOTAL_INCOMPLETE_HEADER,
  catalogueEntry,
} from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { until } from '../support/wait';
import { binaryParser, createClinic, pdfText, ALL_ATTESTED, addPatient } from '../support/fixtures/clinic';
import { runJob, userId } from '../support/fixtures/reports';
import { addResearchProject, COMPLETE_ANSWERS, createResearchSite, RESEARCH_ATTESTED, uniqueStudyId, type TestResearchSite } from '../support/fixtures/research';

describe('research portal API', function () {
  this.timeout(60_000);
  let t: TestApp;
  let site: TestResearchSite;
  let other: TestResearchSite;

  before(async () => {
    t = await buildTestApp();
    site = await createResearchSite(t.ctx, t.app, 'Aurora Research');
    other = await createResearchSite(t.ctx, t.app, 'Borealis Research');
  });
  after(() => t.close());

  const order = (s: TestResearchSite, overrides: Record<string, unknown> = {}) =>
    s.session.post(s.api('order'), {
      projectId: s.projectId, studyId: uniqueStudyId(), tests: [TestName.HeadAndNeck], physicianId: s.physicianId, sampleType: SampleType.Saliva,
      attestations: RESEARCH_ATTESTED, ...overrides,
    });

  describe('who may call it', () => {
    let riversideId: number;
    let northwindId: number;
    let physician: Session;
    let researcher: Session;
    let lab: Session;

    before(async () => {
      const m = t.ctx.db.models;
      riversideId = (await m.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
      northwindId = (await m.Account.findOne({ where: { name: 'Northwind Research' } }))!.id;
      physician = await signIn(t.app, 'physician', 'provider', '10.71.0.1');
      researcher = await signIn(t.app, 'researcher', 'research', '10.71.0.2');
      lab = await signIn(t.app, 'lab1', 'lab', '10.71.0.3');
    });

    const researchReads = (id: number) => [`/api/provider-research/${id}/tests`, `/api/provider-research/${id}/study-responses`, `/api/provider-research/${id}/research-projects`, `/api/provider-research/${id}/patient/1`];

    it('refuses a clinic-only user the research API: 403 in their clinic account, 404 in an account not theirs', async () => {
      for (const path of researchReads(riversideId)) await physician.agent.get(path).expect(403);
      for (const path of researchReads(northwindId)) await physician.agent.get(path).expect(404);
      await physician.post(`/api/provider-research/${riversideId}/order`, {}).expect(403);
    });

    it('refuses a research-only user the clinic API (their own research account has no clinic access)', async () => {
      await researcher.agent.get(`/api/provider-clinic/${northwindId}/tests?category=PENDING`).expect(403);
      await researcher.agent.get(`/api/provider-clinic/${northwindId}/research-projects`).expect(403);
      await researcher.agent.get(`/api/provider-clinic/${northwindId}/study-responses`).expect(403);
      await researcher.post(`/api/provider-clinic/${northwindId}/order`, {}).expect(403);
      await researcher.agent.get(`/api/provider-clinic/${riversideId}/study-responses`).expect(404);
    });

    it('answers 401 without a session and 403 to a lab user', async () => {
      await request(t.app).get(`/api/provider-research/${northwindId}/tests`).expect(401);
      await lab.agent.get(`/api/provider-research/${northwindId}/tests`).expect(403);
    });

    it('lets the demo researcher read Northwind: its project, its participants and one incomplete response', async () => {
      const projects = await researcher.agent.get(`/api/provider-research/${northwindId}/research-projects`).expect(200);
      expect(projects.body).to.have.length(1);
      expect(projects.body[0]).to.include({ name: 'Radiation Toxicity Panels Study', participants: 2, incomplete: 1 });
      const list = await researcher.agent.get(`/api/provider-research/${northwindId}/study-responses`).expect(200);
      expect(list.headers[TOTAL_INCOMPLETE_HEADER]).to.equal('1');
      expect(list.body.map((r: { participant: { studyId: string } }) => r.participant.studyId)).to.have.members(['NW-0001', 'KRAS-WH-0042']);
    });
  });

  describe('order', () => {
    it('places a research order for a new participant by study id: a kit in Order Placed, Provider Ordered in the Research Portal, an incomplete study response', async () => {
      const studyId = uniqueStudyId('MDXKRAS-HNSCC');
      const res = await order(site, { studyId, sex: 'F', tests: [TestName.HeadAndNeck, TestName.Previotox] }).expect(201);
      expect(res.body.participant).to.include({ studyId, created: true });
      expect(res.body.sample.status).to.equal(SampleStatus.OrderPlaced);
      expect(res.body.order).to.include({ origin: TestOrigin.ProviderOrdered, portal: Portal.Research });
      expect(res.body.tests.map((x: { name: string }) => x.name)).to.deep.equal([TestName.HeadAndNeck, TestName.Previotox]);
      const participant = await t.ctx.db.models.Patient.findByPk(res.body.participant.id);
      expect(participant).to.include({ studyId, firstName: null, lastName: null, dateOfBirth: null, sex: 'F', accountId: site.accountId });
      const response = await t.ctx.db.models.StudyResponse.findByPk(res.body.studyResponseId);
      expect(response).to.include({ researchProjectId: site.projectId, patientId: participant!.id, complete: false });

      // The same study id again: the same participant, still one response.
      const again = await order(site, { studyId, tests: [TestName.Sarcoma] }).expect(201);
      expect(again.body.participant).to.include({ id: participant!.id, created: false });
      expect(again.body.studyResponseId).to.equal(res.body.studyResponseId);
    });

    it('refuses a bad study id, a test the Research Portal may not order, a missing or clinical-only attestation, naming the field', async () => {
      const badId = await order(site, { studyId: 'KRAS-WH-' }).expect(400);
      expect(badId.body.error.fields.map((f: { field: string }) => f.field)).to.include('studyId');
      const clinical = await order(site, { tests: [TestName.ProstoxUltra] }).expect(400);
      expect(clinical.body.error.fields[0]).to.include({ field: 'tests.0' });
      expect(clinical.body.error.fields[0].message).to.equal('PROSTOX ultra cannot be ordered in the Research Portal');
      const missing = await order(site, { attestations: { informedConsent: true } }).expect(400);
      expect(missing.body.error.fields.map((f: { field: string }) => f.field)).to.include('attestations.supportingDocumentation');
      const extra = await order(site, { attestations: { ...RESEARCH_ATTESTED, medicalNecessity: true } }).expect(400);
      expect(extra.body.error.fields.map((f: { field: string }) => f.field)).to.include('attestations.medicalNecessity');
      const unknown = await order(site, { firstName: 'Ann' }).expect(400);
      expect(unknown.body.error.fields.map((f: { field: string }) => f.field)).to.include('firstName');
    });

    it("answers 404 for another account's project or physician, and 400 for a test the project does not use", async () => {
      await order(site, { projectId: other.projectId }).expect(404);
      await order(site, { physicianId: other.physicianId }).expect(404);
      await t.ctx.db.models.ResearchProject.update({ tests: [TestName.BreastTox] }, { where: { id: other.projectId } });
      try {
        const res = await order(other, { tests: [TestName.Sarcoma] }).expect(400);
        expect(res.body.error.fields[0].field).to.equal('tests');
      } finally {
        await t.ctx.db.models.ResearchProject.update({ tests: [TestName.BreastTox, TestName.Sarcoma, TestName.HeadAndNeck, TestName.RectalCancer, TestName.Previotox] }, { where: { id: other.projectId } });
      }
    });
  });

  describe('requisition form and the result', () => {
    let worker: RunningWorker;
    before(async () => {
      worker = await startTestWorker();
    });
    after(() => worker?.close());

    it('renders the requisition form with the study id and the two research attestations confirmed', async () => {
      const studyId = uniqueStudyId('KRASHNSCC');
      const res = await order(site, { studyId }).expect(201);
      const pdf = await until(async () => {
        const r = await site.session.agent.get(`/api/sample/${res.body.sample.barcode}/pdf_order`).buffer(true).parse(binaryParser);
        return r.status === 200 ? r.body as Buffer : null;
      }, { what: 'the requisition form' });
      const text = await pdfText(pdf);
      expect(text).to.include(studyId);
      expect(text).to.include('Informed consent has been obtained');
      expect(text).to.not.include('NOT CONFIRMED');
      expect(text).to.include('Research Portal');
    });

    it('never emails the participant a result of a Research Portal order, even a PREVIOTOX with an address on file', async () => {
      const m = t.ctx.db.models;
      const res = await order(site, { tests: [TestName.Previotox] }).expect(201);
      // A participant has no address; write one, to show the portal alone keeps the result from them.
      await m.Patient.update({ email: 'participant@research-tests.test' }, { where: { id: res.body.participant.id } });
      const test = await m.Test.findOne({ where: { sampleId: res.body.sample.id } });
      await m.Sample.update({ status: SampleStatus.Resulted }, { where: { id: res.body.sample.id } });
      const result = await m.TestResult.create({
        testId: test!.id, version: 1, value: 'High Risk', scale: 'risk4', status: TestResultStatus.Released, enteredByUserId: await userId(t.ctx.db, 'lab1'),
        reviewedByUserId: await userId(t.ctx.db, 'lab2'), reviewedAt: new Date(),
      });
      const job = await runJob(t.ctx, 'notify-result', { testResultId: result.id });
      expect(job.status, String(job.error)).to.equal(JobStatus.Completed);
      expect(await m.Email.count({ where: { toAddress: 'participant@research-tests.test' } as never })).to.equal(0);
      expect(await m.PatientResultLink.count({ where: { sampleId: res.body.sample.id } })).to.equal(0);
      const provider = await m.Email.findAll({ where: { toAddress: site.email } as never });
      expect(provider.length, 'the research provider is told').to.equal(1);
      expect((await m.Sample.findByPk(res.body.sample.id))!.status).to.equal(SampleStatus.Completed);
    });
  });

  describe('tests list and participant page', () => {
    let list: TestResearchSite;
    before(async () => {
      list = await createResearchSite(t.ctx, t.app, 'Cygnus Research');
      for (const id of ['CY-003', 'CY-001', 'CY-002']) await order(list, { studyId: id }).expect(201);
    });

    it('lists the account research tests with x-total-count, sorted, filtered and paged', async () => {
      const page = await list.session.agent.get(list.api('tests?sort=studyId&order=asc&pageSize=2')).expect(200);
      expect(page.headers['x-total-count']).to.equal('3');
      expect(page.body.map((r: { participant: { studyId: string } }) => r.participant.studyId)).to.deep.equal(['CY-001', 'CY-002']);
      expect(page.body[0]).to.include({ status: SampleStatus.OrderPlaced });
      expect(page.body[0].project.id).to.equal(list.projectId);
      const found = await list.session.agent.get(list.api('tests?q=CY-003')).expect(200);
      expect(found.headers['x-total-count']).to.equal('1');
      const none = await list.session.agent.get(list.api(`tests?status=${encodeURIComponent(SampleStatus.Completed)}`)).expect(200);
      expect(none.body).to.deep.equal([]);
      const bad = await list.session.agent.get(list.api('tests?sort=name')).expect(400);
      expect(bad.body.error.fields[0].field).to.equal('sort');
    });

    it("opens a participant with samples, timeline and study responses; another account's participant is 404", async () => {
      const [row] = (await list.session.agent.get(list.api('tests?q=CY-001')).expect(200)).body;
      const detail = await list.session.agent.get(list.api(`patient/${row.participant.id}`)).expect(200);
      expect(detail.body.participant).to.include({ studyId: 'CY-001', name: 'Study ID CY-001' });
      expect(detail.body.samples[0].timeline[0].to).to.equal(SampleStatus.OrderPlaced);
      expect(detail.body.studyResponses[0]).to.include({ complete: false });
      expect(detail.body.studyResponses[0].missing).to.include('radiationTreatment');
      await site.session.agent.get(site.api(`patient/${row.participant.id}`)).expect(404);
      await list.session.agent.get(list.api('patient/abc')).expect(404);
    });
  });

  describe('study responses', () => {
    let responseId: number;
    let sr: TestResearchSite;
    before(async () => {
      sr = await createResearchSite(t.ctx, t.app, 'Draco Research');
      responseId = (await order(sr).expect(201)).body.studyResponseId;
      await order(sr).expect(201);
    });
    const incomplete = async () => Number((await sr.session.agent.get(sr.api('study-responses')).expect(200)).headers[TOTAL_INCOMPLETE_HEADER]);

    it('saves answers bit by bit; the incomplete count goes down by one once every required answer is in', async () => {
      expect(await incomplete()).to.equal(2);
      const partial = await sr.session.post(sr.api(`study-responses/${responseId}/update`), { answers: { radiationTreatment: 'Protons', doseGy: 79.2 } }).expect(200);
      expect(partial.body).to.include({ complete: false });
      expect(partial.body.answers).to.deep.equal({ radiationTreatment: 'Protons', doseGy: 79.2 });
      expect(await incomplete()).to.equal(2);
      const done = await sr.session.post(sr.api(`study-responses/${responseId}/update`), { answers: COMPLETE_ANSWERS }).expect(200);
      expect(done.body).to.include({ complete: true });
      expect(done.body.missing).to.deep.equal([]);
      expect(await incomplete()).to.equal(1);
      const onlyIncomplete = await sr.session.agent.get(sr.api('study-responses?incomplete=true')).expect(200);
      expect(onlyIncomplete.headers['x-total-count']).to.equal('1');
      // Clearing a required answer makes it incomplete again.
      await sr.session.post(sr.api(`study-responses/${responseId}/update`), { answers: { lateToxicity: null } }).expect(200);
      expect(await incomplete()).to.equal(2);
    });

    it('refuses answers that break the questionnaire, naming the field', async () => {
      const dose = await sr.session.post(sr.api(`study-responses/${responseId}/update`), { answers: { doseGy: 500 } }).expect(400);
      expect(dose.body.error.fields[0]).to.deep.equal({ field: 'answers.doseGy', message: 'Total dose (Gy) must be between 0.1 and 200' });
      const type = await sr.session.post(sr.api(`study-responses/${responseId}/update`), { answers: { radiationTreatment: 'X-rays' } }).expect(400);
      expect(type.body.error.fields[0].field).to.equal('answers.radiationTreatment');
      const dates = await sr.session.post(sr.api(`study-responses/${responseId}/update`), { answers: { treatmentStartDate: '2026-05-01', treatmentEndDate: '2026-04-01' } }).expect(400);
      expect(dates.body.error.fields.map((f: { field: string }) => f.field)).to.include('answers.treatmentEndDate');
      const unknown = await sr.session.post(sr.api(`study-responses/${responseId}/update`), { answers: { favouriteColour: 'blue' } }).expect(400);
      expect(unknown.body.error.fields[0].field).to.equal('answers.favouriteColour');
      await sr.session.post(sr.api(`study-responses/${responseId}/update`), { answers: {} }).expect(400);
    });

    it("answers 404 for another account's response", async () => {
      await site.session.post(site.api(`study-responses/${responseId}/update`), { answers: { doseGy: 10 } }).expect(404);
      const theirs = await site.session.agent.get(site.api('study-responses?pageSize=200')).expect(200);
      expect(theirs.body.map((r: { id: number }) => r.id)).to.not.include(responseId);
      await sr.session.post(sr.api('study-responses/999999999/update'), { answers: { doseGy: 10 } }).expect(404);
    });

    it('keeps the spec messages in the domain', () => {
      expect(STUDY_RESPONSE_MESSAGES).to.deep.equal({
        updated: 'Study Response Updated Successfully', updateFailed: 'Failed to update study response', listFailed: 'Error retrieving study responses',
      });
    });
  });

  describe('clinic research projects', () => {
    it('enrols a clinic patient ordered PROSTOX Research in the clinic project; the clinic fills the same study response', async () => {
      const clinic = await createClinic(t.ctx, t.app, 'Hydra Clinic');
      await addResearchProject(t.ctx, { name: `PROSTOX Research ${clinic.accountId}`, accountIds: [clinic.accountId], tests: [TestName.ProstoxResearch] });
      const patient = await addPatient(clinic);
      await clinic.session.post(clinic.api('order'), {
        patientId: patient.id, tests: [TestName.ProstoxResearch], physicianId: clinic.physicianIds[0], sampleType: SampleType.BuccalSwab, attestations: ALL_ATTESTED,
      }).expect(201);
      const list = await clinic.session.agent.get(clinic.api('study-responses')).expect(200);
      expect(list.headers[TOTAL_INCOMPLETE_HEADER]).to.equal('1');
      expect(list.body[0].participant.name).to.equal(`${patient.firstName} ${patient.lastName}`);
      await clinic.session.post(clinic.api(`study-responses/${list.body[0].id}/update`), { answers: COMPLETE_ANSWERS }).expect(200);
      expect((await clinic.session.agent.get(clinic.api('study-responses')).expect(200)).headers[TOTAL_INCOMPLETE_HEADER]).to.equal('0');
      // The clinic's response is not another account's to change.
      await site.session.post(site.api(`study-responses/${list.body[0].id}/update`), { answers: { doseGy: 1 } }).expect(404);
      expect(catalogueEntry(TestName.ProstoxResearch).portals).to.deep.equal([Portal.Clinical]);
    });

    it("answers an empty list to a General clinic with no project (every clinic's home asks), and its study responses stay a 404", async () => {
      const clinic = await createClinic(t.ctx, t.app, 'Lyra Clinic');
      // Before: 404 on every home page load of such an account (issue 25, item 11).
      expect((await clinic.session.agent.get(clinic.api('research-projects')).expect(200)).body).to.deep.equal([]);
      await clinic.session.agent.get(clinic.api('study-responses')).expect(404);
      await t.ctx.db.models.Account.update({ type: AccountType.ProstoxResearchPartner }, { where: { id: clinic.accountId } });
      const res = await clinic.session.agent.get(clinic.api('research-projects')).expect(200);
      expect(res.body).to.deep.equal([]);
    });
  });
});
