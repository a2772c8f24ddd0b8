/**
 * Complete clinical orders (docs/clinical-orders.md): the ICD-10-CM search, diagnosis codes on an
 * order (validated against the list, required for billed tests, printed on the requisition),
 * correcting a patient's details (history kept, released reports untouched), and cancelling an
 * order until the lab receives the sample. Every id is the caller's account's.
 */
import { expect } from 'chai';
import request from 'supertest';
import {
  DIAGNOSIS_REQUIRED_MESSAGE, JobStatus, ORDER_RECEIVED_MESSAGE, SampleStatus, TestName,
} from '@platform/domain';
import { moveSample, NOTHING_TO_CORRECT_MESSAGE, type UserCaller } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, signIn, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { until } from '../support/wait';
import { addPatient, binaryParser, createClinic, pdfText, placeOrder, uniquePatient, type TestClinic } from '../support/fixtures/clinic';
import { createResult, currentReport, runJob, userId } from '../support/fixtures/reports';

describe('complete clinical orders', () => {
  let t: TestApp;
  let clinic: TestClinic;
  let other: TestClinic;
  let worker: RunningWorker | null = null;

  before(async () => {
    t = await buildTestApp();
    clinic = await createClinic(t.ctx, t.app, 'Cedar Clinic');
    other = await createClinic(t.ctx, t.app, 'Birch Clinic');
  });
  after(async () => {
    await worker?.close();
    await t.close();
  });

  describe('the ICD-10-CM search', () => {
    const search = (q: string, extra = '') => clinic.session.agent.get(clinic.api(`diagnosis-codes?q=${encodeURIComponent(q)}${extra}`));

    it('finds codes by words of their description, general ones first', async () => {
      const res = await search('prostate malignant').expect(200);
      expect(res.body.edition).to.equal('ICD-10-CM FY2026');
      expect(res.body.rows[0]).to.deep.equal({ code: 'C61', display: 'C61', description: 'Malignant neoplasm of prostate' });
      const words = await search('radiation proctitis').expect(200);
      expect(words.body.rows.map((r: { display: string }) => r.display)).to.include('K62.7');
    });

    it('finds codes by code, with or without the dot, in any case', async () => {
      const res = await search('z85.4').expect(200);
      expect(res.body.rows.length).to.be.greaterThan(3);
      expect(res.body.rows.every((r: { code: string }) => r.code.startsWith('Z854'))).to.equal(true);
      expect(res.body.rows.map((r: { display: string }) => r.display)).to.include('Z85.46');
      expect(res.headers['x-total-count']).to.equal(String(res.body.total));
    });

    it('pages: the total, then the next rows', async () => {
      const first = await search('neoplasm', '&pageSize=5').expect(200);
      const second = await search('neoplasm', '&pageSize=5&page=2').expect(200);
      expect(first.body.total).to.be.greaterThan(100);
      expect(first.body.rows).to.have.length(5);
      expect(second.body.rows).to.have.length(5);
      expect(second.body.rows[0].code).to.not.equal(first.body.rows[0].code);
    });

    it('refuses a short search naming the field, and callers who are not the account\'s providers', async () => {
      const short = await search('c').expect(400);
      expect(short.body.error.fields[0].field).to.equal('q');
      await request(t.app).get(clinic.api('diagnosis-codes?q=prostate')).expect(401);
      await other.session.agent.get(clinic.api('diagnosis-codes?q=prostate')).expect(404);
      const lab = await signIn(t.app, 'lab1', 'lab', '10.71.0.1');
      await lab.agent.get(clinic.api('diagnosis-codes?q=prostate')).expect(403);
    });
  });

  describe('diagnosis codes on an order', () => {
    it('refuses a code not in the list, and a billed test without one, naming diagnosisCodes', async () => {
      const p = await addPatient(clinic);
      const unknown = await clinic.session.post(clinic.api('order'), orderBody(clinic, p.id, { diagnosisCodes: ['C61', 'C6199'] })).expect(400);
      expect(unknown.body.error.fields).to.deep.equal([{ field: 'diagnosisCodes', message: unknown.body.error.message }]);
      expect(unknown.body.error.message).to.match(/^C61\.99 is not ICD-10-CM code of the ICD-10-CM FY2026 list/);
      const shape = await clinic.session.post(clinic.api('order'), orderBody(clinic, p.id, { diagnosisCodes: ['prostate'] })).expect(400);
      expect(shape.body.error.fields[0].field).to.match(/^diagnosisCodes/);
      const none = await clinic.session.post(clinic.api('order'), orderBody(clinic, p.id, { diagnosisCodes: [] })).expect(400);
      expect(none.body.error.fields).to.deep.equal([{ field: 'diagnosisCodes', message: DIAGNOSIS_REQUIRED_MESSAGE }]);
      // A research test is not billed: a code is optional.
      await clinic.session.post(clinic.api('order'), orderBody(clinic, p.id, { tests: [TestName.ProstoxResearch], diagnosisCodes: [] })).expect(201);
    });

    it('keeps the codes with their descriptions, shows them on the patient page and prints them on the requisition', async () => {
      const p = await addPatient(clinic, uniquePatient({ firstName: 'Ansel' }));
      const order = await placeOrder(clinic, p.id, { diagnosisCodes: ['c61', 'Z85.46'] });
      const detail = (await clinic.session.agent.get(clinic.api(`patient/${p.id}`)).expect(200)).body;
      expect(detail.samples[0].diagnoses).to.deep.equal([
        { code: 'C61', display: 'C61', description: 'Malignant neoplasm of prostate' },
        { code: 'Z8546', display: 'Z85.46', description: 'Personal history of malignant neoplasm of prostate' },
      ]);
      worker = await startTestWorker();
      const res = await until(async () => {
        const r = await clinic.session.agent.get(`/api/sample/${order.barcode}/pdf_order`).buffer(true).parse(binaryParser as never);
        return r.status === 200 ? r : null;
      }, { what: 'the requisition form' });
      const text = pdfText(res.body as Buffer).replace(/\s+/g, ' ');
      expect(text).to.include('Diagnosis (ICD-10-CM) C61 Malignant neoplasm of prostate; Z85.46 Personal history of malignant neoplasm of prostate');
    });
  });

  describe('correcting a patient', () => {
    it('writes the changed fields, keeps the old values in the history, audits it, and leaves a released report as issued', async () => {
      const fixture = await createResult(t.ctx.db, { accountId: clinic.accountId, physicianId: clinic.physicianIds[0] });
      worker ??= await startTestWorker();
      const rendered = await runJob(t.ctx, 'render-pdf', { sampleId: fixture.sampleId, documentType: 'lab_report', testResultId: fixture.resultId });
      expect(rendered.status).to.equal(JobStatus.Completed);
      const before = await currentReport(t.ctx.db, fixture.sampleId);

      const current = (await clinic.session.agent.get(clinic.api(`patient/${fixture.patientId}`)).expect(200)).body.patient;
      const { id: _id, createdAt: _c, ...fields } = current;
      const body = { ...fields, firstName: 'Walt', lastName: 'Quill', dateOfBirth: '1957-08-18', phone: '415 555 0100', reason: 'Name and date of birth as on the patient’s ID' };
      const res = await clinic.session.post(clinic.api(`patient/${fixture.patientId}/correct`), body).expect(200);
      expect(res.body.changes).to.deep.equal([
        { field: 'firstName', label: 'First name', before: 'Walter', after: 'Walt' },
        { field: 'lastName', label: 'Last name', before: fixture.patient.lastName, after: 'Quill' },
        { field: 'dateOfBirth', label: 'Date of birth', before: '08/19/1957', after: '08/18/1957' },
        { field: 'phone', label: 'Phone', before: null, after: '415 555 0100' },
      ]);
      const detail = (await clinic.session.agent.get(clinic.api(`patient/${fixture.patientId}`)).expect(200)).body;
      expect(detail.patient).to.include({ firstName: 'Walt', dateOfBirth: '1957-08-18', phone: '415 555 0100' });
      expect(detail.corrections).to.have.length(1);
      expect(detail.corrections[0]).to.include({ reason: 'Name and date of birth as on the patient’s ID' });

      const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'patient.corrected', entityId: String(fixture.patientId) } });
      expect(audit!.details).to.include({ correctionId: res.body.id });
      expect((audit!.details as { fields: string[] }).fields).to.deep.equal(['firstName', 'lastName', 'dateOfBirth', 'phone']);
      expect(JSON.stringify(audit!.details)).to.not.include('Walt');

      // The released report is the PDF it was issued as: the old name and date of birth.
      const after = await currentReport(t.ctx.db, fixture.sampleId);
      expect(after!.doc.id).to.equal(before!.doc.id);
      expect(Buffer.compare(after!.content, before!.content)).to.equal(0);
      expect(pdfText(after!.content)).to.include('08/19/1957');

      // The same details again: nothing to correct.
      const same = await clinic.session.post(clinic.api(`patient/${fixture.patientId}/correct`), { ...body, reason: 'again' }).expect(400);
      expect(same.body.error.message).to.equal(NOTHING_TO_CORRECT_MESSAGE);
    });

    it('refuses another account\'s patient, a missing reason and a bad date, naming the field', async () => {
      const p = await addPatient(clinic);
      const body = { firstName: 'Corrected', lastName: p.lastName, dateOfBirth: p.dateOfBirth, sex: p.sex, reason: 'Typo' };
      await other.session.post(other.api(`patient/${p.id}/correct`), body).expect(404);
      await other.session.post(clinic.api(`patient/${p.id}/correct`), body).expect(404);
      const noReason = await clinic.session.post(clinic.api(`patient/${p.id}/correct`), { ...body, reason: '' }).expect(400);
      expect(noReason.body.error.fields[0].field).to.equal('reason');
      const badDate = await clinic.session.post(clinic.api(`patient/${p.id}/correct`), { ...body, dateOfBirth: '1950-02-30' }).expect(400);
      expect(badDate.body.error.fields[0].field).to.equal('dateOfBirth');
      expect((await t.ctx.db.models.Patient.findByPk(p.id))!.firstName).to.equal(p.firstName);
    });
  });

  describe('cancelling an order', () => {
    const lab = async (): Promise<UserCaller> => ({ userId: await userId(t.ctx.db, 'lab1'), kind: 'lab', accountId: null, ip: null, requestId: null });

    it('cancels until the lab receives the sample: the sample Discarded with the reason on its timeline', async () => {
      const p = await addPatient(clinic);
      const order = await placeOrder(clinic, p.id);
      await other.session.post(other.api(`samples/${order.sampleId}/cancel-order`), { reason: 'x' }).expect(404);
      await other.session.post(clinic.api(`samples/${order.sampleId}/cancel-order`), { reason: 'x' }).expect(404);
      const empty = await clinic.session.post(clinic.api(`samples/${order.sampleId}/cancel-order`), { reason: ' ' }).expect(400);
      expect(empty.body.error.fields[0].field).to.equal('reason');

      const res = await clinic.session.post(clinic.api(`samples/${order.sampleId}/cancel-order`), { reason: 'Ordered for the wrong patient' }).expect(200);
      expect(res.body).to.include({ sampleId: order.sampleId, orderNumber: order.orderNumber, status: SampleStatus.Discarded, cancellationReason: 'Ordered for the wrong patient' });
      const sample = (await clinic.session.agent.get(clinic.api(`patient/${p.id}`)).expect(200)).body.samples[0];
      expect(sample).to.include({ status: SampleStatus.Discarded, cancellable: false, cancellationReason: 'Ordered for the wrong patient' });
      expect(sample.timeline.at(-1)).to.include({ from: SampleStatus.OrderPlaced, to: SampleStatus.Discarded, reason: 'Order cancelled: Ordered for the wrong patient' });
      const again = await clinic.session.post(clinic.api(`samples/${order.sampleId}/cancel-order`), { reason: 'again' }).expect(409);
      expect(again.body.error.message).to.equal('This order is already cancelled');
      expect(await t.ctx.db.models.AuditEvent.count({ where: { action: 'order.cancelled', entityId: String(order.sampleId) } })).to.equal(1);
    });

    it('cancels a sample on its way, and refuses once the lab received it', async () => {
      const p = await addPatient(clinic);
      const onTheWay = await placeOrder(clinic, p.id);
      const received = await placeOrder(clinic, p.id);
      const by = await lab();
      await t.ctx.db.sequelize.transaction(async (transaction) => {
        const m = t.ctx.db.models;
        const a = (await m.Sample.findByPk(onTheWay.sampleId, { transaction }))!;
        await moveSample(t.ctx.db, transaction, a, { to: SampleStatus.PendingShipment, by });
        await moveSample(t.ctx.db, transaction, a, { to: SampleStatus.InTransit, by });
        const b = (await m.Sample.findByPk(received.sampleId, { transaction }))!;
        await moveSample(t.ctx.db, transaction, b, { to: SampleStatus.PendingShipment, by });
        await moveSample(t.ctx.db, transaction, b, { to: SampleStatus.InQueue, by });
      });
      await clinic.session.post(clinic.api(`samples/${onTheWay.sampleId}/cancel-order`), { reason: 'Patient declined' }).expect(200);
      const refused = await clinic.session.post(clinic.api(`samples/${received.sampleId}/cancel-order`), { reason: 'Patient declined' }).expect(409);
      expect(refused.body.error.message).to.equal(ORDER_RECEIVED_MESSAGE);
      expect((await t.ctx.db.models.Sample.findByPk(received.sampleId))!.status).to.equal(SampleStatus.InQueue);
    });
  });
});

function orderBody(clinic: TestClinic, patientId: number, overrides: Record<string, unknown>) {
  return {
    patientId, tests: [TestName.ProstoxUltra], physicianId: clinic.physicianIds[0], sampleType: 'Buccal Swab',
    attestations: { medicalNecessity: true, informedConsent: true, reimbursementClaim: true, supportingDocumentation: true }, ...overrides,
  };
}
