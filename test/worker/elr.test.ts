/**
 * Electronic lab reporting of COVID-19 to public health (issue 28, item 4), against a real MLLP
 * listener in the test process playing the agency: a released DETECTED PCR result arrives once as
 * the ELR guide's ORU^R01 (PHLIP profile), field by field, accepted by the independent hl7v2
 * library; a test of another kind is not reported; AE then AA is retried; in batch-file mode the
 * day's reports are one FHS/BHS file in the admin's folder, written once; the report counts what
 * was sent and acknowledged; the settings are the admin's, checked and audited.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { Op, QueryTypes } from 'sequelize';
import { Hl7Message } from '@medplum/core';
import type { RunningWorker } from '@platform/worker';
import { writeDueElrBatches } from '@platform/server';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { barcodeOf, hl7MessagesSettled, MllpReceiver } from '../support/mllp-receiver';
import { until } from '../support/wait';
import { expectValidHl7 } from '../support/hl7-validator';
import { makeResult, makeSample, SampleStatus, TestName, userId } from '../support/fixtures/lab';
import { createAccount } from '../support/fixtures/campaigns';
import { CovidPcrResult, labDayOf, SampleType } from '@platform/domain';

interface MessageRow {
  id: string;
  control_id: string;
  reason: string;
  status: string;
  attempts: number;
  ack_code: string | null;
  batch_id: string | null;
}

describe('COVID-19 results reported to public health (ELR, HL7 v2.5.1)', function () {
  this.timeout(90_000);
  let batchRoot: string;
  let t: TestApp;
  let worker: RunningWorker;
  let admin: Session;
  let lab2: Session;
  let lab1Id: number;
  let agency: MllpReceiver;
  let port: number;
  let accountId: number;
  let accountName: string;
  /** Audit rows of this file only: other files (the browser test) set public health's settings too. */
  let auditsFrom: number;
  const settings = (over: Record<string, unknown> = {}) => ({
    enabled: true, mode: 'mllp', host: '127.0.0.1', port, folder: null, receivingApplication: 'STATE ELR', receivingFacility: 'STATE DOH', ...over,
  });

  before(async () => {
    batchRoot = await mkdtemp(path.join(os.tmpdir(), 'elr-test-'));
    const env = { HL7_RETRY_BASE_MS: '150', HL7_ACK_TIMEOUT_MS: '5000', HL7_ATTEMPTS: '3', ELR_BATCH_ROOT: batchRoot };
    t = await buildTestApp(env);
    worker = await startTestWorker(env);
    admin = await signIn(t.app, 'admin', 'admin', '10.83.0.1');
    lab2 = await signIn(t.app, 'lab2', 'lab', '10.83.0.2');
    lab1Id = await userId(t.ctx.db, 'lab1');
    agency = new MllpReceiver(barcodeOf, 'Try again later');
    port = await agency.start();
    const account = await createAccount(t.ctx.db, 'ELR');
    accountId = account.id;
    accountName = account.name;
    auditsFrom = ((await t.ctx.db.models.AuditEvent.max('id')) as number | null) ?? 0;
    await admin.put('/api/admin/public-health/elr', settings()).expect(200);
  });
  after(async () => {
    // Off: nothing another file releases later is reported to a listener that is gone.
    await t?.ctx.db.sequelize.query('UPDATE elr_settings SET enabled = false');
    await worker?.close();
    await agency?.close();
    await t?.close();
    if (batchRoot) await rm(batchRoot, { recursive: true, force: true });
  });

  async function covidInReview(value: string = CovidPcrResult.Detected, test: string = TestName.CovidPcr) {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [test as typeof TestName.CovidPcr], sampleType: SampleType.NasalCavity });
    await t.ctx.db.sequelize.query(
      `UPDATE samples SET account_id = :accountId, collected_at = '2026-11-20T09:30:00Z' WHERE id = :id;
       UPDATE orders SET account_id = :accountId WHERE id = (SELECT order_id FROM samples WHERE id = :id);
       UPDATE patients SET account_id = :accountId, address_line1 = '12 Elm St', city = 'Springfield', state = 'IL', postal_code = '62701', country = 'US',
              phone = '(217) 555-0142' WHERE id = :patientId;`,
      { replacements: { accountId, id: s.id, patientId: s.patientId } },
    );
    const r = await makeResult(t.ctx.db, s.testIds[0], value, lab1Id);
    return { ...s, resultId: r.id };
  }
  const approveCovid = (resultIds: number[]) => lab2.post('/api/lab-toolbox/approve-tests-covid-pcr', { password: DEMO_PASSWORD, resultIds }).expect(200);
  const reportsOf = (sampleId: number) => t.ctx.db.sequelize.query<MessageRow>(
    `SELECT id, control_id, reason, status, attempts, ack_code, batch_id FROM hl7_messages WHERE sample_id = :sampleId AND destination = 'public-health' ORDER BY id`,
    { replacements: { sampleId }, type: QueryTypes.SELECT },
  );
  /** The sample's reports, once `count` exist and every send-hl7 job of theirs has settled. */
  const reportsSettled = (sampleId: number, count: number) => hl7MessagesSettled(t, () => reportsOf(sampleId), count, `ELR messages of sample ${sampleId}`);
  const field = (m: Hl7Message, segment: string, n: number, index = 0) => m.getAllSegments(segment)[index].getField(n).toString();

  it('reports a released DETECTED PCR result once, as the ELR guide\'s ORU^R01, field by field, accepted by hl7v2', async () => {
    const s = await covidInReview(CovidPcrResult.Detected);
    await approveCovid([s.resultId]);
    const [row] = await reportsSettled(s.id, 1);
    expect(row).to.include({ reason: 'released', status: 'Acknowledged', attempts: 1, ack_code: 'AA' });
    const [m] = agency.of(s.barcode);
    expect(agency.of(s.barcode)).to.have.length(1);
    expectValidHl7(m.toString());
    if (process.env.ELR_PRINT) console.log(m.toString().replace(/\r/g, '\n'));
    const sample = await t.ctx.db.models.Sample.findByPk(s.id);
    const clia = field(m, 'MSH', 4).split('^')[1];
    expect(clia).to.match(/^\d{2}D\d{7}$/);
    expect(m.segments.map((seg) => seg.name)).to.deep.equal(['MSH', 'SFT', 'PID', 'ORC', 'OBR', 'OBX', 'NTE', 'SPM']);
    // MSH: the lab, the agency, the ELR profile with an accept ACK asked for.
    expect(field(m, 'MSH', 3)).to.match(new RegExp(`\\^${clia}\\^CLIA$`));
    expect(field(m, 'MSH', 4)).to.match(new RegExp(`\\^${clia}\\^CLIA$`));
    expect(field(m, 'MSH', 5)).to.equal('STATE ELR');
    expect(field(m, 'MSH', 6)).to.equal('STATE DOH');
    expect(field(m, 'MSH', 9)).to.equal('ORU^R01^ORU_R01');
    expect(field(m, 'MSH', 10)).to.equal(row.control_id);
    expect(field(m, 'MSH', 11)).to.equal('P');
    expect(field(m, 'MSH', 12)).to.equal('2.5.1');
    expect(field(m, 'MSH', 15)).to.equal('AL');
    expect(field(m, 'MSH', 16)).to.equal('NE');
    expect(field(m, 'MSH', 17)).to.equal('USA');
    expect(field(m, 'MSH', 21)).to.equal('PHLabReport-Ack^^2.16.840.1.113883.9.10^ISO');
    expect(field(m, 'SFT', 1)).to.include('Platform');
    expect(field(m, 'SFT', 6)).to.match(/^\d{8}$/);
    // PID: the lab's id of the patient, the demographics, the guide's "unknown" race and ethnicity.
    const patient = await t.ctx.db.models.Patient.findByPk(s.patientId);
    expect(field(m, 'PID', 3)).to.equal(`${s.patientId}^^^${field(m, 'MSH', 3).split('^')[0]}&${clia}&CLIA^PI`);
    expect(field(m, 'PID', 5)).to.equal(`${patient!.lastName}^${patient!.firstName}^^^^^L`);
    expect(field(m, 'PID', 7)).to.equal('19600203');
    expect(field(m, 'PID', 8)).to.equal('M');
    expect(field(m, 'PID', 10)).to.equal('UNK^Unknown^NULLFL');
    expect(field(m, 'PID', 11)).to.equal('12 Elm St^^Springfield^IL^62701^USA^H');
    expect(field(m, 'PID', 13)).to.equal('^PRN^PH^^1^217^5550142');
    expect(field(m, 'PID', 22)).to.equal('U^Unknown^HL70189');
    // ORC / OBR: the order numbers with their assigning lab, the ordering provider by NPI, the ordering facility.
    const ei = (id: string | number) => `${id}^${field(m, 'MSH', 3).split('^')[0]}^${clia}^CLIA`;
    expect(field(m, 'ORC', 1)).to.equal('RE');
    expect(field(m, 'ORC', 2)).to.equal(ei(sample!.orderId!));
    expect(field(m, 'ORC', 3)).to.equal(ei(s.barcode));
    expect(field(m, 'ORC', 12)).to.match(/^\d{10}\^.+\^NPI&2\.16\.840\.1\.113883\.4\.6&ISO\^L\^\^\^NPI$/);
    expect(field(m, 'ORC', 21)).to.equal(accountName);
    expect(field(m, 'OBR', 2)).to.equal(ei(sample!.orderId!));
    expect(field(m, 'OBR', 3)).to.equal(ei(s.barcode));
    expect(field(m, 'OBR', 4).split('^').slice(0, 3)).to.deep.equal(['94500-6', 'SARS-CoV-2 (COVID-19) RNA [Presence] in Respiratory system specimen by NAA with probe detection', 'LN']);
    expect(field(m, 'OBR', 7)).to.equal('20261120093000+0000');
    expect(field(m, 'OBR', 16)).to.equal(field(m, 'ORC', 12));
    expect(field(m, 'OBR', 25)).to.equal('F');
    // OBX: the LOINC test, SNOMED CT Detected, abnormal, final, the performing lab by CLIA.
    expect(field(m, 'OBX', 2)).to.equal('CWE');
    expect(field(m, 'OBX', 3).split('^').slice(0, 3)).to.deep.equal(['94500-6', 'SARS-CoV-2 (COVID-19) RNA [Presence] in Respiratory system specimen by NAA with probe detection', 'LN']);
    expect(field(m, 'OBX', 5).split('^').slice(0, 3)).to.deep.equal(['260373001', 'Detected', 'SCT']);
    expect(field(m, 'OBX', 8)).to.equal('A');
    expect(field(m, 'OBX', 11)).to.equal('F');
    expect(field(m, 'OBX', 23)).to.match(new RegExp(`\\^XX\\^\\^\\^${clia}$`));
    // SPM: the specimen by order and barcode, its SNOMED CT type, collected and received.
    expect(field(m, 'SPM', 2)).to.equal(`${ei(sample!.orderId!).replace(/\^/g, '&')}^${ei(s.barcode).replace(/\^/g, '&')}`);
    expect(field(m, 'SPM', 4).split('^')[2]).to.equal('SCT');
    expect(field(m, 'SPM', 17)).to.equal('20261120093000+0000');
    expect(field(m, 'SPM', 18)).to.match(/^\d{14}\+0000$/);
    // No report PDF goes to public health.
    expect(m.getAllSegments('OBX').map((o) => o.getField(2).toString())).to.deep.equal(['CWE']);
  });

  it("reports a lab's own walk-in order (no account, no physician): the lab is the ordering facility", async () => {
    const s = await covidInReview(CovidPcrResult.NotDetected);
    await t.ctx.db.sequelize.query(
      `UPDATE samples SET account_id = NULL WHERE id = :id;
       UPDATE orders SET account_id = NULL, physician_id = NULL WHERE id = (SELECT order_id FROM samples WHERE id = :id);
       UPDATE patients SET account_id = NULL WHERE id = :patientId;`,
      { replacements: { id: s.id, patientId: s.patientId } },
    );
    await approveCovid([s.resultId]);
    const [row] = await reportsSettled(s.id, 1);
    expect(row).to.include({ status: 'Acknowledged', ack_code: 'AA' });
    const [m] = agency.of(s.barcode);
    expectValidHl7(m.toString());
    expect(field(m, 'ORC', 12)).to.equal('');
    expect(field(m, 'OBR', 16)).to.equal('');
    expect(field(m, 'ORC', 21)).to.equal(t.ctx.config.lab.name.slice(0, 50).trim());
    expect(field(m, 'ORC', 22)).to.match(/\^B$/);
  });

  it('reports COVID-19 Rapid, retries AE until AA, a correction as C; reports no test of another kind', async () => {
    const rapid = await covidInReview(CovidPcrResult.NotDetected, TestName.CovidRapid);
    agency.script(rapid.barcode, 'AE');
    await approveCovid([rapid.resultId]);
    const [row] = await reportsSettled(rapid.id, 1);
    expect(row).to.include({ status: 'Acknowledged', attempts: 2, ack_code: 'AA' });
    const first = agency.of(rapid.barcode)[0];
    expectValidHl7(first.toString());
    expect(field(first, 'OBR', 4)).to.match(/^94558-4\^/);
    expect(field(first, 'OBX', 5)).to.match(/^260415000\^Not detected\^SCT/);
    expect(field(first, 'OBX', 8)).to.equal('N');

    const lab1 = await signIn(t.app, 'lab1', 'lab', '10.83.0.4');
    await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: rapid.barcode, value: CovidPcrResult.Detected, reason: 'Wells swapped' }).expect(201);
    const correction = await t.ctx.db.models.TestResult.findOne({ where: { testId: rapid.testIds[0], status: 'In Review' } });
    await approveCovid([correction!.id]);
    const both = await reportsSettled(rapid.id, 2);
    expect(both.map((r) => [r.reason, r.status])).to.deep.equal([['released', 'Acknowledged'], ['corrected', 'Acknowledged']]);
    const corrected = agency.of(rapid.barcode).at(-1)!;
    expectValidHl7(corrected.toString());
    expect(field(corrected, 'OBR', 25)).to.equal('C');
    expect(field(corrected, 'OBX', 5)).to.match(/^260373001\^Detected\^SCT/);
    expect(corrected.getAllSegments('NTE').map((n) => n.getField(3).toString())).to.include('Corrected result: Wells swapped');

    const prostox = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    const r = await makeResult(t.ctx.db, prostox.testIds[0], 'High Risk', lab1Id);
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [r.id] }).expect(200);
    // The release committed (its notify-result job exists) and queued no report.
    expect(await t.ctx.db.models.Outbox.count({ where: { idempotencyKey: `notify-result:${r.id}` } })).to.equal(1);
    expect(await reportsOf(prostox.id)).to.deep.equal([]);
  });

  it('in batch-file mode writes the reports waiting as one FHS/BHS file in the folder, once; a finished day is written by the worker\'s look', async () => {
    await admin.put('/api/admin/public-health/elr', settings({ mode: 'batch-file', host: null, port: null, folder: 'state/outgoing' })).expect(200);
    const a = await covidInReview(CovidPcrResult.Detected);
    const b = await covidInReview(CovidPcrResult.NotDetected);
    await approveCovid([a.resultId, b.resultId]);
    const waiting = [...await until(async () => ((await reportsOf(a.id)).length ? reportsOf(a.id) : null), { what: 'a report' }), ...await reportsOf(b.id)];
    expect(waiting.map((r) => r.status)).to.deep.equal(['Pending', 'Pending']);
    // No job: the batch takes them.
    expect(await t.ctx.db.models.Outbox.count({ where: { idempotencyKey: waiting.map((r) => `hl7:${r.id}`) } })).to.equal(0);

    const batch = (await admin.post('/api/admin/public-health/elr/batches', {}).expect(201)).body as { id: number; fileName: string; messages: number; writtenAt: string | null };
    expect(batch.messages).to.be.at.least(2);
    expect(batch.writtenAt).to.be.a('string');
    expect(batch.fileName).to.match(/^ELR_\d{2}D\d{7}_\d{8}_\d+\.hl7$/);
    const folder = path.join(batchRoot, 'state', 'outgoing');
    expect(await readdir(folder)).to.deep.equal([batch.fileName]);
    const text = await readFile(path.join(folder, batch.fileName), 'utf8');
    const segments = text.split('\r').filter(Boolean);
    expect(segments[0]).to.match(/^FHS\|\^~\\&\|/);
    expect(segments[0].split('|')[8]).to.equal(batch.fileName);
    expect(segments[1]).to.match(/^BHS\|\^~\\&\|/);
    expect(segments.at(-2)).to.equal(`BTS|${batch.messages}`);
    expect(segments.at(-1)).to.equal('FTS|1');
    const messages = text.split('\r').slice(2, -3).join('\r').split(/\r(?=MSH\|)/).map((part) => Hl7Message.parse(part));
    expect(messages).to.have.length(batch.messages);
    for (const m of messages) {
      expectValidHl7(m.toString());
      expect(field(m, 'MSH', 21)).to.equal('PHLabReport-NoAck^^2.16.840.1.113883.9.11^ISO');
      expect(field(m, 'MSH', 15)).to.equal('NE');
    }
    expect(messages.map((m) => field(m, 'OBR', 3).split('^')[0])).to.include.members([a.barcode, b.barcode]);
    const after = [...await reportsOf(a.id), ...await reportsOf(b.id)];
    expect(after.map((r) => [r.status, Number(r.batch_id)])).to.deep.equal([['Batched', batch.id], ['Batched', batch.id]]);
    const again = await admin.post('/api/admin/public-health/elr/batches', {}).expect(409);
    expect(again.body.error.message).to.equal('No reports are waiting for a batch file');

    // The worker's look takes a finished day only: today's report waits for tomorrow's look.
    const c = await covidInReview(CovidPcrResult.Detected);
    await approveCovid([c.resultId]);
    await until(async () => ((await reportsOf(c.id)).length ? true : null), { what: 'a report' });
    const ctx = { db: t.ctx.db, config: t.ctx.config };
    expect(await writeDueElrBatches(ctx, { now: new Date() })).to.deep.equal({ batched: 0, written: 0 });
    const tomorrow = await writeDueElrBatches(ctx, { now: new Date(Date.now() + 86_400_000) });
    expect(tomorrow.batched).to.be.at.least(1);
    expect(tomorrow.written).to.equal(1);
    expect((await reportsOf(c.id))[0].status).to.equal('Batched');
    expect(await readdir(folder)).to.have.length(2);

    const report = (await admin.agent.get('/api/admin/public-health/elr/report').expect(200)).body as {
      days: { day: string; reported: number; sent: number; acknowledged: number; batched: number; pending: number }[];
      batches: { id: number }[];
      messages: { controlId: string; status: string }[];
    };
    const today = report.days[0];
    expect(today.day).to.equal(labDayOf(new Date(), t.ctx.config.labTimeZone));
    // Every report so far got through: acknowledged over MLLP or written to a file; none failed or waits.
    expect(today).to.include({ failed: 0, pending: 0 });
    expect(today.acknowledged).to.be.at.least(3);
    expect(today.batched).to.be.at.least(3);
    expect(today.sent).to.equal(today.reported);
    expect(today.reported).to.equal(today.acknowledged + today.batched);
    expect(report.batches.map((x) => x.id)).to.include(batch.id);
    expect(report.messages.find((x) => x.controlId === waiting[0].control_id)).to.include({ status: 'Batched' });

    // Back to MLLP: a report queued for the batch meanwhile is sent.
    const d = await covidInReview(CovidPcrResult.Detected);
    await approveCovid([d.resultId]);
    await until(async () => ((await reportsOf(d.id)).length ? true : null), { what: 'a report' });
    await admin.put('/api/admin/public-health/elr', settings()).expect(200);
    const [sent] = await reportsSettled(d.id, 1);
    expect(sent).to.include({ status: 'Acknowledged', ack_code: 'AA' });
    expect(agency.of(d.barcode)).to.have.length(1);
  });

  it('takes settings from the admin only, names the field of a bad one, keeps batch folders inside the root, and audits each change', async () => {
    const bad = await admin.put('/api/admin/public-health/elr', settings({ host: null, receivingFacility: 'STATE|DOH' })).expect(400);
    expect(bad.body.error.fields.map((f: { field: string }) => f.field)).to.include.members(['host', 'receivingFacility']);
    for (const folder of ['../etc', '/etc/cron.d', 'a/../../b', '']) {
      const outside = await admin.put('/api/admin/public-health/elr', settings({ mode: 'batch-file', folder })).expect(400);
      expect(outside.body.error.fields.map((f: { field: string }) => f.field)).to.deep.equal(['folder']);
    }
    const lab = await signIn(t.app, 'lab1', 'lab', '10.83.0.5');
    await lab.agent.get('/api/admin/public-health/elr').expect(403);
    await lab.put('/api/admin/public-health/elr', settings()).expect(403);
    const view = (await admin.agent.get('/api/admin/public-health/elr').expect(200)).body;
    expect(view).to.include({ configured: true, enabled: true, mode: 'mllp', host: '127.0.0.1', port, receivingApplication: 'STATE ELR' });
    const audits = await t.ctx.db.models.AuditEvent.findAll({ where: { action: 'elr_settings.updated', id: { [Op.gt]: auditsFrom } }, order: [['id', 'ASC']] });
    const toBatch = audits.find((a) => (a.details as { new: { mode: string } }).new.mode === 'batch-file')!;
    expect(toBatch.details).to.deep.include({ old: settings(), new: settings({ mode: 'batch-file', host: null, port: null, folder: 'state/outgoing' }) });
  });
});
