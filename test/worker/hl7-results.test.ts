/**
 * Results to an account's EHR as HL7 v2.5.1 ORU^R01 over MLLP (issue 28, item 2), against a real
 * MLLP listener in the test process: a release arrives once, field by field as the lab wrote it and
 * accepted by the independent hl7v2 library, with its report PDF; AE then AA is retried; a
 * receiver that keeps refusing ends Failed in the admin's log, and "Resend" sends it again as a new
 * message; a correction is C with its reason, a rejection X; a disabled interface and a research
 * participant's sample send nothing; the test message answers the receiver's ACK.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { Hl7Message } from '@medplum/core';
import type { RunningWorker } from '@platform/worker';
import { attemptHl7Send, storeFile } from '@platform/server';
import { DocumentType, FileKind, Hl7MessageDestination, Hl7MessageReason, labReportFileName } from '@platform/domain';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { barcodeOf, hl7MessagesSettled, MllpReceiver } from '../support/mllp-receiver';
import { expectValidHl7 } from '../support/hl7-validator';
import { makeResult, makeSample, SampleStatus, TestName, TestResultStatus, userId, type SampleFixture } from '../support/fixtures/lab';
import { createAccount } from '../support/fixtures/campaigns';

/** The EHR's key of a message: its sample (OBR-3, the barcode), or `TEST` for a test message (MSH-11 T). */
const ehrKey = (message: Hl7Message) => (message.getSegment('MSH')?.getField(11).toString() === 'T' ? 'TEST' : barcodeOf(message));

interface MessageRow {
  id: string;
  control_id: string;
  reason: string;
  status: string;
  attempts: number;
  ack_code: string | null;
  ack_text: string | null;
}

describe('results to the EHR as HL7 v2 ORU^R01 over MLLP', function () {
  this.timeout(90_000);
  const FAST = { HL7_RETRY_BASE_MS: '150', HL7_ACK_TIMEOUT_MS: '5000', HL7_ATTEMPTS: '3' };
  let t: TestApp;
  let worker: RunningWorker;
  let admin: Session;
  let lab2: Session;
  let lab1Id: number;
  let ehr: MllpReceiver;
  let port: number;
  let accountId: number;
  const hl7Interface = () => ({ enabled: true, host: '127.0.0.1', port, receivingApplication: 'EPIC', receivingFacility: 'NORTH CLINIC', sendingFacilityOfOrders: null });

  before(async () => {
    t = await buildTestApp(FAST);
    worker = await startTestWorker(FAST);
    admin = await signIn(t.app, 'admin', 'admin', '10.82.0.1');
    lab2 = await signIn(t.app, 'lab2', 'lab', '10.82.0.2');
    lab1Id = await userId(t.ctx.db, 'lab1');
    ehr = new MllpReceiver(ehrKey);
    port = await ehr.start();
    accountId = (await createAccount(t.ctx.db, 'HL7')).id;
    await admin.put(`/api/admin/accounts/${accountId}/hl7-interface`, hl7Interface()).expect(200);
  });
  after(async () => {
    // Disabled: nothing this file's samples do later is sent to a listener that is gone.
    if (accountId) await t.ctx.db.sequelize.query('UPDATE hl7_interfaces SET enabled = false WHERE account_id = :accountId', { replacements: { accountId } });
    await worker?.close();
    await ehr?.close();
    await t?.close();
  });

  async function sampleInReview(test: string = TestName.ProstoxUltra, value = 'High Risk'): Promise<SampleFixture & { resultId: number }> {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [test as typeof TestName.ProstoxUltra] });
    await t.ctx.db.sequelize.query(
      `UPDATE samples SET account_id = :accountId, collected_at = '2026-11-20T09:30:00Z' WHERE id = :id;
       UPDATE orders SET account_id = :accountId WHERE id = (SELECT order_id FROM samples WHERE id = :id);
       UPDATE patients SET account_id = :accountId, address_line1 = '12 Elm St', city = 'Springfield', state = 'IL', postal_code = '62701', country = 'US',
              medical_record_number = 'MRN-77' WHERE id = :patientId;`,
      { replacements: { accountId, id: s.id, patientId: s.patientId } },
    );
    const r = await makeResult(t.ctx.db, s.testIds[0], value, lab1Id);
    return { ...s, resultId: r.id };
  }
  const messagesOf = (sampleId: number) => t.ctx.db.sequelize.query<MessageRow>(
    'SELECT id, control_id, reason, status, attempts, ack_code, ack_text FROM hl7_messages WHERE sample_id = :sampleId ORDER BY id', { replacements: { sampleId }, type: QueryTypes.SELECT },
  );
  /** The sample's messages once `count` exist and every send-hl7 job of theirs has settled. */
  const messagesSettled = (sampleId: number, count: number) => hl7MessagesSettled(t, () => messagesOf(sampleId), count, `HL7 messages of sample ${sampleId}`);
  const field = (m: Hl7Message, segment: string, n: number, index = 0) => m.getAllSegments(segment)[index].getField(n).toString();

  it('sends a release once as an ORU^R01 the independent hl7v2 library accepts, field by field, with the report PDF', async () => {
    const s = await sampleInReview();
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [s.resultId] }).expect(200);
    const [row] = await messagesSettled(s.id, 1);
    expect(row).to.include({ reason: 'released', status: 'Acknowledged', attempts: 1, ack_code: 'AA' });
    const got = ehr.of(s.barcode);
    expect(got).to.have.length(1);
    const text = got[0].toString();
    expectValidHl7(text);
    const m = got[0];
    const sample = await t.ctx.db.models.Sample.findByPk(s.id);
    const patient = await t.ctx.db.models.Patient.findByPk(s.patientId);
    expect(field(m, 'MSH', 9)).to.equal('ORU^R01^ORU_R01');
    expect(field(m, 'MSH', 10)).to.equal(row.control_id);
    expect(field(m, 'MSH', 11)).to.equal('P');
    expect(field(m, 'MSH', 12)).to.equal('2.5.1');
    expect(field(m, 'MSH', 5)).to.equal('EPIC');
    expect(field(m, 'MSH', 6)).to.equal('NORTH CLINIC');
    expect(field(m, 'MSH', 4)).to.match(/\^\d{2}D\d{7}\^CLIA$/);
    expect(field(m, 'PID', 3)).to.include(`${s.patientId}^^^`).and.include('~MRN-77^^^NORTH CLINIC^MR');
    expect(field(m, 'PID', 5)).to.equal(`${patient!.lastName}^${patient!.firstName}^^^^^L`);
    expect(field(m, 'PID', 7)).to.equal('19600203');
    expect(field(m, 'PID', 8)).to.equal('M');
    expect(field(m, 'PID', 11)).to.equal('12 Elm St^^Springfield^IL^62701^USA^H');
    expect(field(m, 'ORC', 2)).to.equal(String(sample!.orderId));
    expect(field(m, 'OBR', 2)).to.equal(String(sample!.orderId));
    expect(field(m, 'OBR', 3)).to.equal(s.barcode);
    expect(field(m, 'OBR', 7)).to.equal('20261120093000+0000');
    expect(field(m, 'OBR', 25)).to.equal('F');
    const [valueObx, reportObx] = m.getAllSegments('OBX');
    expect(valueObx.getField(2).toString()).to.equal('CWE');
    expect(valueObx.getField(5).toString()).to.include('High');
    expect(valueObx.getField(11).toString()).to.equal('F');
    expect(reportObx.getField(2).toString()).to.equal('ED');
    expect(reportObx.getField(3).toString()).to.match(/^11502-2\^/);
    const pdf = Buffer.from(reportObx.getField(5).getComponent(5), 'base64');
    expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
    // The log the admin reads says the same.
    const log = (await admin.agent.get(`/api/admin/accounts/${accountId}/hl7-messages`).expect(200)).body as { controlId: string; status: string; ackCode: string; sample: string }[];
    expect(log.find((x) => x.controlId === row.control_id)).to.include({ status: 'Acknowledged', ackCode: 'AA', sample: s.barcode });
  });

  it('sends the stored report without rendering it again, and renders it first only when none is stored yet', async () => {
    const s = await sampleInReview();
    await t.ctx.db.sequelize.query(`UPDATE test_results SET status = :released, reviewed_by_user_id = :reviewer, reviewed_at = now() WHERE id = :id`, {
      replacements: { released: TestResultStatus.Released, reviewer: await userId(t.ctx.db, 'lab2'), id: s.resultId },
    });
    // A message row without a job (the running worker does not race this direct attempt).
    const newMessage = async () => Number((await t.ctx.db.sequelize.query<{ id: string }>(
      `INSERT INTO hl7_messages (id, control_id, account_id, destination, message_type, reason, sample_id, test_id, test_result_id)
       SELECT n, 'M' || n, :accountId, :ehr, 'ORU^R01', :released, :sampleId, :testId, :resultId FROM nextval('hl7_messages_id_seq') AS n RETURNING id`,
      { replacements: { accountId, ehr: Hl7MessageDestination.Ehr, released: Hl7MessageReason.Released, sampleId: s.id, testId: s.testIds[0], resultId: s.resultId }, type: QueryTypes.SELECT },
    ))[0].id);
    const pdf = Buffer.from('%PDF-1.7 rendered when asked');
    const rendered: number[] = [];
    const hooks = {
      ensureReport: async (sampleId: number, resultId: number) => {
        rendered.push(resultId);
        await t.ctx.db.sequelize.transaction(async (transaction) => {
          const file = await storeFile(t.ctx.db, transaction, { kind: FileKind.Ecm, name: labReportFileName(s.barcode, resultId), contentType: 'application/pdf', content: pdf });
          await t.ctx.db.models.SampleDocument.create({ type: DocumentType.LabReport, sampleId, fileId: file.id, version: 1, corrected: false }, { transaction });
        });
      },
    };
    const reportSent = () => Buffer.from(ehr.of(s.barcode).at(-1)!.getAllSegments('OBX')[1].getField(5).getComponent(5), 'base64');

    const first = await newMessage();
    expect(await attemptHl7Send(t.ctx, first, hooks)).to.deep.equal({ acknowledged: true, controlId: `M${first}` });
    expect(rendered).to.deep.equal([s.resultId]);
    expect(reportSent().equals(pdf)).to.equal(true);

    const second = await newMessage();
    expect(await attemptHl7Send(t.ctx, second, hooks)).to.deep.equal({ acknowledged: true, controlId: `M${second}` });
    expect(rendered, 'a stored report is not rendered again').to.have.length(1);
    expect(ehr.of(s.barcode)).to.have.length(2);
    expect(reportSent().equals(pdf)).to.equal(true);
  });

  it('retries AE until AA, and a correction is its own message: status C with the reason', async () => {
    const s = await sampleInReview(TestName.ProstoxUltra, 'Low Risk');
    ehr.script(s.barcode, 'AE');
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [s.resultId] }).expect(200);
    const [row] = await messagesSettled(s.id, 1);
    expect(row).to.include({ status: 'Acknowledged', attempts: 2, ack_code: 'AA' });
    // Two transmissions, one message: the same control id both times.
    expect(new Set(ehr.of(s.barcode).map((m) => field(m, 'MSH', 10)))).to.deep.equal(new Set([row.control_id]));

    const lab1 = await signIn(t.app, 'lab1', 'lab', '10.82.0.4');
    await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: s.barcode, value: 'High Risk', reason: 'Transcription error' }).expect(201);
    const correction = await t.ctx.db.models.TestResult.findOne({ where: { testId: s.testIds[0], status: TestResultStatus.InReview } });
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [correction!.id] }).expect(200);
    const both = await messagesSettled(s.id, 2);
    expect(both.map((r) => r.reason)).to.deep.equal(['released', 'corrected']);
    const corrected = ehr.of(s.barcode).at(-1)!;
    expectValidHl7(corrected.toString());
    expect(field(corrected, 'OBR', 25)).to.equal('C');
    expect(corrected.getAllSegments('OBX')[0].getField(11).toString()).to.equal('C');
    expect(corrected.getAllSegments('NTE').map((n) => n.getField(3).toString())).to.include('Corrected result: Transcription error');
  });

  it('ends Failed after the last refusal, shown in the log with the answer; Resend sends it again as a new message', async () => {
    const s = await sampleInReview();
    ehr.script(s.barcode, 'AR', 'AR', 'AR');
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [s.resultId] }).expect(200);
    const [row] = await messagesSettled(s.id, 1);
    expect(row).to.include({ status: 'Failed', attempts: 3, ack_code: 'AR', ack_text: 'Unknown patient: call the lab' });
    const log = (await admin.agent.get(`/api/admin/accounts/${accountId}/hl7-messages`).expect(200)).body as { id: number; status: string; ackText: string }[];
    expect(log.find((x) => x.id === Number(row.id))).to.include({ status: 'Failed', ackText: 'Unknown patient: call the lab' });

    const resent = (await admin.post(`/api/admin/accounts/${accountId}/hl7-messages/${row.id}/resend`).expect(201)).body as { controlId: string };
    expect(resent.controlId).to.not.equal(row.control_id);
    const rows = await messagesSettled(s.id, 2);
    expect(rows[1]).to.include({ control_id: resent.controlId, status: 'Acknowledged', attempts: 1 });
    expect(ehr.of(s.barcode).at(-1)!.getSegment('MSH')!.getField(10).toString()).to.equal(resent.controlId);
    const audit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'hl7_message.resent', entityId: String(accountId) } });
    expect(audit?.details).to.deep.include({ messageId: Number(row.id) });
  });

  it("sends a sample's rejection as status X with the reason, and nothing for a research participant or a disabled interface", async () => {
    const rejected = await sampleInReview();
    await lab2.post('/api/lab-toolbox/import-tests-reject', {
      resultIds: [rejected.resultId], reason: 'Degraded DNA', sampleOutcome: 'reject-sample', rejectionReason: 'Rejected - quantity not sufficient',
    }).expect(200);
    const [row] = await messagesSettled(rejected.id, 1);
    expect(row).to.include({ reason: 'rejected', status: 'Acknowledged' });
    const m = ehr.of(rejected.barcode)[0];
    expectValidHl7(m.toString());
    expect(field(m, 'OBR', 25)).to.equal('X');
    const obx = m.getAllSegments('OBX');
    expect(obx).to.have.length(1);
    expect(obx[0].getField(11).toString()).to.equal('X');
    expect(obx[0].getField(5).toString()).to.equal('');
    expect(m.getAllSegments('NTE').map((n) => n.getField(3).toString())).to.include('Specimen rejected: Rejected - quantity not sufficient');

    const research = await sampleInReview();
    await t.ctx.db.sequelize.query('UPDATE orders SET research_project_id = (SELECT id FROM research_projects ORDER BY id LIMIT 1) WHERE id = (SELECT order_id FROM samples WHERE id = :id)', { replacements: { id: research.id } });
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [research.resultId] }).expect(200);
    await admin.put(`/api/admin/accounts/${accountId}/hl7-interface`, { ...hl7Interface(), enabled: false }).expect(200);
    const disabled = await sampleInReview();
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [disabled.resultId] }).expect(200);
    await admin.put(`/api/admin/accounts/${accountId}/hl7-interface`, hl7Interface()).expect(200);
    // Both releases committed (their notify-result jobs exist) and queued no message.
    for (const s of [research, disabled]) {
      expect(await t.ctx.db.models.Outbox.count({ where: { idempotencyKey: `notify-result:${s.resultId}` } })).to.equal(1);
      expect(await messagesOf(s.id)).to.deep.equal([]);
    }
  });

  it('sends a test message at once and answers the ACK, or why none came; the interface is the admin\'s, audited, checked field by field', async () => {
    const answered = (await admin.post(`/api/admin/accounts/${accountId}/hl7-interface/test-message`, {}).expect(200)).body as { status: string; ackCode: string; reason: string; controlId: string };
    expect(answered).to.include({ status: 'Acknowledged', ackCode: 'AA', reason: 'test' });
    const sent = ehr.received.at(-1)!;
    expectValidHl7(sent.toString());
    expect(field(sent, 'MSH', 11)).to.equal('T');
    expect(field(sent, 'MSH', 10)).to.equal(answered.controlId);

    ehr.script('TEST', 'silent');
    const silent = (await admin.post(`/api/admin/accounts/${accountId}/hl7-interface/test-message`, {}).expect(200)).body as { status: string; ackCode: string | null; ackText: string };
    expect(silent).to.include({ status: 'Failed', ackCode: null, ackText: 'No acknowledgement within 5 s' });

    const bad = await admin.put(`/api/admin/accounts/${accountId}/hl7-interface`, { ...hl7Interface(), port: 70000, receivingFacility: 'NORTH|CLINIC' }).expect(400);
    expect(bad.body.error.fields.map((f: { field: string }) => f.field)).to.include.members(['port', 'receivingFacility']);
    await admin.agent.get('/api/admin/accounts/999999999/hl7-interface').expect(404);
    const superAdmin = await signIn(t.app, 'superAdmin', 'provider', '10.82.0.3');
    await superAdmin.agent.get(`/api/admin/accounts/${accountId}/hl7-interface`).expect(403);
    const audits = await t.ctx.db.models.AuditEvent.findAll({ where: { action: 'hl7_interface.updated', entityId: String(accountId) }, order: [['id', 'ASC']] });
    const disabling = audits.find((a) => (a.details as { new: { enabled: boolean } }).new.enabled === false)!;
    expect(disabling.details).to.deep.include({ old: { ...hl7Interface(), enabled: true }, new: { ...hl7Interface(), enabled: false } });
  });
});
