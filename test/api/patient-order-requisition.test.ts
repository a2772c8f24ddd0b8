/**
 * A patient's own order gets its test requisition form when a physician of the clinic signs it
 * off (the moment it has its ordering physician), through the same render-pdf job and key as a
 * clinic order; before that the clinic's download says why there is none (409, not a 500 or a
 * hang). Through the API, a real worker and the PDF's text (pdftotext).
 */
import { expect } from 'chai';
import { PaymentMethod, REQUISITION_AWAITS_SIGN_OFF_MESSAGE, TestOrigin } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { newSession, type Session } from '../support/http';
import { startTestWorker } from '../support/server';
import { startPaymentStack, type PaymentStack } from '../support/stripe';
import { ALL_ATTESTED, binaryParser, pdfText } from '../support/fixtures/clinic';
import { choosePayment, createPatientClinic, orderingPatient, placePatientOrder, type PatientClinic } from '../support/fixtures/patient-orders';
import { outboxJobSettled } from '../support/jobs';
import { pdfPageCount } from '../support/pdf';

describe('a patient order\'s requisition form', function () {
  this.timeout(60_000);
  let stack: PaymentStack;
  let worker: RunningWorker;
  let clinic: PatientClinic;
  let other: PatientClinic;
  let patient: Session;

  before(async () => {
    stack = await startPaymentStack();
    worker = await startTestWorker(stack.env);
    clinic = await createPatientClinic(stack.t.ctx, stack.t.app, 'Bayview Oncology');
    other = await createPatientClinic(stack.t.ctx, stack.t.app, 'Ridge Urology');
    patient = await newSession(stack.t.app, '10.67.0.1');
  });
  after(async () => {
    await worker?.close();
    await stack?.close();
  });

  const m = () => stack.t.ctx.db.models;

  it('comes with the physician\'s sign-off: 409 saying so before, then a PDF naming the patient, the physician and the test', async () => {
    // Insurance: nothing charged, so the order moves on at once (its kit sample in Order Placed).
    const who = orderingPatient({ firstName: 'Marisol', dateOfBirth: '1949-11-05' });
    const order = await placePatientOrder(stack.t.ctx, patient, { accountId: clinic.accountId, product: 'prostox', patient: who });
    const plan = await m().InsurancePlan.findOne({ where: { name: 'Aetna' } });
    await choosePayment(patient, order.key, PaymentMethod.Insurance, { insurancePlanId: plan!.id, insuranceMemberId: 'AET-5678' });
    const sample = (await m().Sample.findOne({ where: { orderId: order.orderId } }))!;
    const path = `/api/sample/${sample.barcode}/pdf_order`;
    const key = `requisition:${sample.id}`;

    // Before the sign-off: no render queued, and the download says why (no 404, no 500, no wait).
    expect(await m().Outbox.count({ where: { idempotencyKey: key } })).to.equal(0);
    const early = await clinic.physician.agent.get(path).expect(409);
    expect(early.body.error).to.deep.equal({ code: 'awaiting_sign_off', message: REQUISITION_AWAITS_SIGN_OFF_MESSAGE });
    await other.physician.agent.get(path).expect(404);
    const before = (await clinic.physician.agent.get(`/api/provider-clinic/${clinic.accountId}/patient/${sample.patientId}`).expect(200)).body;
    expect(before.samples[0]).to.deep.include({ barcode: sample.barcode, origin: TestOrigin.PatientOrdered, requisitionAwaitsSignOff: true });

    // The sign-off queues the same render as a clinic order, in its transaction.
    await clinic.physician.post(`/api/provider-clinic/${clinic.accountId}/patient-orders/${order.orderId}/sign-off`, { attestations: ALL_ATTESTED }).expect(200);
    const outbox = await m().Outbox.findOne({ where: { idempotencyKey: key } });
    expect(outbox!.jobName).to.equal('render-pdf');
    expect((outbox!.payload as { payload: unknown }).payload).to.deep.equal({ sampleId: sample.id, documentType: 'test_requisition_form' });
    const job = await outboxJobSettled(stack.t.ctx, key);
    expect(job.status).to.equal('Completed');

    const res = await clinic.physician.agent.get(path).buffer(true).parse(binaryParser as never).expect(200);
    expect(res.headers['content-type']).to.equal('application/pdf');
    expect(res.headers['content-disposition']).to.equal(`attachment; filename="test-requisition-${sample.barcode}.pdf"`);
    expect(pdfPageCount(res.body as Buffer), 'one page').to.equal(1);
    const text = pdfText(res.body as Buffer);
    const physician = (await m().Physician.findByPk(clinic.physician.physicianId))!;
    const signer = `${physician.firstName} ${physician.lastName}`;
    for (const expected of [
      'Test Requisition Form', sample.barcode, order.orderNumber,
      `Marisol ${who.lastName}`, '11/05/1949',
      'PROSTOX ultra', 'Buccal Swab', clinic.name,
      `Name ${signer}`, '1336666663',
      'Order origin Patient Ordered',
      'The patient ordered this test; the lab mails this kit to them',
      'Confirmed: The ordering physician confirms the medical necessity of the test or tests ordered.',
      'Confirmed: Informed consent has been obtained from the patient.',
      `Attested by ${signer} on`, "when signing off the patient's order in the Clinical Portal.",
    ]) {
      expect(text, expected).to.include(expected);
    }
    // The attestation's time on the lab's clock with the zone's abbreviation (the tests' LAB_TIME_ZONE, America/New_York).
    expect(text).to.match(new RegExp(`Attested by ${signer} on \\d{2}/\\d{2}/\\d{4} \\d{1,2}:\\d{2} [AP]M E[SD]T,`));
    expect(text).to.not.include('NOT CONFIRMED');
    // Nothing of a clinic kit: the clinic does not put this form in the patient's kit.
    expect(text).to.not.include('Place this form in the kit');

    const after = (await clinic.physician.agent.get(`/api/provider-clinic/${clinic.accountId}/patient/${sample.patientId}`).expect(200)).body;
    expect(after.samples[0]).to.deep.include({ requisitionAwaitsSignOff: false, documents: { requisitionForm: true, labReport: false } });
    await other.physician.agent.get(path).expect(404);
  });
});
