/**
 * The dna-extraction kind of the lab-import processor on its own: how an extraction file is read
 * (headers with units, cells exactly as written, workbooks), the acceptance range taken from the
 * configuration, and a 10,000-row run checked and committed in one transaction, once.
 */
import { randomInt } from 'node:crypto';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { pino } from 'pino';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { storeFile } from '@platform/server';
import { SampleStatus, TestResultStatus, UPLOAD_FILE_KIND, type ExtractionCommitResult, type ExtractionDryRunResult } from '@platform/domain';
import { labImport } from '@platform/worker/processors/lab-import';
import { readExtractionSheet } from '@platform/server';
import type { WorkerDeps } from '@platform/worker/processors/types';
import { testConfig } from '../support/server';
import { makeSample, userId } from '../support/fixtures/lab';

describe('worker: lab-import of DNA extraction runs', function () {
  this.timeout(120_000);
  let ctx: AppContext;
  let lab1: number;

  before(async () => {
    ctx = await createContext(testConfig(), 'test');
    lab1 = await userId(ctx.db, 'lab1');
  });
  after(() => closeContext(ctx));

  const depsWith = (overrides: Record<string, string> = {}) =>
    ({ db: ctx.db, config: testConfig(overrides), logger: pino({ level: 'silent' }), relay: ctx.relay, mailer: null }) as unknown as WorkerDeps;

  async function run(content: Buffer | string, name: string, mode: 'dry-run' | 'commit', deps = depsWith(), fileId?: number) {
    const db = ctx.db;
    const id = fileId ?? (await db.sequelize.transaction((transaction) =>
      storeFile(db, transaction, { kind: UPLOAD_FILE_KIND, name, contentType: 'text/csv', content: Buffer.from(content), uploadedByUserId: lab1 }))).id;
    const payload = { fileId: id, kind: 'dna-extraction' as const, mode, userId: lab1 };
    const job = await db.models.Job.create({ name: 'lab-import', payload: payload as object, createdByUserId: lab1 });
    const progress: number[] = [];
    const started = process.hrtime.bigint();
    const result = await labImport(payload, deps, { jobRowId: job.id, attempt: 1, progress: async (p) => void progress.push(p) });
    return { result: result as Record<string, unknown>, fileId: id, jobId: job.id, progress, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  }

  describe('reading a file', () => {
    it('takes the headers with their units and in any order, and keeps every cell exactly as written', async () => {
      const csv = '\nWell;Plate;Volume (uL);A260/280;Concentration (ng/µL);Sample ID\r\nA1;EX 1; 40;1.85;52.4;41000000000001\r\n\r\nB1;EX 1;40;1.85 ;52.4;41000000000002.reex\r\n';
      const sheet = await readExtractionSheet(Buffer.from(csv), 'run.csv');
      expect(sheet.rows).to.deep.equal([
        { row: 3, cells: { sample_id: '41000000000001', concentration: '52.4', a260_280: '1.85', volume: ' 40', plate: 'EX 1', well: 'A1' } },
        { row: 5, cells: { sample_id: '41000000000002.reex', concentration: '52.4', a260_280: '1.85 ', volume: '40', plate: 'EX 1', well: 'B1' } },
      ]);
    });

    it('reads a workbook: numbers as the instrument wrote them', async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Run 7');
      sheet.addRow(['sample_id', 'concentration', 'a260_280', 'volume', 'plate', 'well']);
      sheet.addRow([61000000000001, 52.4, 1.85, 40, 'EX-7', 'H12']);
      const read = await readExtractionSheet(Buffer.from(await workbook.xlsx.writeBuffer()), 'run.xlsx');
      expect(read.format).to.equal('xlsx');
      expect(read.rows[0].cells).to.deep.equal({ sample_id: '61000000000001', concentration: '52.4', a260_280: '1.85', volume: '40', plate: 'EX-7', well: 'H12' });
    });

    it('refuses a repeated, unknown or missing column in one sentence', async () => {
      const read = (csv: string) => readExtractionSheet(Buffer.from(csv), 'x.csv').then(() => 'read', (e: Error) => `${e.name}: ${e.message}`);
      expect(await read('sample_id,barcode,concentration,a260_280,volume,plate,well\n1,2,3,4,5,6,7\n')).to.equal(
        'Invalid: The column sample_id appears twice. The columns must be sample_id, concentration, a260_280, volume, plate and well; this file has: sample_id, barcode, concentration, a260_280, volume, plate, well',
      );
      expect(await read('sample_id,concentration,a260_280,volume,plate,well,notes\n1,2,3,4,5,6,7\n')).to.match(/\(not known: notes\); this file has:/);
      expect(await read('sample_id,concentration,volume,plate,well\n1,2,3,4,5\n')).to.match(/\(missing: a260_280\); this file has:/);
      expect(await read('sample_id,concentration,a260_280,volume,plate,well\n')).to.equal('Invalid: The file has a header but no data rows');
    });
  });

  it('flags by the acceptance range of the configuration', async () => {
    const s = await makeSample(ctx.db, { status: SampleStatus.InQueue });
    const csv = `sample_id,concentration,a260_280,volume,plate,well\n${s.barcode},30,1.8,40,EX-8,A1\n`;
    const byDefault = (await run(csv, 'default.csv', 'dry-run')).result as unknown as ExtractionDryRunResult;
    expect(byDefault.flaggedCount).to.equal(0);
    const strict = (await run(csv, 'strict.csv', 'dry-run', depsWith({ EXTRACTION_MIN_CONCENTRATION: '50', EXTRACTION_MAX_A260_280: '1.75' }))).result as unknown as ExtractionDryRunResult;
    expect(strict.acceptance).to.deep.equal({ minConcentration: 50, minA260280: 1.7, maxA260280: 1.75, minVolume: 20 });
    expect(strict.flagged.map((f) => f.reasons)).to.deep.equal([[
      'Concentration 30 ng/µL is below 50 ng/µL',
      'A260/280 1.8 is above 1.75 (accepted 1.7–1.75)',
    ]]);
    expect(() => testConfig({ EXTRACTION_MIN_A260_280: '2.2' })).to.throw('Invalid configuration: EXTRACTION_MIN_A260_280 / EXTRACTION_MAX_A260_280: the lowest A260/280 (2.2) must be below the highest (2.1)');
    expect(() => testConfig({ EXTRACTION_MIN_VOLUME: 'lots' })).to.throw(/EXTRACTION_MIN_VOLUME/);
  });

  describe('10,000 rows', () => {
    const N = 10_000;
    const prefix = `151${String(randomInt(0, 10_000)).padStart(4, '0')}`;
    let barcodes: string[];

    before(async () => {
      const db = ctx.db;
      const account = await db.models.Account.findOne({ where: { name: 'Riverside Oncology' } });
      // 151… is a kit barcode but not a sample id: these samples go by 61 + the same digits.
      await db.sequelize.query(`
        WITH p AS (
          INSERT INTO patients (account_id, first_name, last_name, date_of_birth)
          SELECT :account, 'Bulk', 'Extraction' || g, DATE '1950-01-01' + g % 9000 FROM generate_series(1, :n) g RETURNING id
        ), o AS (
          INSERT INTO orders (order_number, account_id, patient_id, origin, portal)
          SELECT 'RPD' || :prefixDigits || lpad(row_number() OVER ()::text, 6, '0'), :account, p.id, 'Provider Ordered', 'Clinical Portal' FROM p RETURNING id, patient_id
        ), s AS (
          INSERT INTO samples (barcode, sample_type, status, account_id, patient_id, order_id, received_at)
          SELECT '61' || :prefixDigits || '9' || lpad(row_number() OVER (ORDER BY o.id)::text, 7, '0'), 'Buccal Swab', 'In Queue', :account, o.patient_id, o.id, now() FROM o RETURNING id, order_id
        )
        INSERT INTO tests (order_id, sample_id, name, parent_type) SELECT s.order_id, s.id, 'PROSTOX ultra', 'PROSTOX' FROM s`,
      { replacements: { account: account!.id, n: N, prefixDigits: prefix.slice(3, 7) } });
      barcodes = Array.from({ length: N }, (_, i) => `61${prefix.slice(3, 7)}9${String(i + 1).padStart(7, '0')}`);
    });

    it('a dry run and a commit of 10,000 rows each finish in seconds; every row is written in one go, and once', async () => {
      const db = ctx.db;
      const rows = barcodes.map((b, i) => `${b},${i % 100 === 0 ? '4.5' : '35.2'},1.84,40,EXT-${Math.floor(i / 96)},${'ABCDEFGH'[i % 8]}${Math.floor((i % 96) / 8) + 1}`);
      const csv = `sample_id,concentration,a260_280,volume,plate,well\n${rows.join('\n')}\n`;
      const dry = await run(csv, 'ten-thousand.csv', 'dry-run');
      const dryResult = dry.result as unknown as ExtractionDryRunResult;
      expect([dryResult.rowCount, dryResult.errorCount, dryResult.flaggedCount, dryResult.rows.length]).to.deep.equal([N, 0, N / 100, 200]);

      const commit = await run(csv, 'ten-thousand.csv', 'commit', depsWith(), dry.fileId);
      const commitResult = commit.result as unknown as ExtractionCommitResult;
      expect(commitResult).to.include({ resultsWritten: N, samplesMovedToTesting: N, flaggedCount: N / 100 });
      expect(commit.progress).to.deep.equal([...commit.progress].sort((a, b) => a - b));
      expect(await db.models.TestResult.count({ where: { importJobId: commit.jobId, status: TestResultStatus.InReview } })).to.equal(N);
      expect(await db.models.DnaExtraction.count({ where: { importJobId: commit.jobId } })).to.equal(N);
      expect(await db.models.Sample.count({ where: { barcode: barcodes, status: SampleStatus.InTesting } })).to.equal(N);
      const [[linked]] = await db.sequelize.query(
        `SELECT count(*)::int AS n FROM dna_extractions e JOIN test_results r ON r.id = e.test_result_id JOIN tests t ON t.id = r.test_id
          WHERE e.import_job_id = :job AND t.sample_id = e.sample_id AND t.name = 'DNA Extraction' AND r.version = 1`,
        { replacements: { job: commit.jobId } },
      ) as [{ n: number }[], unknown];
      expect(linked.n).to.equal(N);

      // Run again (a retried job): nothing is written twice.
      const again = await labImport({ fileId: dry.fileId, kind: 'dna-extraction', mode: 'commit', userId: lab1 }, depsWith(), { jobRowId: commit.jobId, attempt: 2, progress: async () => undefined });
      expect(again).to.include({ alreadyCommitted: true, resultsWritten: N, flaggedCount: N / 100 });
      expect(await db.models.DnaExtraction.count({ where: { importJobId: commit.jobId } })).to.equal(N);

      console.log(`      10,000-row extraction dry run ${(dry.ms / 1000).toFixed(2)} s, commit ${(commit.ms / 1000).toFixed(2)} s`);
      expect(dry.ms).to.be.below(20_000);
      expect(commit.ms).to.be.below(30_000);
    });
  });
});
