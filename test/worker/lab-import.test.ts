/**
 * The lab-import processor on its own: how files are read (row numbers as a spreadsheet shows
 * them, delimiters, workbooks, headers), and a 10,000-row file checked and committed in seconds
 * with every row written in one transaction.
 */
import { randomInt } from 'node:crypto';
import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { pino } from 'pino';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { Invalid, storeFile } from '@platform/server';
import { IMPORT_MAX_ROWS, SampleStatus, TestResultStatus, UPLOAD_FILE_KIND, type ImportCommitResult, type ImportDryRunResult } from '@platform/domain';
import { labImport } from '@platform/worker/processors/lab-import';
import { readImportSheet } from '@platform/server';
import type { WorkerDeps } from '@platform/worker/processors/types';
import { testConfig } from '../support/server';
import { userId } from '../support/fixtures/lab';

describe('worker: lab-import', function () {
  this.timeout(120_000);
  let ctx: AppContext;

  before(async () => {
    ctx = await createContext(testConfig(), 'test');
  });
  after(() => closeContext(ctx));

  describe('reading a file', () => {
    it('numbers rows as a spreadsheet does: blank lines and a blank first line count, blank rows are skipped; cells are kept exactly as written', async () => {
      const csv = '\nbarcode,risk_level\n41000000000001,High Risk\n\n41000000000002, Low Risk \n';
      const sheet = await readImportSheet(Buffer.from(csv), 'a.csv', 'cancer-toxicity');
      expect(sheet.format).to.equal('csv');
      expect(sheet.rows).to.deep.equal([
        { row: 3, barcode: '41000000000001', value: 'High Risk', test: '' },
        { row: 5, barcode: '41000000000002', value: ' Low Risk ', test: '' },
      ]);
    });

    it('reads semicolon and tab separated files, a byte-order mark, quoted fields and an optional test column', async () => {
      const semi = await readImportSheet(Buffer.from('\uFEFFBarcode;Genotype;Test\r\n"41000000000001";"T/G positive heterozygous";KRAS\r\n'), 'k.csv', 'kras');
      expect(semi.rows).to.deep.equal([{ row: 2, barcode: '41000000000001', value: 'T/G positive heterozygous', test: 'KRAS' }]);
      expect(semi.columns).to.deep.equal({ barcode: 'barcode', value: 'genotype', test: 'test' });
      const tab = await readImportSheet(Buffer.from('barcode\trisk level\n41000000000001\tHigh Risk\n'), 't.txt', 'cancer-toxicity');
      expect(tab.rows[0].value).to.equal('High Risk');
    });

    it('reads a file without quotes exactly as the same file with every cell quoted: mixed line endings, blank lines, spaces, an empty last cell', async () => {
      const lines = [['barcode', 'risk_level', 'test'], [], ['41000000000001', ' High Risk', 'PROSTOX ultra '], [' '], ['41000000000002', 'Low Risk', ''], ['41000000000003', 'High  Risk']];
      const endings = ['\r\n', '\n', '\r', '\n', '\r\n', ''];
      const file = (quote: (cell: string) => string) => lines.map((cells, i) => cells.map(quote).join(',') + endings[i]).join('');
      const plain = await readImportSheet(Buffer.from(file((c) => c)), 'p.csv', 'cancer-toxicity');
      const quoted = await readImportSheet(Buffer.from(file((c) => `"${c}"`)), 'q.csv', 'cancer-toxicity');
      expect(plain.rows).to.deep.equal(quoted.rows);
      expect(plain.rows.map((r) => r.row)).to.deep.equal([3, 5, 6]);
      expect(plain.rows[0]).to.deep.equal({ row: 3, barcode: '41000000000001', value: ' High Risk', test: 'PROSTOX ultra ' });
    });

    it('refuses duplicate, unknown or missing columns in one sentence', async () => {
      const read = (csv: string) => readImportSheet(Buffer.from(csv), 'x.csv', 'cancer-toxicity').then(() => 'read', (e: Error) => e.message);
      expect(await read('barcode,barcode,risk_level\n1,2,3\n')).to.match(/^The column barcode appears twice\./);
      expect(await read('barcode,risk_level,notes\n41000000000001,High Risk,x\n')).to.equal(
        'The columns must be barcode and risk_level (and optionally test); this file has: barcode, risk_level, notes',
      );
      expect(await read('sample,risk_level\n41000000000001,High Risk\n')).to.match(/this file has: sample, risk_level$/);
    });

    it('reads the first sheet of a workbook: numbers, formulas, rich text, and the real row numbers around empty rows', async () => {
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Plate 3');
      workbook.addWorksheet('Notes').addRow(['ignored']);
      sheet.getRow(1).values = ['barcode', 'risk_level'];
      sheet.getRow(2).values = [41000000000001, { formula: 'UPPER("high risk")', result: 'HIGH RISK' }];
      sheet.getRow(4).values = [{ richText: [{ text: '4100000' }, { text: '0000002' }] }, 'Low-Average Risk'];
      const rows = (await readImportSheet(Buffer.from(await workbook.xlsx.writeBuffer()), 'plate.xlsx', 'cancer-toxicity')).rows;
      expect(rows).to.deep.equal([
        { row: 2, barcode: '41000000000001', value: 'HIGH RISK', test: '' },
        { row: 4, barcode: '41000000000002', value: 'Low-Average Risk', test: '' },
      ]);
    });

    it(`refuses more than ${IMPORT_MAX_ROWS.toLocaleString('en-US')} data rows, and accepts exactly that many`, async () => {
      const file = (n: number) => Buffer.from(['barcode,genotype', ...Array.from({ length: n }, (_, i) => `41${String(i).padStart(12, '0')},T/T negative`)].join('\n'));
      const over = await readImportSheet(file(IMPORT_MAX_ROWS + 1), 'a.csv', 'kras').then(() => null, (e: Error) => e);
      expect(over?.message).to.equal('The file has 10,001 rows; the limit is 10,000');
      // A refusal of the file as a whole (run-job fails the job at once with its message), naming the file.
      expect(over).to.be.instanceOf(Invalid);
      expect((over as Invalid).fields).to.deep.equal([{ field: 'file', message: 'The file has 10,001 rows; the limit is 10,000' }]);
      expect((await readImportSheet(file(IMPORT_MAX_ROWS), 'a.csv', 'kras')).rows).to.have.length(IMPORT_MAX_ROWS);
    });
  });

  describe('10,000 rows', () => {
    const N = 10_000;
    const prefix = `151${String(randomInt(0, 10_000)).padStart(4, '0')}`; // 151 + 4 + 7 digits
    let barcodes: string[];

    before(async () => {
      const db = ctx.db;
      const account = await db.models.Account.findOne({ where: { name: 'Riverside Oncology' } });
      await db.sequelize.query(`
        WITH p AS (
          INSERT INTO patients (account_id, first_name, last_name, date_of_birth)
          SELECT :account, 'Bulk', 'Import' || g, DATE '1950-01-01' + g % 9000 FROM generate_series(1, :n) g RETURNING id
        ), o AS (
          INSERT INTO orders (order_number, account_id, patient_id, origin, portal)
          SELECT 'RPD' || :prefixDigits || lpad(row_number() OVER ()::text, 6, '0'), :account, p.id, 'Provider Ordered', 'Clinical Portal' FROM p RETURNING id, patient_id
        ), s AS (
          INSERT INTO samples (barcode, sample_type, status, account_id, patient_id, order_id, received_at)
          SELECT :prefix || lpad(row_number() OVER (ORDER BY o.id)::text, 7, '0'), 'Buccal Swab', 'In Queue', :account, o.patient_id, o.id, now() FROM o RETURNING id, order_id
        )
        INSERT INTO tests (order_id, sample_id, name, parent_type) SELECT s.order_id, s.id, 'PROSTOX ultra', 'PROSTOX' FROM s`,
      { replacements: { account: account!.id, n: N, prefix, prefixDigits: prefix.slice(3, 7) } });
      barcodes = Array.from({ length: N }, (_, i) => `${prefix}${String(i + 1).padStart(7, '0')}`);
    });

    it('a dry run and a commit of 10,000 rows each finish in seconds; the commit writes every row in one go', async () => {
      const db = ctx.db;
      const lab1 = await userId(db, 'lab1');
      const levels = ['Low-Average Risk', 'Intermediate Risk', 'High Risk', 'Very High Risk'];
      const csv = `barcode,risk_level\n${barcodes.map((b, i) => `${b},${levels[i % 4]}`).join('\n')}\n`;
      const file = await db.sequelize.transaction((transaction) =>
        storeFile(db, transaction, { kind: UPLOAD_FILE_KIND, name: 'ten-thousand.csv', contentType: 'text/csv', content: Buffer.from(csv), uploadedByUserId: lab1 }));
      const deps = { db, config: ctx.config, logger: pino({ level: 'silent' }), relay: ctx.relay, mailer: null } as unknown as WorkerDeps;
      const run = async (mode: 'dry-run' | 'commit') => {
        const job = await db.models.Job.create({ name: 'lab-import', payload: { fileId: file.id, kind: 'cancer-toxicity', mode, userId: lab1 } as object, createdByUserId: lab1 });
        const progress: number[] = [];
        const started = process.hrtime.bigint();
        const result = await labImport({ fileId: file.id, kind: 'cancer-toxicity', mode, userId: lab1 }, deps, {
          jobRowId: job.id, attempt: 1, progress: async (p) => void progress.push(p),
        });
        return { result, ms: Number(process.hrtime.bigint() - started) / 1e6, progress, jobId: job.id };
      };

      const dry = await run('dry-run');
      const dryResult = dry.result as unknown as ImportDryRunResult;
      expect(dryResult.rowCount).to.equal(N);
      expect(dryResult.errorCount).to.equal(0);
      expect(dryResult.rows).to.have.length(200);
      expect(await db.models.TestResult.count({ where: { importJobId: dry.jobId } })).to.equal(0);

      const commit = await run('commit');
      const commitResult = commit.result as unknown as ImportCommitResult;
      expect(commitResult).to.include({ resultsWritten: N, samplesMovedToTesting: N });
      expect(commit.progress.length).to.be.greaterThan(3);
      expect(commit.progress).to.deep.equal([...commit.progress].sort((a, b) => a - b));
      expect(await db.models.TestResult.count({ where: { importJobId: commit.jobId, status: TestResultStatus.InReview } })).to.equal(N);
      expect(await db.models.Sample.count({ where: { barcode: barcodes, status: SampleStatus.InTesting } })).to.equal(N);
      const [events] = await db.sequelize.query(`SELECT count(*)::int AS n FROM sample_status_events e JOIN samples s ON s.id = e.sample_id WHERE s.barcode LIKE :p AND e.to_status = 'In Testing'`, { replacements: { p: `${prefix}%` } });
      expect((events as { n: number }[])[0].n).to.equal(N);

      // Run again (a retried job): nothing is written twice.
      const again = await labImport({ fileId: file.id, kind: 'cancer-toxicity', mode: 'commit', userId: lab1 }, deps, { jobRowId: commit.jobId, attempt: 2, progress: async () => undefined });
      expect(again).to.include({ alreadyCommitted: true, resultsWritten: N });
      expect(await db.models.TestResult.count({ where: { importJobId: commit.jobId } })).to.equal(N);

      console.log(`      10,000-row dry run ${(dry.ms / 1000).toFixed(2)} s, commit ${(commit.ms / 1000).toFixed(2)} s`);
      expect(dry.ms).to.be.below(20_000);
      expect(commit.ms).to.be.below(30_000);
    });
  });
});
