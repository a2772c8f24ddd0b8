/**
 * What a sample's released results are, for everything that shows them (the lab report PDF, the
 * patient's result page): the Released version of each test, whether it is a correction, and the
 * value it replaced. A correction is a version with a correction reason, or a later version that
 * superseded a released one.
 */
import { Op, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import { PROCESSING_STEP_TESTS, resultInterpretationText, resultValueText, TestResultStatus } from '@platform/domain';

type TestRow = InstanceType<Db['models']['Test']>;
type ResultRow = InstanceType<Db['models']['TestResult']>;

export interface ReleasedResult {
  test: TestRow;
  result: ResultRow;
  /** The value in words: the COVID result text for a COVID test, otherwise the value itself. */
  valueText: string;
  interpretation: string | null;
  corrected: boolean;
  /** The released version this one replaced (status Superseded), when there is one. */
  replaced: ResultRow | null;
}

/** Whether a version is a correction: it names a correction reason, or it replaced a released version (`replaced` not null). */
export function isCorrection(correctionReason: string | null, replaced: unknown): boolean {
  return Boolean(correctionReason?.trim()) || (replaced !== null && replaced !== undefined);
}

/** Describes one result version: its words, and whether (and what) it corrects. */
export async function describeResult(db: Db, test: TestRow, result: ResultRow, transaction?: Transaction): Promise<ReleasedResult> {
  const replaced = result.version > 1
    ? await db.models.TestResult.findOne({
        where: { testId: test.id, version: { [Op.lt]: result.version }, status: TestResultStatus.Superseded },
        order: [['version', 'DESC']],
        transaction,
      })
    : null;
  return {
    test,
    result,
    valueText: resultValueText(test.name, result.value),
    interpretation: resultInterpretationText(test.name, result.value),
    corrected: isCorrection(result.correctionReason, replaced),
    replaced,
  };
}

/** The Released result of every test of a sample (tests without one are left out), in test order. */
export async function releasedResultsOf(db: Db, sampleId: number, transaction?: Transaction): Promise<ReleasedResult[]> {
  // A processing step (DNA Extraction) is released but reports nothing: it is not a result to show.
  const tests = (await db.models.Test.findAll({ where: { sampleId }, order: [['id', 'ASC']], transaction }))
    .filter((t) => !PROCESSING_STEP_TESTS.includes(t.name));
  if (!tests.length) return [];
  const released = await db.models.TestResult.findAll({
    where: { testId: { [Op.in]: tests.map((t) => t.id) }, status: TestResultStatus.Released },
    transaction,
  });
  const out: ReleasedResult[] = [];
  for (const test of tests) {
    const result = released.find((r) => r.testId === test.id);
    if (result) out.push(await describeResult(db, test, result, transaction));
  }
  return out;
}
