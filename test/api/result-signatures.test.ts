/**
 * Electronic signatures at release (issue 29, part 2; 21 CFR 11.50, 11.70, 11.200): approving asks
 * the approver's password again; a wrong one signs and releases nothing (and is audited); the right
 * one records one signature for the batch (who, name as printed, when, meaning) bound to each result
 * version's content hash; a correction is signed with its reason; nothing can change or delete a
 * signature; the report prints the manifest (read back with pdftotext).
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { JobStatus, SignatureMeaning, signedResultText, TestResultStatus } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { makeResult, makeSample, SampleStatus, TestName, userId } from '../support/fixtures/lab';
import { currentReport, pdfText, runJob } from '../support/fixtures/reports';

interface SignatureRow {
  id: string;
  signer_user_id: string;
  printed_name: string;
  meaning: string;
  reason: string | null;
  method: string;
  signed_at: Date;
}

describe('electronic signatures of results', function () {
  this.timeout(60_000);
  let t: TestApp;
  let worker: RunningWorker;
  let lab1: Session;
  let lab2: Session;
  let lab1Id: number;
  let lab2Id: number;

  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    lab1 = await signIn(t.app, 'lab1', 'lab', '10.85.0.1');
    lab2 = await signIn(t.app, 'lab2', 'lab', '10.85.0.2');
    lab1Id = await userId(t.ctx.db, 'lab1');
    lab2Id = await userId(t.ctx.db, 'lab2');
  });
  after(async () => {
    await worker?.close();
    await t?.close();
  });

  async function inReview(value = 'High Risk') {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    const r = await makeResult(t.ctx.db, s.testIds[0], value, lab1Id);
    return { ...s, resultId: r.id };
  }
  const signaturesOf = (resultId: number) => t.ctx.db.sequelize.query<SignatureRow & { content_sha256: string }>(
    `SELECT s.*, sr.content_sha256 FROM signed_results sr JOIN signatures s ON s.id = sr.signature_id WHERE sr.test_result_id = :resultId ORDER BY s.id`,
    { replacements: { resultId }, type: QueryTypes.SELECT },
  );
  /** The hash of a version's content as stored now, computed here from domain's canonical text. */
  async function contentHash(resultId: number, barcode: string): Promise<string> {
    const r = (await t.ctx.db.models.TestResult.findByPk(resultId))!;
    const test = (await t.ctx.db.models.Test.findByPk(r.testId))!;
    const text = signedResultText({
      resultId: r.id, version: r.version, sampleBarcode: barcode, test: test.name, value: r.value, enteredByUserId: r.enteredByUserId,
      enteredAt: r.createdAt.toISOString(), correctionReason: r.correctionReason ?? null,
    });
    return createHash('sha256').update(text).digest('hex');
  }

  it('refuses a wrong or missing password: nothing is released or signed, and the refusal is audited', async () => {
    const s = await inReview();
    const wrong = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { resultIds: [s.resultId], password: 'not-my-password' }).expect(400);
    expect(wrong.body.error.fields).to.deep.equal([{ field: 'password', message: 'The password is not correct: nothing was signed' }]);
    const missing = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { resultIds: [s.resultId] }).expect(400);
    expect(missing.body.error.fields.map((f: { field: string; message: string }) => f.message)).to.include('Enter your password to sign');
    expect((await t.ctx.db.models.TestResult.findByPk(s.resultId))!.status).to.equal(TestResultStatus.InReview);
    expect(await signaturesOf(s.resultId)).to.deep.equal([]);
    const refusals = await t.ctx.db.models.AuditEvent.count({ where: { action: 'signature.refused', actorUserId: lab2Id } });
    expect(refusals).to.be.at.least(1);
  });

  it('signs a batch once with the approver\'s name and meaning, bound to each version\'s content; nothing can change or delete it', async () => {
    const a = await inReview('High Risk');
    const b = await inReview('Low-Average Risk');
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { resultIds: [a.resultId, b.resultId], password: DEMO_PASSWORD }).expect(200);
    const [sa] = await signaturesOf(a.resultId);
    const [sb] = await signaturesOf(b.resultId);
    expect(sa.id).to.equal(sb.id);
    expect(sa).to.include({ printed_name: 'Lena Pipette', meaning: SignatureMeaning.Release, method: 'password', reason: null });
    expect(Number(sa.signer_user_id)).to.equal(lab2Id);
    expect(sa.content_sha256).to.equal(await contentHash(a.resultId, a.barcode));
    expect(sb.content_sha256).to.equal(await contentHash(b.resultId, b.barcode));
    expect(sa.content_sha256).to.not.equal(sb.content_sha256);
    const approvedAudit = await t.ctx.db.models.AuditEvent.findOne({ where: { action: 'result.approved', entityId: String(a.testIds[0]) } });
    expect((approvedAudit!.details as { signatureId: number }).signatureId).to.equal(Number(sa.id));

    // A report's read locks signed_results, then signatures; TRUNCATE … CASCADE locks them the other
    // way round, so with a report rendering (the approval's, or a job an earlier file left on this
    // process's queue) PostgreSQL may end it as a deadlock before the trigger speaks (CI saw it
    // once). Each attempt first takes both locks in the readers' order: it waits for them instead.
    for (const sql of [
      `UPDATE signatures SET printed_name = 'Someone Else' WHERE id = ${sa.id}`,
      `DELETE FROM signed_results WHERE signature_id = ${sa.id}`,
      `UPDATE signed_results SET test_result_id = ${b.resultId} WHERE signature_id = ${sa.id} AND test_result_id = ${a.resultId}`,
      'TRUNCATE signatures CASCADE',
    ]) {
      let refused: Error | null = null;
      await t.ctx.db.sequelize.transaction(async (transaction) => {
        await t.ctx.db.sequelize.query('LOCK TABLE signed_results, signatures IN ACCESS EXCLUSIVE MODE', { transaction });
        await t.ctx.db.sequelize.query(sql, { transaction });
      }).catch((err: Error) => { refused = err; });
      expect(refused, sql).to.be.an('error');
      expect(String(refused)).to.match(/record of electronic signatures/);
    }
    expect((await signaturesOf(a.resultId))[0]).to.include({ printed_name: 'Lena Pipette' });
  });

  it('signs a correction with its reason, then its approval; the report prints both signatures (name, date and time, meaning, reason)', async () => {
    const s = await inReview('High Risk');
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { resultIds: [s.resultId], password: DEMO_PASSWORD }).expect(200);
    await lab1.post('/api/lab-toolbox/results/correct', { sampleBarcode: s.barcode, value: 'Intermediate Risk', reason: 'Wrong plate column read', password: 'wrong' }).expect(400);
    expect(await t.ctx.db.models.TestResult.count({ where: { testId: s.testIds[0] } })).to.equal(1);
    const corrected = (await lab1.post('/api/lab-toolbox/results/correct', {
      sampleBarcode: s.barcode, value: 'Intermediate Risk', reason: 'Wrong plate column read', password: DEMO_PASSWORD,
    }).expect(201)).body as { resultId: number };
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { resultIds: [corrected.resultId], password: DEMO_PASSWORD }).expect(200);
    const signed = await signaturesOf(corrected.resultId);
    expect(signed.map((x) => [x.printed_name, x.meaning, x.reason])).to.deep.equal([
      ['Leo Bench', SignatureMeaning.Correction, 'Wrong plate column read'],
      ['Lena Pipette', SignatureMeaning.Release, null],
    ]);

    const job = await runJob(t.ctx, 'render-pdf', { sampleId: s.id, documentType: 'lab_report', testResultId: corrected.resultId });
    expect(job.status, String(job.error)).to.equal(JobStatus.Completed);
    const text = pdfText((await currentReport(t.ctx.db, s.id))!.content).replace(/\s+/g, ' ');
    expect(text).to.include('Electronic signatures');
    expect(text).to.match(/Corrected result entered for review Signed by Leo Bench, \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2}.*?\. Reason: Wrong plate column read/);
    expect(text).to.match(/Reviewed and approved for release Signed by Lena Pipette, \d{2}\/\d{2}\/\d{4} \d{1,2}:\d{2}/);
  });
});
