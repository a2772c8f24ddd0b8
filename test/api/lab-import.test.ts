/**
 * Result-file imports end to end, on the real API and a real worker: upload → dry run (a job
 * with progress and a result) → commit (all or nothing) → review → approval by another lab user.
 * Bad files get one clear refusal; bad rows get their row number and column; nothing is written
 * unless every row is good.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { Op } from 'sequelize';
import { describeBarcodeProblem, IMPORT_MAX_BYTES, SELF_APPROVAL_MESSAGE } from '@platform/domain';
import type { RunningWorker } from '@platform/worker';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { freshBarcode, makeResult, makeSample, SampleStatus, statusOf, TestName, TestResultStatus, timeline, userId } from '../support/fixtures/lab';
import { until } from '../support/wait';

interface JobView {
  id: number;
  status: string;
  progress: number;
  error: string | null;
  result: { rowCount?: number; errorCount?: number; errors?: { row: number | null; column: string; value: string; message: string }[]; rows?: { row: number; barcode: string; value: string; test: string | null; ok: boolean }[]; resultsWritten?: number; samplesMovedToTesting?: number } | null;
}

describe('lab toolbox: result-file imports', function () {
  this.timeout(120_000);
  let t: TestApp;
  let worker: RunningWorker;
  let lab1: Session;
  let lab2: Session;

  before(async () => {
    t = await buildTestApp();
    worker = await startTestWorker();
    lab1 = await signIn(t.app, 'lab1', 'lab');
    lab2 = await signIn(t.app, 'lab2', 'lab');
  });
  after(async () => {
    await worker?.close();
    await t?.close();
  });

  const upload = (s: Session, kind: string, filename: string, content: Buffer | string, contentType = 'text/csv') =>
    s.agent
      .post(`/api/lab-toolbox/import-files?kind=${kind}&filename=${encodeURIComponent(filename)}`)
      .set('x-csrf-token', s.csrf)
      .set('Content-Type', contentType)
      .send(Buffer.isBuffer(content) ? content : Buffer.from(content));

  async function finished(s: Session, jobId: number): Promise<JobView> {
    return until(async () => {
      const res = await s.agent.get(`/api/lab-toolbox/jobs/${jobId}`).expect(200);
      return res.body.status === 'Pending' ? null : (res.body as JobView);
    }, { what: `job ${jobId} finished`, timeoutMs: 30_000 });
  }

  async function resultsOf(testIds: number[]) {
    return t.ctx.db.models.TestResult.findAll({ where: { testId: testIds }, order: [['id', 'ASC']] });
  }

  it('a good CSV: dry run writes nothing and shows every row; commit writes every row In Review and moves the samples to In Testing', async () => {
    const db = t.ctx.db;
    const a = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const b = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxCfrt] });
    const c = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.Previotox] });
    const d = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.Imudx] });
    const testIds = [a, b, c, d].flatMap((s) => s.testIds);
    // Headers in any case and spacing; values on either risk scale, case forgiven (shown canonical).
    const csv = `Barcode , Risk Level\r\n${a.barcode},High Risk\r\n${b.barcode},low risk\r\n\r\n${c.barcode},Very High Risk\r\n${d.barcode},Low Risk\r\n`;
    const up = await upload(lab1, 'cancer-toxicity', 'plate-7.csv', csv).expect(202);
    expect(up.body).to.have.keys(['jobId', 'fileId']);

    const dry = await finished(lab1, up.body.jobId);
    expect(dry.status).to.equal('Completed');
    expect(dry.progress).to.equal(100);
    expect(dry.result!.rowCount).to.equal(4);
    expect(dry.result!.errors).to.deep.equal([]);
    expect(dry.result!.rows!.map((r) => [r.row, r.barcode, r.value, r.test, r.ok])).to.deep.equal([
      [2, a.barcode, 'High Risk', 'PROSTOX ultra', true],
      [3, b.barcode, 'Low Risk', 'PROSTOX CFRT', true],
      [5, c.barcode, 'Very High Risk', 'PREVIOTOX', true],
      [6, d.barcode, 'Low Risk', 'IMUDX', true],
    ]);
    expect(await resultsOf(testIds)).to.have.length(0);
    expect(await statusOf(db, a.id)).to.equal('In Queue');

    const commit = await lab1.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(202);
    const job = await finished(lab1, commit.body.jobId);
    expect(job.status, job.error ?? '').to.equal('Completed');
    expect(job.result).to.include({ resultsWritten: 4, samplesMovedToTesting: 3 });

    const lab1Id = await userId(db, 'lab1');
    const written = await resultsOf(testIds);
    expect(written.map((r) => [r.value, r.status, r.version, r.enteredByUserId, r.importJobId])).to.deep.equal([
      ['High Risk', 'In Review', 1, lab1Id, commit.body.jobId],
      ['Low Risk', 'In Review', 1, lab1Id, commit.body.jobId],
      ['Very High Risk', 'In Review', 1, lab1Id, commit.body.jobId],
      ['Low Risk', 'In Review', 1, lab1Id, commit.body.jobId],
    ]);
    for (const s of [a, b, c, d]) expect(await statusOf(db, s.id)).to.equal('In Testing');
    expect((await timeline(db, a.id)).slice(-2)).to.deep.equal(['In Queue', 'In Testing']);
    expect((await timeline(db, c.id)).filter((x) => x === 'In Testing')).to.have.length(1); // already In Testing: not moved again
    const audit = await db.models.AuditEvent.findOne({ where: { action: 'lab_import.committed', entityId: String(up.body.fileId) } });
    expect(audit!.details).to.deep.include({ results: 4, samplesMovedToTesting: 3 });

    // A second commit of the same file is refused.
    const again = await lab1.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(409);
    expect(again.body.error.message).to.equal(`This file was already committed (job ${commit.body.jobId})`);

    // The review list shows the import with who entered it; import-tests-review sums it up.
    const review = await lab2.agent.get(`/api/lab-toolbox/get-review-list?jobId=${commit.body.jobId}&pageSize=50`).expect(200);
    expect(review.headers['x-total-count']).to.equal('4');
    expect(review.body[0]).to.deep.include({ barcode: a.barcode, value: 'High Risk', test: 'PROSTOX ultra', approvalGroup: 'cancer', canApprove: true });
    expect(review.body[0].enteredBy.name).to.equal('Leo Bench');
    expect(review.body[0].importFile.name).to.equal('plate-7.csv');
    const own = await lab1.agent.get(`/api/lab-toolbox/get-review-list?jobId=${commit.body.jobId}`).expect(200);
    expect(own.body.every((r: { canApprove: boolean }) => r.canApprove === false)).to.equal(true);
    const summary = await lab2.agent.get(`/api/lab-toolbox/import-tests-review?jobId=${commit.body.jobId}`).expect(200);
    expect(summary.body).to.deep.include({ kind: 'cancer-toxicity', mode: 'commit', total: 4 });
    expect(summary.body.results['In Review']).to.equal(4);

    // The importer cannot approve; another lab user can: Resulted, lab report and notifications queued.
    const resultA = written[0];
    const resultB = written[1];
    const self = await lab1.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [resultA.id] }).expect(403);
    expect(self.body.error.message).to.equal(SELF_APPROVAL_MESSAGE);
    await resultA.reload();
    expect(resultA.status).to.equal('In Review');
    const wrongGroup = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [resultB.id] }).expect(400);
    expect(wrongGroup.body.error.message).to.equal(`Result ${resultB.id} is a PROSTOX CFRT result: approve it with approve-tests-cfrt-toxicity`);

    const ok = await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [resultA.id] }).expect(200);
    expect(ok.body.approved).to.deep.equal([{ resultId: resultA.id, barcode: a.barcode, test: 'PROSTOX ultra', value: 'High Risk', correction: false, sampleStatus: 'Resulted' }]);
    await resultA.reload();
    expect([resultA.status, resultA.reviewedByUserId]).to.deep.equal(['Released', await userId(db, 'lab2')]);
    expect(await statusOf(db, a.id)).to.equal('Resulted');
    const outbox = await db.models.Outbox.findAll({ where: { idempotencyKey: [`lab-report:${resultA.id}`, `notify-result:${resultA.id}`] }, order: [['jobName', 'ASC']] });
    expect(outbox.map((o) => [o.jobName, (o.payload as { payload: unknown }).payload])).to.deep.equal([
      ['notify-result', { testResultId: resultA.id }],
      ['render-pdf', { sampleId: a.id, documentType: 'lab_report', testResultId: resultA.id }],
    ]);
    await lab2.post('/api/lab-toolbox/approve-tests-cfrt-toxicity', { password: DEMO_PASSWORD, resultIds: [resultB.id] }).expect(200);
    expect(await statusOf(db, b.id)).to.equal('Resulted');
  });

  it('a good XLSX of KRAS genotypes (numeric barcode cells, a title-less first sheet) dry-runs and commits', async () => {
    const db = t.ctx.db;
    const samples = [
      await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.Kras] }),
      await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.Kras] }),
      await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.Kras] }),
    ];
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('KRAS run');
    sheet.addRow(['BARCODE', 'Genotype']);
    sheet.addRow([Number(samples[0].barcode), 'T/T negative']);
    sheet.addRow([samples[1].barcode, 'T/G positive heterozygous']);
    sheet.addRow([{ richText: [{ text: samples[2].barcode.slice(0, 6) }, { text: samples[2].barcode.slice(6) }] }, 'G/G positive homozygous']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const up = await upload(lab1, 'kras', 'kras run.xlsx', xlsx, 'application/octet-stream').expect(202);
    const dry = await finished(lab1, up.body.jobId);
    expect(dry.status, dry.error ?? '').to.equal('Completed');
    expect(dry.result!.errors).to.deep.equal([]);
    expect(dry.result!.rows!.map((r) => [r.row, r.barcode, r.value])).to.deep.equal([
      [2, samples[0].barcode, 'T/T negative'],
      [3, samples[1].barcode, 'T/G positive heterozygous'],
      [4, samples[2].barcode, 'G/G positive homozygous'],
    ]);
    const file = await db.models.StoredFile.findByPk(up.body.fileId);
    expect(file!.contentType).to.equal('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const commit = await lab1.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(202);
    const job = await finished(lab1, commit.body.jobId);
    expect(job.status, job.error ?? '').to.equal('Completed');
    const written = await resultsOf(samples.flatMap((s) => s.testIds));
    expect(written.map((r) => [r.value, r.scale, r.status])).to.deep.equal([
      ['T/T negative', 'kras', 'In Review'],
      ['T/G positive heterozygous', 'kras', 'In Review'],
      ['G/G positive homozygous', 'kras', 'In Review'],
    ]);
    for (const s of samples) expect(await statusOf(db, s.id)).to.equal('In Testing');
  });

  it('bad rows among good ones: every error with its row and column, nothing written, commit refused, errors as CSV', async () => {
    const db = t.ctx.db;
    const good = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const resulted = await makeSample(db, { status: SampleStatus.Resulted, tests: [TestName.ProstoxUltra] });
    const kras = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.Kras] });
    const reviewing = await makeSample(db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxCfrt] });
    await makeResult(db, reviewing.testIds[0], 'High Risk', await userId(db, 'lab2'));
    const unknown = freshBarcode();
    const rows = [
      `${good.barcode},High Risk`, // 2: good
      '4100000000001,High Risk', // 3: pattern
      `${unknown},Low Risk`, // 4: unknown
      `${resulted.barcode},Low Risk`, // 5: wrong status
      `${good.barcode},T/T negative`, // 6: not a risk level + repeated barcode
      `${kras.barcode},High Risk`, // 7: a KRAS sample takes no risk level
      `${reviewing.barcode},Intermediate Risk`, // 8: a result already waits for review
      `${good.barcode},`, // 9: value missing + repeated
      '=HYPERLINK("x"),Low Risk', // 10: pattern (and a formula, neutralised in the CSV)
    ];
    const up = await upload(lab1, 'cancer-toxicity', 'mixed.csv', `barcode,risk_level\n${rows.join('\n')}\n`).expect(202);
    const dry = await finished(lab1, up.body.jobId);
    expect(dry.status).to.equal('Completed');
    const errors = dry.result!.errors!;
    const at = (row: number) => errors.filter((e) => e.row === row).map((e) => `${e.column}: ${e.message}`);
    expect(at(2)).to.deep.equal([]);
    expect(at(3)).to.deep.equal(['barcode: Barcode must be 14 digits long (this one has 13). Barcode must be 41 or 61 followed by 12 digits, or 151 followed by 11 digits']);
    expect(at(4)).to.deep.equal([`barcode: No sample has barcode ${unknown}`]);
    expect(at(5)).to.deep.equal([`barcode: Sample ${resulted.barcode} is Resulted: results can be imported only for samples In Queue or In Testing`]);
    expect(at(6)).to.deep.equal([
      'risk_level: "T/T negative" is not a risk level; use one of: Low-Average Risk, Intermediate Risk, High Risk, Very High Risk, Low Risk',
      `barcode: Barcode ${good.barcode} is already on row 2`,
    ]);
    expect(at(7)).to.deep.equal([`barcode: Sample ${kras.barcode} has no test that takes a risk level (its tests: KRAS)`]);
    expect(at(8)).to.deep.equal([`barcode: Sample ${reviewing.barcode} already has a PROSTOX CFRT result waiting for review`]);
    expect(at(9)).to.deep.equal(['risk_level: The risk_level is required', `barcode: Barcode ${good.barcode} is already on row 2`]);
    expect(at(10)).to.have.length(1);
    expect(dry.result!.errorCount).to.equal(errors.length);
    expect(dry.result!.rows!.map((r) => r.ok)).to.deep.equal([true, false, false, false, false, false, false, false, false]);

    const commit = await lab1.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(409);
    expect(commit.body.error.message).to.equal(`The dry run found ${errors.length} errors in this file: correct the file and upload it again`);
    expect(await resultsOf(good.testIds)).to.have.length(0);
    expect(await statusOf(db, good.id)).to.equal('In Queue');
    expect(await db.models.Job.count({ where: { name: 'lab-import', payload: { fileId: up.body.fileId, mode: 'commit' } } as never })).to.equal(0);

    const csv = await lab1.agent.get(`/api/lab-toolbox/jobs/${up.body.jobId}/errors.csv`).expect(200);
    expect(csv.headers['content-type']).to.match(/^text\/csv/);
    expect(csv.headers['content-disposition']).to.equal(`attachment; filename="import-${up.body.jobId}-errors.csv"`);
    const lines = csv.text.trimEnd().split('\r\n');
    expect(lines[0]).to.equal('row,column,value,message');
    expect(lines).to.have.length(errors.length + 1);
    expect(lines).to.include(`4,barcode,${unknown},No sample has barcode ${unknown}`);
    expect(lines).to.include('6,risk_level,T/T negative,"""T/T negative"" is not a risk level; use one of: Low-Average Risk, Intermediate Risk, High Risk, Very High Risk, Low Risk"');
    expect(lines.find((l) => l.startsWith('10,'))).to.match(/^10,barcode,"'=HYPERLINK\(""x""\)",/);
  });

  it('spaces around a barcode, a value or a test are a row error naming the column, never accepted trimmed (as intake refuses them)', async () => {
    const db = t.ctx.db;
    const a = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const b = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const c = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const d = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const e = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const rows = [
      ` ${a.barcode},High Risk,`, // 2: space before the barcode
      `${b.barcode} ,High Risk,`, // 3: space after the barcode
      `${c.barcode}, Low Risk,`, // 4: space before the value
      `${d.barcode},High Risk,PROSTOX ultra `, // 5: space after the test
      `${e.barcode},   ,`, // 6: a value of only spaces
    ];
    const up = await upload(lab1, 'cancer-toxicity', 'spaced.csv', `barcode,risk_level,test\n${rows.join('\n')}\n`).expect(202);
    const dry = await finished(lab1, up.body.jobId);
    expect(dry.status, dry.error ?? '').to.equal('Completed');
    const errors = dry.result!.errors!;
    expect(errors.map((x) => [x.row, x.column, x.value, x.message])).to.deep.equal([
      [2, 'barcode', ` ${a.barcode}`, 'Barcode must not start or end with a space. Barcode must be 41 or 61 followed by 12 digits, or 151 followed by 11 digits'],
      [3, 'barcode', `${b.barcode} `, 'Barcode must not start or end with a space. Barcode must be 41 or 61 followed by 12 digits, or 151 followed by 11 digits'],
      [4, 'risk_level', ' Low Risk', 'The risk_level must not start or end with a space'],
      [5, 'test', 'PROSTOX ultra ', 'The test must not start or end with a space'],
      [6, 'risk_level', '   ', 'The risk_level is required (only spaces were entered)'],
    ]);
    expect(dry.result!.rows!.map((r) => r.ok)).to.deep.equal([false, false, false, false, false]);
    // Intake refuses the same barcode with the same sentence (the one rule, describeBarcodeProblem).
    expect(describeBarcodeProblem(` ${a.barcode}`)).to.equal(errors[0].message);
    await lab1.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(409);
    expect(await resultsOf([a, b, c, d, e].flatMap((s) => s.testIds))).to.have.length(0);
  });

  it('refuses bad files with one clear message and writes nothing: wrong columns, empty, header only, 10,001 rows, binary junk, damaged workbook, too large', async () => {
    const db = t.ctx.db;
    const s = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });

    const wrong = await upload(lab1, 'cancer-toxicity', 'kras-file.csv', `barcode,genotype\n${s.barcode},T/T negative\n`).expect(202);
    const wrongJob = await finished(lab1, wrong.body.jobId);
    expect(wrongJob.status).to.equal('Failed');
    expect((await db.models.Job.findByPk(wrong.body.jobId))!.attempts, 'a file refused as a whole is not retried').to.equal(1);
    expect(wrongJob.error).to.equal('The columns must be barcode and risk_level (and optionally test); this file has: barcode, genotype (genotype is the column of a KRAS genotype file: use that import tool)');
    const errorsCsv = await lab1.agent.get(`/api/lab-toolbox/jobs/${wrong.body.jobId}/errors.csv`).expect(200);
    expect(errorsCsv.text).to.contain('The columns must be barcode and risk_level');
    const refused = await lab1.post(`/api/lab-toolbox/import-files/${wrong.body.fileId}/commit`).expect(409);
    expect(refused.body.error.message).to.match(/^The dry run of this file failed: The columns must be/);

    const empty = await upload(lab1, 'cancer-toxicity', 'empty.csv', Buffer.alloc(0)).expect(400);
    expect(empty.body.error.message).to.equal('The file is empty');
    expect(await db.models.StoredFile.count({ where: { name: 'empty.csv' } })).to.equal(0);

    const blank = await upload(lab1, 'cancer-toxicity', 'blank.csv', '\n\n  \n').expect(202);
    expect((await finished(lab1, blank.body.jobId)).error).to.equal('The file is empty');
    const headerOnly = await upload(lab1, 'cancer-toxicity', 'header.csv', 'barcode,risk_level\n').expect(202);
    expect((await finished(lab1, headerOnly.body.jobId)).error).to.equal('The file has a header but no data rows');

    const many = ['barcode,risk_level', ...Array.from({ length: 10_001 }, (_, i) => `61${String(i).padStart(12, '0')},High Risk`)].join('\n');
    const big = await upload(lab1, 'cancer-toxicity', 'many.csv', many).expect(202);
    const bigJob = await finished(lab1, big.body.jobId);
    expect([bigJob.status, bigJob.error]).to.deep.equal(['Failed', 'The file has 10,001 rows; the limit is 10,000']);

    const junk = Buffer.from([0x00, 0xff, 0x13, 0x37, 0x00, 0x42, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]);
    const junkRes = await upload(lab1, 'cancer-toxicity', 'results.csv', junk, 'application/octet-stream').expect(400);
    expect(junkRes.body.error.message).to.equal('The file is neither a CSV file nor an Excel workbook (.xlsx)');
    const latin1 = await upload(lab1, 'cancer-toxicity', 'results.csv', Buffer.from([0x62, 0x61, 0xe9, 0x0a])).expect(400);
    expect(latin1.body.error.message).to.equal('The file is neither a CSV file nor an Excel workbook (.xlsx) (CSV files must be UTF-8 text)');
    const fakeXlsx = await upload(lab1, 'kras', 'results.xlsx', Buffer.from('barcode,genotype\n')).expect(400);
    expect(fakeXlsx.body.error.message).to.equal('The file is named .xlsx but is not an Excel workbook');

    const damaged = await upload(lab1, 'kras', 'damaged.xlsx', Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)])).expect(202);
    const damagedJob = await finished(lab1, damaged.body.jobId);
    expect([damagedJob.status, damagedJob.error]).to.deep.equal(['Failed', 'The Excel workbook cannot be read: it may be damaged, password-protected or not a workbook']);

    const tooLarge = await upload(lab1, 'kras', 'huge.csv', Buffer.alloc(IMPORT_MAX_BYTES + 1, 0x41)).expect(413);
    expect(tooLarge.body.error).to.deep.include({ code: 'body_too_large', message: 'The request body is too large (the limit is 10 MB)' });

    const query = await upload(lab1, 'toxicity', 'a.csv', 'barcode,risk_level\n').expect(400);
    expect(query.body.error.fields[0].field).to.equal('kind');

    expect(await resultsOf(s.testIds)).to.have.length(0);
    expect(await statusOf(db, s.id)).to.equal('In Queue');
  });

  it('only the uploader commits; a file is committed once; unknown ids are 404', async () => {
    const db = t.ctx.db;
    const s = await makeSample(db, { status: SampleStatus.InQueue, tests: [TestName.ProstoxUltra] });
    const up = await upload(lab1, 'cancer-toxicity', 'one.csv', `barcode,risk_level\n${s.barcode},Intermediate Risk\n`).expect(202);
    await finished(lab1, up.body.jobId);
    const other = await lab2.post(`/api/lab-toolbox/import-files/${up.body.fileId}/commit`).expect(403);
    expect(other.body.error.message).to.equal('Only the person who uploaded this file can commit it (the results are entered in their name)');
    await lab1.post('/api/lab-toolbox/import-files/999999999/commit').expect(404);
    await lab1.agent.get('/api/lab-toolbox/jobs/999999999').expect(404);
    await lab1.agent.get('/api/lab-toolbox/jobs/abc').expect(404);
    // A job that is not an import is not shown here.
    const email = await db.models.Job.findOne({ where: { name: { [Op.ne]: 'lab-import' } } });
    if (email) await lab1.agent.get(`/api/lab-toolbox/jobs/${email.id}`).expect(404);
    expect(await statusOf(db, s.id)).to.equal('In Queue');
    expect(await resultsOf(s.testIds)).to.have.length(0);
    void TestResultStatus;
  });
});
