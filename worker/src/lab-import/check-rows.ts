/**
 * Every row of an import is checked before anything is written: the barcode (pattern, sample
 * exists, sample In Queue or In Testing), the value (in the kind's enumeration, and a result of
 * the sample's test), the test (the sample has exactly one that takes the value, or the test
 * column names it), the test has no result waiting for review or released, and no row repeats
 * another. The samples, tests and results are read with a few batched queries (WHERE … IN).
 */
import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import {
  canonicalImportValue,
  describeBarcodeProblem,
  describeSpacingProblem,
  importKindFitsTest,
  importKindValues,
  isTestName,
  isValidResultValue,
  SampleStatus,
  TestResultStatus,
  type ImportError,
  type ImportPreviewRow,
  type ResultImportKind,
  type TestName,
} from '@platform/domain';
import type { ImportSheet } from './read-sheet';

/** The statuses a sample may be in for an imported result. */
export const IMPORTABLE_STATUSES: readonly string[] = [SampleStatus.InQueue, SampleStatus.InTesting];

const KIND_NOUN: Record<ResultImportKind, string> = { 'cancer-toxicity': 'risk level', kras: 'KRAS genotype' };

/** A row that passed every check: what the commit writes. */
export interface GoodRow {
  row: number;
  sampleId: number;
  sampleStatus: string;
  testId: number;
  test: TestName;
  value: string;
}

export interface RowCheck {
  preview: ImportPreviewRow[];
  good: GoodRow[];
  errors: ImportError[];
}

type SampleRow = InstanceType<Db['models']['Sample']>;

/**
 * Checks every row. With `lock` (the commit) the samples and their results are read FOR UPDATE
 * inside the caller's transaction, so nothing changes between the check and the write.
 */
export async function checkRows(
  db: Db,
  kind: ResultImportKind,
  sheet: ImportSheet,
  options: { transaction?: Transaction; lock?: boolean; previewRows?: number } = {},
): Promise<RowCheck> {
  const { transaction } = options;
  const m = db.models;
  const { columns } = sheet;
  const errors: ImportError[] = [];
  const fail = (row: number, column: string, value: string, message: string) => errors.push({ row, column, value, message });

  const wellFormed = [...new Set(sheet.rows.filter((r) => r.barcode && !describeBarcodeProblem(r.barcode)).map((r) => r.barcode))];
  const samples: SampleRow[] = wellFormed.length
    ? await m.Sample.findAll({
        where: { barcode: wellFormed },
        attributes: ['id', 'barcode', 'status'],
        order: [['id', 'ASC']],
        transaction,
        ...(options.lock && transaction ? { lock: transaction.LOCK.UPDATE } : {}),
      })
    : [];
  const sampleByBarcode = new Map(samples.map((s) => [s.barcode, s]));
  const tests = samples.length
    ? await m.Test.findAll({ where: { sampleId: samples.map((s) => s.id) }, attributes: ['id', 'sampleId', 'name'], order: [['id', 'ASC']], transaction })
    : [];
  const testsBySample = new Map<number, typeof tests>();
  for (const t of tests) testsBySample.set(t.sampleId, [...(testsBySample.get(t.sampleId) ?? []), t]);
  const open = tests.length
    ? await m.TestResult.findAll({
        where: { testId: tests.map((t) => t.id), status: [TestResultStatus.InReview, TestResultStatus.Released] },
        attributes: ['testId', 'status'],
        transaction,
      })
    : [];
  const openByTest = new Map(open.map((r) => [r.testId, r.status]));

  const allowed = importKindValues(kind).join(', ');
  const firstRowOf = new Map<string, number>();
  const preview: ImportPreviewRow[] = [];
  const good: GoodRow[] = [];
  const previewRows = options.previewRows ?? 0;

  for (const r of sheet.rows) {
    const errorsBefore = errors.length;
    // No cell is trimmed: spaces around the value or the test are a row error naming the column
    // (the barcode's are refused by describeBarcodeProblem, with the same rule).
    const valueProblem = describeSpacingProblem(r.value, `The ${columns.value}`);
    const value = valueProblem ? null : canonicalImportValue(kind, r.value);
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
      const list = sampleTests.map((t) => t.name).join(', ') || 'none';
      let test: (typeof tests)[number] | undefined;
      if (testProblem) {
        // Already refused above: which test the row means is not guessed.
      } else if (r.test) {
        test = sampleTests.find((t) => t.name.toLowerCase() === r.test.toLowerCase());
        if (!test) fail(r.row, columns.test!, r.test, `Sample ${r.barcode} has no ${r.test} test (its tests: ${list})`);
        else if (!isTestName(test.name) || !importKindFitsTest(kind, test.name)) {
          fail(r.row, columns.test!, r.test, `The ${test.name} test does not take a ${KIND_NOUN[kind]}`);
          test = undefined;
        }
      } else {
        const fitting = sampleTests.filter((t) => isTestName(t.name) && importKindFitsTest(kind, t.name));
        if (fitting.length === 0) fail(r.row, columns.barcode, r.barcode, `Sample ${r.barcode} has no test that takes a ${KIND_NOUN[kind]} (its tests: ${list})`);
        else if (fitting.length > 1) {
          fail(r.row, columns.barcode, r.barcode, `Sample ${r.barcode} has several tests that take a ${KIND_NOUN[kind]} (${fitting.map((t) => t.name).join(', ')}): add a "test" column naming the test`);
        } else test = fitting[0];
      }
      if (!IMPORTABLE_STATUSES.includes(sample.status)) {
        fail(r.row, columns.barcode, r.barcode, `Sample ${r.barcode} is ${sample.status}: results can be imported only for samples In Queue or In Testing`);
      }
      if (test) {
        testName = test.name;
        if (value && !isValidResultValue(test.name as TestName, value)) {
          fail(r.row, columns.value, r.value, `"${value}" is not a result of ${test.name}`);
        }
        const state = openByTest.get(test.id);
        if (state === TestResultStatus.InReview) fail(r.row, columns.barcode, r.barcode, `Sample ${r.barcode} already has a ${test.name} result waiting for review`);
        if (state === TestResultStatus.Released) fail(r.row, columns.barcode, r.barcode, `Sample ${r.barcode} already has a released ${test.name} result: send a correction instead`);
        const key = `${sample.id}:${test.id}`;
        const first = firstRowOf.get(key);
        if (first !== undefined) fail(r.row, columns.barcode, r.barcode, `Barcode ${r.barcode} is already on row ${first}`);
        else firstRowOf.set(key, r.row);
        if (errors.length === errorsBefore && value) {
          good.push({ row: r.row, sampleId: sample.id, sampleStatus: sample.status, testId: test.id, test: test.name as TestName, value });
        }
      }
    }
    if (!sample && r.barcode && !barcodeProblem) {
      // An unknown barcode twice is still a repeated row.
      const key = `unknown:${r.barcode}`;
      const first = firstRowOf.get(key);
      if (first !== undefined) fail(r.row, columns.barcode, r.barcode, `Barcode ${r.barcode} is already on row ${first}`);
      else firstRowOf.set(key, r.row);
    }
    if (preview.length < previewRows) {
      preview.push({ row: r.row, barcode: r.barcode, value: value ?? r.value, test: testName, sampleStatus: sample?.status ?? null, ok: errors.length === errorsBefore });
    }
  }
  return { preview, good, errors };
}
