/**
 * DNA extraction runs end to end, on the real API and a real worker, through the result-file
 * import pipeline: upload (kind dna-extraction) → dry run (row errors with row numbers, flagged
 * rows with why) → all-or-nothing commit (DNA Extraction results In Review) → a flagged sample
 * sent to re-extraction (`<id>.reex`) or rejected 'Rejected - quantity not sufficient' →
 * release by a second lab user through approve-tests-dna-extraction. Lab users only.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { expect } from 'chai';
import request from 'supertest';
import { DEFAULT_EXTRACTION_ACCEPTANCE, SELF_APPROVAL_MESSAGE, type ExtractionView, type FlaggedExtractionRow } from '@platform/domain';
import { releasedResultsOf } from '@platform/server';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { freshBarcode, makeResult, makeSample, SampleStatus, statusOf, TestName, TestResultStatus, timeline, userId, type SampleFixture } from '../support/fixtures/lab';
import { until } from '../support/wait';

interface JobView {
  id: number;
  status: string;
  error: string | null;
  result: {
    rowCount?: number;
    errorCount?: number;
    errors?: { row: number | null; column: string; value: string; message: string }[];
    rows?: { row: number; barcode: string; value: string; test: string | null; ok: boolean }[];
    flaggedCount?: number;
    flagged?: FlaggedExtractionRow[];
    acceptance?: typeof DEFAULT_EXTRACTION_ACCEPTANCE;
    resultsWritten?: number;
    samplesMovedToTesting?: number;
  } | null;
}

const HEADER = 'Sample ID,Concentration (ng/µL),A260/280,Volume (µL),Plate,Well';

describe('lab toolbox: DNA extraction import', function () {
  this.timeout(120_000);
  let t: TestApp;
  let worker: RunningWorker;
  let lab1: Session;
  let lab2: Session;
  let lab1Id: number;
  let lab2Id: number;

  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    lab1 = await signIn(t.app, 'lab1', 'lab');
    lab2 = await signIn(t.app, 'lab2', 'lab');
    lab1Id = await userId(t.ctx.db, 'lab1');
    lab2Id = await userId(t.ctx.db, 'lab2');
  });
  after(async () => {
    await worker?.close();
    await t?.close();
  });

  const upload = (s: Session, filename: string, content: string) =>
    s.agent
      .post(`/api/lab-toolbox/import-files?kind=dna-extraction&filename=${encodeURIComponent(filename)}`)
      .set('x-csrf-token', s.csrf)
      .set('Content-Type', 'text/csv')
      .send(Buffer.from(content));

  async function finished(s: Session, jobId: number): Promise<JobView> {
    return until(async () => {
      const res = await s.agent.get(`/api/lab-toolbox/jobs/${jobId}`).expect(200);
      return res.body.status === 'Pending' ? null : (res.body as JobView);
    }, { what: `job ${jobId} finished`, timeoutMs: 30_000 });
  }

  /** Uploads, waits for the dry run, commits and waits for the commit: answers both jobs. */
  async function importRun(s: Session, filename: string, lines: string[]): Promise<{ dry: JobView; commit: JobView; fileId: number }> {
    const up = await upload(s, filename, `${HEADER}\n${lines.join('\n')}\n`).expect(202);
    const dry = await finished(s, up.body.jobId);
    expect(dry.status, dry.error ?? '').to.equal('Completed');
    expect(dry.result!.errors, JSON.stringify(dry.result!.errors)).to.deep.equal([]);
    const c = await s.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(202);
    const commit = await finished(s, c.body.jobId);
    expect(commit.status, commit.error ?? '').to.equal('Completed');
    return { dry, commit, fileId: up.body.fileId };
  }

  const extractionsOf = (sampleId: number) => t.ctx.db.models.DnaExtraction.findAll({ where: { sampleId }, order: [['id', 'ASC']] });
  async function dnaResultsOf(sampleId: number) {
    const tests = await t.ctx.db.models.Test.findAll({ where: { sampleId, name: TestName.DnaExtraction } });
    return t.ctx.db.models.TestResult.findAll({ where: { testId: tests.map((x) => x.id) }, order: [['version', 'ASC']] });
  }
  const listed = async (s: Session, query: string): Promise<ExtractionView[]> => (await s.agent.get(`/api/lab-toolbox/dna-extractions?${query}`).expect(200)).body;

  it('a run with one sample out of range: the dry run flags it with its row and why and writes nothing; the commit writes every row for review; lab2 releases the rest, lab1 cannot', async () => {
    const db = t.ctx.db;
    const a = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const b = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.Kras] });
    const low = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxCfrt] });
    const up = await upload(lab1, 'extraction-run-12.csv', [
      HEADER,
      `${a.barcode},52.4,1.86,40,EX-12,A1`,
      `${b.barcode},10,1.7,20,EX-12,B1`, // exactly at the limits: accepted
      `${low.barcode},4.2,1.55,15,EX-12,C1`,
      '',
    ].join('\r\n')).expect(202);

    const dry = await finished(lab1, up.body.jobId);
    expect(dry.status, dry.error ?? '').to.equal('Completed');
    expect(dry.result!.errorCount).to.equal(0);
    expect(dry.result!.acceptance).to.deep.equal(DEFAULT_EXTRACTION_ACCEPTANCE);
    expect(dry.result!.flaggedCount).to.equal(1);
    expect(dry.result!.flagged).to.deep.equal([{
      row: 4, sampleId: low.barcode, sampleStatus: 'In Testing', concentration: 4.2, a260280: 1.55, volume: 15, plate: 'EX-12', well: 'C1',
      reasons: ['Concentration 4.2 ng/µL is below 10 ng/µL', 'A260/280 1.55 is below 1.7 (accepted 1.7–2.1)', 'Volume 15 µL is below 20 µL'],
    }]);
    expect(dry.result!.rows!.map((r) => [r.row, r.barcode, r.test, r.ok])).to.deep.equal([
      [2, a.barcode, 'DNA Extraction', true], [3, b.barcode, 'DNA Extraction', true], [4, low.barcode, 'DNA Extraction', true],
    ]);
    for (const s of [a, b, low]) {
      expect(await extractionsOf(s.id)).to.have.length(0);
      expect(await dnaResultsOf(s.id)).to.have.length(0);
    }
    expect(await statusOf(db, a.id)).to.equal('In Queue');

    const c = await lab1.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(202);
    const commit = await finished(lab1, c.body.jobId);
    expect(commit.status, commit.error ?? '').to.equal('Completed');
    expect(commit.result).to.include({ resultsWritten: 3, samplesMovedToTesting: 2, flaggedCount: 1 });

    // Each extraction is a DNA Extraction result In Review entered by the importer, with its measurements kept.
    const [ra] = await dnaResultsOf(a.id);
    expect([ra.value, ra.status, ra.version, ra.enteredByUserId, ra.importJobId, ra.scale]).to.deep.equal(
      ['52.4 ng/µL; A260/280 1.86; 40 µL; plate EX-12 A1', 'In Review', 1, lab1Id, c.body.jobId, null],
    );
    const [ea] = await extractionsOf(a.id);
    expect([ea.label, ea.testResultId, ea.fileRow, Number(ea.concentrationNgPerUl), Number(ea.a260280), Number(ea.volumeUl), ea.plate, ea.well, ea.flags, ea.outcome])
      .to.deep.equal([a.barcode, ra.id, 2, 52.4, 1.86, 40, 'EX-12', 'A1', [], null]);
    const test = await db.models.Test.findByPk((await db.models.TestResult.findByPk(ra.id))!.testId);
    expect([test!.name, test!.sampleId]).to.deep.equal(['DNA Extraction', a.id]);
    expect((await timeline(db, a.id)).slice(-2)).to.deep.equal(['In Queue', 'In Testing']);
    expect(await statusOf(db, low.id)).to.equal('In Testing');
    const [flaggedExtraction] = await extractionsOf(low.id);
    expect(flaggedExtraction.flags).to.have.length(3);
    const audit = await db.models.AuditEvent.findOne({ where: { action: 'lab_import.committed', entityId: String(up.body.fileId) } });
    expect(audit!.details).to.deep.include({ kind: 'dna-extraction', results: 3, flagged: 1, samplesMovedToTesting: 2 });

    // The import's flagged extractions, as the import page asks for them.
    const flagged = await listed(lab1, `jobId=${c.body.jobId}&flagged=true`);
    expect(flagged.map((e) => [e.label, e.fileRow, e.outcome, e.refusals])).to.deep.equal([
      [low.barcode, 4, null, { 're-extraction': null, 'reject-sample': null }],
    ]);
    expect((await listed(lab1, `jobId=${c.body.jobId}`)).map((e) => e.label)).to.deep.equal([a.barcode, b.barcode, low.barcode]);
    // The review page's barcode filter narrows the flagged ones too (a scan of another sample shows none of them).
    expect((await listed(lab1, `awaitingDecision=true&barcode=${low.barcode}`)).map((e) => e.label)).to.deep.equal([low.barcode]);
    expect(await listed(lab1, `awaitingDecision=true&barcode=${a.barcode}`)).to.deep.equal([]);

    // The review list: nobody may approve the flagged one; lab1 may approve none of its own.
    const review = await lab2.agent.get(`/api/lab-toolbox/get-review-list?jobId=${c.body.jobId}&pageSize=50`).expect(200);
    expect(review.body.map((r: { barcode: string; test: string; approvalGroup: string; canApprove: boolean }) => [r.barcode, r.test, r.approvalGroup, r.canApprove])).to.deep.equal([
      [a.barcode, 'DNA Extraction', 'dna-extraction', true],
      [b.barcode, 'DNA Extraction', 'dna-extraction', true],
      [low.barcode, 'DNA Extraction', 'dna-extraction', false],
    ]);
    const own = await lab1.agent.get(`/api/lab-toolbox/get-review-list?jobId=${c.body.jobId}`).expect(200);
    expect(own.body.map((r: { canApprove: boolean }) => r.canApprove)).to.deep.equal([false, false, false]);

    const [rb] = await dnaResultsOf(b.id);
    const [rLow] = await dnaResultsOf(low.id);
    const self = await lab1.post('/api/lab-toolbox/approve-tests-dna-extraction', { password: DEMO_PASSWORD, resultIds: [ra.id, rb.id] }).expect(403);
    expect(self.body.error.message).to.equal(SELF_APPROVAL_MESSAGE);
    const flaggedRelease = await lab2.post('/api/lab-toolbox/approve-tests-dna-extraction', { password: DEMO_PASSWORD, resultIds: [ra.id, rLow.id] }).expect(409);
    expect(flaggedRelease.body.error.message).to.equal(
      `The DNA extraction of ${low.barcode} is outside the acceptance range (Concentration 4.2 ng/µL is below 10 ng/µL; A260/280 1.55 is below 1.7 (accepted 1.7–2.1); Volume 15 µL is below 20 µL): send it to re-extraction or reject the sample instead`,
    );
    await ra.reload();
    expect(ra.status).to.equal('In Review'); // all or nothing: the good one was not released either
    const wrong = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [ra.id] }).expect(400);
    expect(wrong.body.error.message).to.equal(`Result ${ra.id} is a DNA Extraction result: approve it with approve-tests-dna-extraction`);

    const ok = await lab2.post('/api/lab-toolbox/approve-tests-dna-extraction', { password: DEMO_PASSWORD, resultIds: [ra.id, rb.id] }).expect(200);
    expect(ok.body.approved.map((x: { barcode: string; sampleStatus: string }) => [x.barcode, x.sampleStatus])).to.deep.equal([[a.barcode, 'In Testing'], [b.barcode, 'In Testing']]);
    await ra.reload();
    expect([ra.status, ra.reviewedByUserId]).to.deep.equal(['Released', lab2Id]);
    // A processing step: no report, no notification, the sample waits In Testing for its test results.
    expect(await statusOf(db, a.id)).to.equal('In Testing');
    expect(await db.models.Outbox.count({ where: { idempotencyKey: [`lab-report:${ra.id}`, `notify-result:${ra.id}`] } })).to.equal(0);
    // Nor is it a result of the sample (lab report, result pages), nor a test the clinic ordered.
    expect(await releasedResultsOf(db, a.id)).to.deep.equal([]);
    const physician = await signIn(t.app, 'physician', 'provider');
    const page = await physician.agent.get(`/api/provider-clinic/${a.accountId}/patient/${a.patientId}`).expect(200);
    expect(page.body.samples.map((s: { tests: { name: string }[] }) => s.tests.map((x) => x.name))).to.deep.equal([['PROSTOX ultra']]);
  });

  it('bad rows among good ones: every error with its row number and column, spaces are errors (never trimmed), nothing written, commit refused, errors CSV', async () => {
    const db = t.ctx.db;
    const good = await makeSample(db, { status: SampleStatus.InQueue });
    const other = await makeSample(db, { status: SampleStatus.InQueue });
    const resulted = await makeSample(db, { status: SampleStatus.Resulted });
    const reviewing = await makeSample(db, { status: SampleStatus.InTesting });
    const spaced = await makeSample(db, { status: SampleStatus.InQueue });
    const { dry: earlier } = await importRun(lab1, 'earlier.csv', [`${reviewing.barcode},30,1.8,40,EX-1,A1`]);
    expect(earlier.result!.flaggedCount).to.equal(0);
    const unknown = freshBarcode();
    const rows = [
      `${good.barcode},52.4,1.86,40,EX-13,A1`, // 2: good
      ` ${spaced.barcode},52.4,1.86,40,EX-13,A2`, // 3: space before the id
      `${other.barcode},52.4 ,1.86,40,EX-13,A3`, // 4: space after the concentration
      `${unknown},20,1.8,30,EX-13,A4`, // 5: no such sample
      `${resulted.barcode},20,1.8,30,EX-13,A5`, // 6: wrong status
      `${reviewing.barcode},20,1.8,30,EX-13,A6`, // 7: an extraction already waits for review
      `${good.barcode}.reex,20,1.8,30,EX-13,A7`, // 8: not sent to re-extraction + repeated sample
      `NEG PCR CTRL,20,1.8,30,EX-13,A8`, // 9: a control
      `41000000000,"20,5",abc,,EX-13,I1`, // 10: id, decimal comma, not a number, volume missing, well
      `${other.barcode}X,20,1.8,30,EX-13,A1`, // 11: not a sample id, well A1 repeated
      `${spaced.barcode},20,1.8,30,,A9`, // 12: plate missing
    ];
    const up = await upload(lab1, 'mixed-run.csv', `${HEADER}\n${rows.join('\n')}\n`).expect(202);
    const dry = await finished(lab1, up.body.jobId);
    expect(dry.status, dry.error ?? '').to.equal('Completed');
    const errors = dry.result!.errors!;
    const at = (row: number) => errors.filter((e) => e.row === row).map((e) => `${e.column}: ${e.message}`);
    expect(at(2)).to.deep.equal([]);
    expect(at(3)).to.deep.equal(['sample_id: The sample id must not start or end with a space']);
    expect(at(4)).to.deep.equal(['concentration: The concentration (ng/µL) must not start or end with a space']);
    expect(at(5)).to.deep.equal([`sample_id: No sample has id ${unknown}`]);
    expect(at(6)).to.deep.equal([`sample_id: Sample ${resulted.barcode} is Resulted: an extraction can be imported only for samples In Queue or In Testing`]);
    expect(at(7)).to.deep.equal([`sample_id: ${reviewing.barcode}: sample ${reviewing.barcode} already has a DNA extraction waiting for review`]);
    expect(at(8)).to.deep.equal([
      `sample_id: Sample ${good.barcode} was not sent to re-extraction: its extraction goes by ${good.barcode}`,
      `sample_id: Sample ${good.barcode} is already on row 2`,
    ]);
    expect(at(9)).to.deep.equal(['sample_id: NEG PCR CTRL is a PCR control, not a sample: an extraction file lists samples only']);
    expect(at(10)).to.deep.equal([
      'sample_id: 41000000000 is not a sample id: use 41 or 61 followed by 12 digits, 55 + year and month + 4 to 8 digits, POOL_ + letters or digits, or a sample id + .reex for a re-extraction',
      'concentration: "20,5" is not a number (use a decimal point, not a comma): write the concentration (ng/µL) as digits, like 25.4',
      'a260_280: "abc" is not a number: write the A260/280 as digits, like 1.85',
      'volume: The volume (µL) is required',
      'well: "I1" is not a well: use A1 to H12 (row letter A-H in capitals, column 1-12)',
    ]);
    expect(at(11)[1]).to.equal('well: Well A1 of plate EX-13 is already on row 2');
    expect(at(11)[0]).to.match(/^sample_id: \d+X is not a sample id/);
    expect(at(12)).to.deep.equal(['plate: The plate is required']);
    expect(dry.result!.errorCount).to.equal(errors.length);
    // Nothing is lost: every row is listed, the good one as good.
    expect(dry.result!.rowCount).to.equal(rows.length);
    expect(dry.result!.rows!.map((r) => [r.row, r.ok])).to.deep.equal(rows.map((_, i) => [i + 2, i === 0]));

    const commit = await lab1.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(409);
    expect(commit.body.error.message).to.equal(`The dry run found ${errors.length} errors in this file: correct the file and upload it again`);
    for (const s of [good, other, spaced]) {
      expect(await extractionsOf(s.id)).to.have.length(0);
      expect(await statusOf(db, s.id)).to.equal('In Queue');
    }

    const csv = await lab1.agent.get(`/api/lab-toolbox/jobs/${up.body.jobId}/errors.csv`).expect(200);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).to.equal('row,column,value,message');
    expect(lines).to.have.length(errors.length + 1);
    expect(lines).to.include(`5,sample_id,${unknown},No sample has id ${unknown}`);
    expect(lines).to.include('4,concentration,52.4 ,The concentration (ng/µL) must not start or end with a space');

    // The same file corrected imports every row.
    const fixed = await importRun(lab1, 'mixed-run-fixed.csv', [`${good.barcode},52.4,1.86,40,EX-13,A1`, `${spaced.barcode},52.4,1.86,40,EX-13,A2`, `${other.barcode},52.4,1.86,40,EX-13,A3`]);
    expect(fixed.commit.result).to.include({ resultsWritten: 3, samplesMovedToTesting: 3 });
  });

  it('a file that is not an extraction run fails its dry run with one sentence', async () => {
    const up = await upload(lab1, 'results.csv', 'barcode,risk_level\n41000000000001,High Risk\n').expect(202);
    const job = await finished(lab1, up.body.jobId);
    expect([job.status, job.error]).to.deep.equal([
      'Failed',
      'The columns must be sample_id, concentration, a260_280, volume, plate and well (missing: concentration, a260_280, volume, plate, well; not known: risk_level); this file has: barcode, risk_level',
    ]);
  });

  it('the commit is all or nothing: when one row no longer passes, no row is written', async () => {
    const db = t.ctx.db;
    const samples = [
      await makeSample(db, { status: SampleStatus.InQueue }),
      await makeSample(db, { status: SampleStatus.InQueue }),
      await makeSample(db, { status: SampleStatus.InQueue }),
    ];
    const up = await upload(lab1, 'race.csv', `${HEADER}\n${samples.map((s, i) => `${s.barcode},3${i},1.8,40,EX-20,A${i + 1}`).join('\n')}\n`).expect(202);
    const dry = await finished(lab1, up.body.jobId);
    expect(dry.result!.errorCount).to.equal(0);
    // Between the check and the commit, the last sample is rejected at intake.
    await lab2.post('/api/lab-toolbox/intake/reject', { barcode: samples[2].barcode, reason: 'Rejected - specimen expired' }).expect(200);
    const c = await lab1.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(202);
    const commit = await finished(lab1, c.body.jobId);
    expect(commit.status).to.equal('Failed');
    expect(commit.error).to.equal(
      `Nothing was written: the file no longer passes its checks (1 error; row 4: Sample ${samples[2].barcode} is Rejected: an extraction can be imported only for samples In Queue or In Testing). Upload it again for a new dry run`,
    );
    for (const s of samples) {
      expect(await extractionsOf(s.id)).to.have.length(0);
      expect(await db.models.Test.count({ where: { sampleId: s.id, name: TestName.DnaExtraction } })).to.equal(0);
    }
    expect(await db.models.TestResult.count({ where: { importJobId: c.body.jobId } })).to.equal(0);
    expect(await statusOf(db, samples[0].id)).to.equal('In Queue');
    expect(await statusOf(db, samples[1].id)).to.equal('In Queue');
  });

  /** A sample In Testing with a flagged extraction of its own import. */
  async function flaggedSample(label = 'flagged'): Promise<{ sample: SampleFixture; extraction: ExtractionView; jobId: number }> {
    const sample = await makeSample(t.ctx.db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const { commit } = await importRun(lab1, `${label}.csv`, [`${sample.barcode},3.1,1.9,45,EX-30,D4`]);
    const [extraction] = await listed(lab1, `jobId=${commit.id}&flagged=true`);
    expect(extraction.label).to.equal(sample.barcode);
    return { sample, extraction, jobId: commit.id };
  }

  it('send to re-extraction: the <id>.reex id, the sample stays In Testing with a timeline step, the flagged version is withdrawn; the .reex run imports as a new version', async () => {
    const db = t.ctx.db;
    const { sample, extraction } = await flaggedSample('reex');
    const eventsBefore = await timeline(db, sample.id);

    const res = await lab1.post(`/api/lab-toolbox/dna-extractions/${extraction.id}/decide`, { outcome: 're-extraction' }).expect(200);
    const reex = `${sample.barcode}.reex`;
    expect(res.body.message).to.equal(`${sample.barcode} sent to re-extraction: its new extraction goes by ${reex}; the sample stays In Testing`);
    expect(res.body.extraction).to.deep.include({ outcome: 're-extraction', reextractionId: reex, sampleStatus: 'In Testing' });
    expect(res.body.extraction.decidedBy.id).to.equal(lab1Id);
    expect(res.body.extraction.result.status).to.equal('Rejected');
    expect(await statusOf(db, sample.id)).to.equal('In Testing');
    const events = await db.models.SampleStatusEvent.findAll({ where: { sampleId: sample.id }, order: [['id', 'ASC']] });
    expect(events).to.have.length(eventsBefore.length + 1);
    expect([events.at(-1)!.fromStatus, events.at(-1)!.toStatus, events.at(-1)!.reason, events.at(-1)!.actorUserId]).to.deep.equal(['In Testing', 'In Testing', `Sent to re-extraction as ${reex}`, lab1Id]);
    const [v1] = await dnaResultsOf(sample.id);
    expect([v1.status, v1.reviewNote, v1.reviewedByUserId]).to.deep.equal(['Rejected', `Sent to re-extraction as ${reex}`, null]);
    const audit = await db.models.AuditEvent.findOne({ where: { action: 'dna_extraction.sent_to_reextraction', entityId: String(sample.id) } });
    expect(audit!.details).to.deep.include({ extractionId: extraction.id, reextractionId: reex });
    expect((await listed(lab1, 'awaitingDecision=true&pageSize=200')).some((e) => e.id === extraction.id)).to.equal(false);

    // Decided once: a second decision is refused, and changes nothing.
    const again = await lab2.post(`/api/lab-toolbox/dna-extractions/${extraction.id}/decide`, { outcome: 'reject-sample' }).expect(409);
    expect(again.body.error.message).to.equal(`${sample.barcode} was already sent to re-extraction (${reex})`);
    expect(await statusOf(db, sample.id)).to.equal('In Testing');

    // The next run names the sample <id>.reex; its plain id is refused now.
    const plain = await upload(lab1, 'plain.csv', `${HEADER}\n${sample.barcode},30,1.8,40,EX-31,A1\n`).expect(202);
    expect((await finished(lab1, plain.body.jobId)).result!.errors!.map((e) => e.message)).to.deep.equal([
      `Sample ${sample.barcode} was sent to re-extraction: its new extraction goes by ${reex}`,
    ]);
    const { commit } = await importRun(lab1, 'reex-run.csv', [`${reex},8,2.3,30,EX-31,B2`]);
    expect(commit.result).to.include({ resultsWritten: 1, samplesMovedToTesting: 0, flaggedCount: 1 });
    const versions = await dnaResultsOf(sample.id);
    expect(versions.map((v) => [v.version, v.status])).to.deep.equal([[1, 'Rejected'], [2, 'In Review']]);
    const [second] = await listed(lab1, `jobId=${commit.id}`);
    expect([second.label, second.flags.length]).to.deep.equal([reex, 2]);
    // A sample is re-extracted once: the flagged re-extraction can only be rejected.
    expect(second.refusals['re-extraction']).to.equal(`${reex} is already a re-extraction and a sample is re-extracted once: reject the sample (quantity not sufficient) instead`);
    const twice = await lab1.post(`/api/lab-toolbox/dna-extractions/${second.id}/decide`, { outcome: 're-extraction' }).expect(409);
    expect(twice.body.error.message).to.equal(second.refusals['re-extraction']);
    await lab1.post(`/api/lab-toolbox/dna-extractions/${second.id}/decide`, { outcome: 'reject-sample' }).expect(200);
    expect(await statusOf(db, sample.id)).to.equal('Rejected');
  });

  it("a risk result is not released while its sample's DNA is flagged or waits for re-extraction; the review row says so", async () => {
    const db = t.ctx.db;
    const sample = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const risk = await makeResult(db, sample.testIds[0], 'Intermediate Risk', lab1Id);
    const reviewRow = async () => {
      const list = await lab2.agent.get(`/api/lab-toolbox/get-review-list?group=cancer&barcode=${sample.barcode}`).expect(200);
      return list.body.find((r: { id: number }) => r.id === risk.id);
    };
    const approve = () => lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [risk.id] });
    expect((await reviewRow()).dna).to.deep.equal({ qc: 'none', label: null, text: 'No DNA extraction' });

    // The extraction comes back at 3.1 ng/µL: flagged.
    const { commit } = await importRun(lab1, 'low-dna.csv', [`${sample.barcode},3.1,1.9,45,EX-31,D5`]);
    const [extraction] = await listed(lab1, `jobId=${commit.id}&flagged=true`);
    const flags = 'Concentration 3.1 ng/µL is below 10 ng/µL';
    let row = await reviewRow();
    expect(row.dna).to.deep.equal({ qc: 'flagged', label: sample.barcode, text: `DNA extraction flagged: ${sample.barcode} (${flags})` });
    const flaggedMessage = `The PROSTOX ultra result of sample ${sample.barcode} cannot be released: its DNA extraction ${sample.barcode} is outside the acceptance range (${flags}) and waits for a decision`;
    expect(row).to.include({ canApprove: false, cannotApprove: flaggedMessage });
    expect((await approve().expect(409)).body.error.message).to.equal(flaggedMessage);

    // Lab user 1 sends it to re-extraction: still held, and the row says what it waits for.
    await lab1.post(`/api/lab-toolbox/dna-extractions/${extraction.id}/decide`, { outcome: 're-extraction' }).expect(200);
    row = await reviewRow();
    expect(row.dna).to.deep.include({ qc: 'awaiting-re-extraction', text: `Awaiting re-extraction: ${sample.barcode}` });
    expect(row.canApprove).to.equal(false);
    expect((await approve().expect(409)).body.error.message).to.equal(
      `The PROSTOX ultra result of sample ${sample.barcode} cannot be released: its DNA extraction ${sample.barcode} was sent to re-extraction and the re-extraction has not been imported`,
    );
    expect((await db.models.TestResult.findByPk(risk.id))!.status).to.equal(TestResultStatus.InReview);

    // The re-extraction is within range: the result may be released.
    await importRun(lab1, 'reex-ok.csv', [`${sample.barcode}.reex,31.5,1.85,40,EX-32,A1`]);
    row = await reviewRow();
    expect(row).to.deep.include({ canApprove: true, cannotApprove: null, dna: { qc: 'in-review', label: `${sample.barcode}.reex`, text: `DNA extraction in review: ${sample.barcode}.reex` } });
    await approve().expect(200);
    expect((await db.models.TestResult.findByPk(risk.id))!.status).to.equal(TestResultStatus.Released);
  });

  it("reject: the sample moves to Rejected with the spec's reason through the lifecycle, its results in review are withdrawn", async () => {
    const db = t.ctx.db;
    const { sample, extraction } = await flaggedSample('qns');
    // A result of the ordered test also waits for review: the rejection withdraws it as well.
    const tox = await makeResult(db, sample.testIds[0], 'High Risk', lab2Id);

    const res = await lab2.post(`/api/lab-toolbox/dna-extractions/${extraction.id}/decide`, { outcome: 'reject-sample' }).expect(200);
    expect(res.body.message).to.equal(`Sample ${sample.barcode} rejected: Rejected - quantity not sufficient`);
    expect(res.body.extraction).to.deep.include({ outcome: 'reject-sample', reextractionId: null, sampleStatus: 'Rejected' });
    const row = await db.models.Sample.findByPk(sample.id);
    expect([row!.status, row!.rejectionReason]).to.deep.equal(['Rejected', 'Rejected - quantity not sufficient']);
    const last = await db.models.SampleStatusEvent.findOne({ where: { sampleId: sample.id }, order: [['id', 'DESC']] });
    expect([last!.fromStatus, last!.toStatus, last!.reason, last!.actorUserId]).to.deep.equal(['In Testing', 'Rejected', 'Rejected - quantity not sufficient', lab2Id]);
    const [v1] = await dnaResultsOf(sample.id);
    expect(v1.status).to.equal(TestResultStatus.Rejected);
    await tox.reload();
    expect(tox.status).to.equal(TestResultStatus.Rejected);
    for (const action of ['sample.status_changed', 'dna_extraction.sample_rejected']) {
      expect(await db.models.AuditEvent.count({ where: { action, entityId: String(sample.id) } }), action).to.equal(1);
    }
    const again = await lab1.post(`/api/lab-toolbox/dna-extractions/${extraction.id}/decide`, { outcome: 're-extraction' }).expect(409);
    expect(again.body.error.message).to.equal(`Sample ${sample.barcode} was already rejected (quantity not sufficient)`);
  });

  it('refuses a decision that makes no sense with a 4xx naming why, and changes nothing', async () => {
    const db = t.ctx.db;
    const s = await makeSample(db, { status: SampleStatus.InQueue });
    const { commit } = await importRun(lab1, 'fine.csv', [`${s.barcode},60,1.9,50,EX-40,H12`]);
    const [fine] = await listed(lab1, `jobId=${commit.id}`);
    const inRange = await lab1.post(`/api/lab-toolbox/dna-extractions/${fine.id}/decide`, { outcome: 'reject-sample' }).expect(409);
    expect(inRange.body.error.message).to.equal(`The extraction of ${s.barcode} is within the acceptance range: there is nothing to decide`);
    const bad = await lab1.post(`/api/lab-toolbox/dna-extractions/${fine.id}/decide`, { outcome: 'discard' }).expect(400);
    expect(bad.body.error.fields[0].field).to.equal('outcome');
    const missing = await lab1.post(`/api/lab-toolbox/dna-extractions/${fine.id}/decide`, {}).expect(400);
    expect(missing.body.error.fields[0].field).to.equal('outcome');
    const extra = await lab1.post(`/api/lab-toolbox/dna-extractions/${fine.id}/decide`, { outcome: 'reject-sample', reason: 'x' }).expect(400);
    expect(extra.body.error.fields[0].field).to.equal('reason');
    await lab1.post('/api/lab-toolbox/dna-extractions/999999999/decide', { outcome: 'reject-sample' }).expect(404);
    await lab1.post('/api/lab-toolbox/dna-extractions/abc/decide', { outcome: 'reject-sample' }).expect(404);
    const query = await lab1.agent.get('/api/lab-toolbox/dna-extractions?flagged=maybe').expect(400);
    expect(query.body.error.fields[0].field).to.equal('flagged');
    expect(await statusOf(db, s.id)).to.equal('In Testing');

    // A flagged sample that left In Testing (put in storage) cannot be decided until it is back.
    const { sample, extraction } = await flaggedSample('stored');
    await db.models.Sample.update({ status: SampleStatus.InStorage, statusBeforeStorage: SampleStatus.InTesting }, { where: { id: sample.id } });
    const stored = await lab1.post(`/api/lab-toolbox/dna-extractions/${extraction.id}/decide`, { outcome: 'reject-sample' }).expect(409);
    expect(stored.body.error.message).to.equal(`Sample ${sample.barcode} is In Storage: a flagged extraction is decided while its sample is In Testing`);
    expect(await statusOf(db, sample.id)).to.equal('In Storage');
  });

  it('two decisions at the same moment: one wins, the other gets a 409, never a 500', async () => {
    const { sample, extraction } = await flaggedSample('race');
    const answers = await Promise.all([
      lab1.post(`/api/lab-toolbox/dna-extractions/${extraction.id}/decide`, { outcome: 're-extraction' }),
      lab2.post(`/api/lab-toolbox/dna-extractions/${extraction.id}/decide`, { outcome: 'reject-sample' }),
    ]);
    expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 409]);
    const winner = answers.find((a) => a.status === 200)!.body.extraction as ExtractionView;
    const [e] = await extractionsOf(sample.id);
    expect(e.outcome).to.equal(winner.outcome);
    expect(await statusOf(t.ctx.db, sample.id)).to.equal(winner.outcome === 're-extraction' ? 'In Testing' : 'Rejected');
    const loser = answers.find((a) => a.status === 409)!;
    expect(loser.body.error.message).to.match(/already (sent to re-extraction|rejected)/);
  });

  it('refuses everyone but lab users: anonymous 401, provider and admin 403', async () => {
    const { extraction } = await flaggedSample('access');
    const anonymous = request.agent(t.app);
    const csrf = (await anonymous.get('/api/auth/csrf')).body.csrfToken as string;
    await anonymous.get('/api/lab-toolbox/dna-extractions').expect(401);
    await anonymous.post(`/api/lab-toolbox/dna-extractions/${extraction.id}/decide`).set('x-csrf-token', csrf).send({ outcome: 'reject-sample' }).expect(401);
    await anonymous.post('/api/lab-toolbox/import-files?kind=dna-extraction&filename=a.csv').set('x-csrf-token', csrf).set('Content-Type', 'text/csv').send(Buffer.from(`${HEADER}\n`)).expect(401);
    for (const [who, portal] of [['physician', 'provider'], ['admin', 'admin']] as const) {
      const session = await signIn(t.app, who, portal);
      await session.agent.get('/api/lab-toolbox/dna-extractions').expect(403);
      const res = await session.post(`/api/lab-toolbox/dna-extractions/${extraction.id}/decide`, { outcome: 'reject-sample' }).expect(403);
      expect(res.body.error.code).to.equal('forbidden');
      await session.post('/api/lab-toolbox/approve-tests-dna-extraction', { password: DEMO_PASSWORD, resultIds: [extraction.result.id] }).expect(403);
      await session.agent.post('/api/lab-toolbox/import-files?kind=dna-extraction&filename=a.csv').set('x-csrf-token', session.csrf).set('Content-Type', 'text/csv').send(Buffer.from(`${HEADER}\n`)).expect(403);
    }
    const [after] = await listed(lab1, `jobId=${extraction.importJobId}`);
    expect([after.outcome, after.sampleStatus]).to.deep.equal([null, 'In Testing']);
  });
});
