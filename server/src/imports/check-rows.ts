/**
 * Every row of an import is checked before anything is written: the barcode (pattern, sample
 * exists, sample In Queue or In Testing, a sample In Storage by the status it goes back to), the value (in the kind's enumeration, and a result of
 * the sample's test), the test (the sample has exactly one that takes the value, or the test
 * column names it), the test has no result waiting for review or released, and no row repeats
 * another. The samples, their tests and open results are read in one query (the barcodes as one
 * array parameter); the rows are then checked in memory, each error naming its row and column.
 */
import { QueryTypes, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import {
  canonicalImportValue,
  describeBarcodeProblem,
  describeSampleStatus,
  describeSpacingProblem,
  importKindFitsTest,
  importKindValues,
  isTestName,
  isValidResultValue,
  SampleStatus,
  TestResultStatus,
  workStatusOf,
  type ImportError,
  type ImportPreviewRow,
  type ResultImportKind,
  type TestName,
} from '@platform/domain';
import type { ImportSheet } from './result-sheet';

/** The statuses a sample may be in for an imported result (a sample In Storage: the status it goes back to). */
export const IMPORTABLE_STATUSES: readonly string[] = [SampleStatus.InQueue, SampleStatus.InTesting];

const KIND_NOUN: Record<ResultImportKind, string> = { 'cancer-toxicity': 'risk level', kras: 'KRAS genotype' };

/** A row that passed every check: what the commit writes. */
export interface GoodRow {
  row: number;
  sampleId: number;
  sampleStatus: string;
  statusBeforeStorage: string | null;
  testId: number;
  test: TestName;
  value: string;
}

export interface RowCheck {
  preview: ImportPreviewRow[];
  good: GoodRow[];
  errors: ImportError[];
}

/** A sample named by the file, as the check needs it: its status and its tests. */
interface SampleRow {
  id: number;
  barcode: string;
  status: SampleStatus;
  statusBeforeStorage: SampleStatus | null;
}

interface TestRow {
  id: number;
  sampleId: number;
  name: string;
}

/** What one query answers per (sample, test): the test's open result (In Review or Released), if any. */
interface TargetRow {
  sample_id: number;
  barcode: string;
  status: SampleStatus;
  status_before_storage: SampleStatus | null;
  test_id: number | null;
  test_name: string | null;
  open_status: string | null;
}

/**
 * The samples of the well-formed barcodes with their tests and each test's open result, in ONE
 * query (the barcodes as one array parameter). With `lock` the samples are read FOR UPDATE in
 * the caller's transaction. A test with a result waiting for review and a released one counts as
 * waiting for review. The barcodes are joined to the samples (one index probe each): as
 * `barcode = ANY($1)` over 10,000 of them PostgreSQL scanned every sample of the database instead.
 */
async function readTargets(db: Db, barcodes: string[], options: { transaction?: Transaction; lock?: boolean }) {
  const rows = barcodes.length
    ? await db.sequelize.query<TargetRow>(
        `SELECT s.id AS sample_id, s.barcode, s.status, s.status_before_storage, t.id AS test_id, t.name AS test_name, r.open_status
           FROM unnest($1::text[]) AS named (barcode)
           JOIN samples s ON s.barcode = named.barcode
           LEFT JOIN tests t ON t.sample_id = s.id
           LEFT JOIN LATERAL (
             SELECT CASE WHEN bool_or(tr.status = $2) THEN $2 ELSE max(tr.status) END AS open_status
               FROM test_results tr WHERE tr.test_id = t.id AND tr.status IN ($2, $3)
           ) r ON true
          ORDER BY s.id, t.id${options.lock && options.transaction ? '\n          FOR UPDATE OF s' : ''}`,
        { bind: [barcodes, TestResultStatus.InReview, TestResultStatus.Released], type: QueryTypes.SELECT, transaction: options.transaction },
      )
    : [];
  const sampleByBarcode = new Map<string, SampleRow>();
  const testsBySample = new Map<number, TestRow[]>();
  const openByTest = new Map<number, string>();
  for (const r of rows) {
    if (!sampleByBarcode.has(r.barcode)) {
      sampleByBarcode.set(r.barcode, { id: r.sample_id, barcode: r.barcode, status: r.status, statusBeforeStorage: r.status_before_storage });
      testsBySample.set(r.sample_id, []);
    }
    if (r.test_id === null) continue;
    testsBySample.get(r.sample_id)!.push({ id: r.test_id, sampleId: r.sample_id, name: r.test_name! });
    if (r.open_status) openByTest.set(r.test_id, r.open_status);
  }
  return { sampleByBarcode, testsBySample, openByTest };
}

/**
 * Checks every row. With `lock` (the commit) the samples are read FOR UPDATE inside the caller's
 * transaction, so nothing changes between the check and the write.
 */
export async function checkRows(
  db: Db,
  kind: ResultImportKind,
  sheet: ImportSheet,
  options: { transaction?: Transaction; lock?: boolean; previewRows?: number } = {},
): Promise<RowCheck> {
  const { columns } = sheet;
  const errors: ImportError[] = [];
  const fail = (row: number, column: string, value: string, message: string) => errors.push({ row, column, value, message });

  const wellFormed = [...new Set(sheet.rows.filter((r) => r.barcode && !describeBarcodeProblem(r.barcode)).map((r) => r.barcode))];
  const { sampleByBarcode, testsBySample, openByTest } = await readTargets(db, wellFormed, options);

  const allowed = importKindValues(kind).join(', ');
  // A file repeats a handful of values and test names: each is looked up in the catalogue once.
  const canonical = memo((typed: string) => canonicalImportValue(kind, typed));
  const takesKind = memo((name: string) => isTestName(name) && importKindFitsTest(kind, name));
  const takesValue = memo((name: string) => memo((value: string) => isValidResultValue(name as TestName, value)));
  const firstRowOfTest = new Map<number, number>();
  const firstRowOfUnknown = new Map<string, number>();
  const preview: ImportPreviewRow[] = [];
  const good: GoodRow[] = [];
  const previewRows = options.previewRows ?? 0;

  for (const r of sheet.rows) {
    const errorsBefore = errors.length;
    // No cell is trimmed: spaces around the value or the test are a row error naming the column
    // (the barcode's are refused by describeBarcodeProblem, with the same rule).
    const valueProblem = describeSpacingProblem(r.value, `The ${columns.value}`);
    const value = valueProblem ? null : canonical(r.value);
    const testProblem = r.test === '' ? null : describeSpacingProblem(r.test, `The ${columns.test ?? 'test'}`);
    let testName: string | null = null;
    let sample: SampleRow | undefined;

    if (valueProblem) fail(r.row, columns.value, r.value, valueProblem);
    else if (!value) fail(r.row, columns.value, r.value, `"${r.value}" is not a ${KIND_NOUN[kind]}; use one of: ${allowed}`);
    if (testProblem) fail(r.row, columns.test!, r.test, testProblem);

    const barcodeProblem = describeBarcodeProblem(r.barcode);
    if (barcodeProblem) {
      fail(r.row, columns.barcode, r.barcode, barcodeProblem);
    } else if (!(sample = sampleByBarcode.get(r.barcode))) {
      fail(r.row, columns.barcode, r.barcode, `No sample has barcode ${r.barcode}`);
    } else {
      const sampleTests = testsBySample.get(sample.id) ?? [];
      const list = () => sampleTests.map((t) => t.name).join(', ') || 'none';
      let test: TestRow | undefined;
      if (testProblem) {
        // Already refused above: which test the row means is not guessed.
      } else if (r.test) {
        test = sampleTests.find((t) => t.name.toLowerCase() === r.test.toLowerCase());
        if (!test) fail(r.row, columns.test!, r.test, `Sample ${r.barcode} has no ${r.test} test (its tests: ${list()})`);
        else if (!takesKind(test.name)) {
          fail(r.row, columns.test!, r.test, `The ${test.name} test does not take a ${KIND_NOUN[kind]}`);
          test = undefined;
        }
      } else {
        const fitting = sampleTests.filter((t) => takesKind(t.name));
        if (fitting.length === 0) fail(r.row, columns.barcode, r.barcode, `Sample ${r.barcode} has no test that takes a ${KIND_NOUN[kind]} (its tests: ${list()})`);
        else if (fitting.length > 1) {
          fail(r.row, columns.barcode, r.barcode, `Sample ${r.barcode} has several tests that take a ${KIND_NOUN[kind]} (${fitting.map((t) => t.name).join(', ')}): add a "test" column naming the test`);
        } else test = fitting[0];
      }
      if (!IMPORTABLE_STATUSES.includes(workStatusOf(sample))) {
        fail(r.row, columns.barcode, r.barcode, `Sample ${r.barcode} is ${describeSampleStatus(sample)}: results can be imported only for samples In Queue or In Testing`);
      }
      if (test) {
        testName = test.name;
        if (value && !takesValue(test.name)(value)) {
          fail(r.row, columns.value, r.value, `"${value}" is not a result of ${test.name}`);
        }
        const state = openByTest.get(test.id);
        if (state === TestResultStatus.InReview) fail(r.row, columns.barcode, r.barcode, `Sample ${r.barcode} already has a ${test.name} result waiting for review`);
        if (state === TestResultStatus.Released) fail(r.row, columns.barcode, r.barcode, `Sample ${r.barcode} already has a released ${test.name} result: send a correction instead`);
        const first = firstRowOfTest.get(test.id);
        if (first !== undefined) fail(r.row, columns.barcode, r.barcode, `Barcode ${r.barcode} is already on row ${first}`);
        else firstRowOfTest.set(test.id, r.row);
        if (errors.length === errorsBefore && value) {
          good.push({ row: r.row, sampleId: sample.id, sampleStatus: sample.status, statusBeforeStorage: sample.statusBeforeStorage, testId: test.id, test: test.name as TestName, value });
        }
      }
    }
    if (!sample && r.barcode && !barcodeProblem) {
      // An unknown barcode twice is still a repeated row.
      const first = firstRowOfUnknown.get(r.barcode);
      if (first !== undefined) fail(r.row, columns.barcode, r.barcode, `Barcode ${r.barcode} is already on row ${first}`);
      else firstRowOfUnknown.set(r.barcode, r.row);
    }
    if (preview.length < previewRows) {
      preview.push({ row: r.row, barcode: r.barcode, value: value ?? r.value, test: testName, sampleStatus: sample?.status ?? null, ok: errors.length === errorsBefore });
    }
  }
  return { preview, good, errors };
}

/** A function of one string, computed once per distinct argument. */
function memo<T>(compute: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    if (!known.has(key)) known.set(key, compute(key));
    return known.get(key)!;
  };
}
