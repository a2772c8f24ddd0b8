/**
 * The lab's test lines (SPEC §9 "Support mailboxes exist per test line"): the families of tests a
 * clinic asks the lab about, each with its own support mailbox per account. A test belongs to the
 * line of its parent test type; the research panels share one line, the COVID-19 tests another;
 * the lab's processing steps (DNA extraction, IMUDX) belong to none (questions go to the lab).
 */
import { valuesOf } from '../shared/values';
import { TEST_CATALOGUE } from './catalogue';
import { ParentTestType, TestName } from './tests';

export const TestLine = {
  Prostox: 'PROSTOX',
  Previotox: 'PREVIOTOX',
  Kras: 'KRAS',
  ResearchPanels: 'Research panels',
  Covid: 'COVID-19',
} as const;
export type TestLine = (typeof TestLine)[keyof typeof TestLine];
export const TEST_LINES = valuesOf(TestLine);

const LINE_OF_PARENT: Readonly<Record<ParentTestType, TestLine>> = {
  [ParentTestType.Prostox]: TestLine.Prostox,
  [ParentTestType.Previotox]: TestLine.Previotox,
  [ParentTestType.Kras]: TestLine.Kras,
  [ParentTestType.HeadAndNeck]: TestLine.ResearchPanels,
  [ParentTestType.Sarcoma]: TestLine.ResearchPanels,
  [ParentTestType.RectalCancer]: TestLine.ResearchPanels,
  [ParentTestType.BreastTox]: TestLine.ResearchPanels,
};
const COVID_TESTS: readonly string[] = [TestName.CovidPcr, TestName.CovidRapid, TestName.SarsCov2Lineage];

/** The test line of a test (by name), or null for a step that belongs to no line or a name the catalogue does not know. */
export function testLineOf(testName: string): TestLine | null {
  if (COVID_TESTS.includes(testName)) return TestLine.Covid;
  const parent = (TEST_CATALOGUE as Record<string, { parentType: ParentTestType | null } | undefined>)[testName]?.parentType;
  return parent ? LINE_OF_PARENT[parent] : null;
}
