/**
 * Review and approval of results in the Lab Toolbox: which tests each approval covers, the limits of
 * a review, and what becomes of a sample whose result is rejected. Plain values (no joi).
 */
import { catalogueEntry } from '../catalogue/catalogue';
import { TestName } from '../catalogue/tests';
import { MAX_PAGE_SIZE } from '../shared/constants';

/** The approval endpoints (approve-tests-<group>) and the tests each one releases. */
export const APPROVAL_GROUPS = ['cancer', 'cfrt-toxicity', 'covid-pcr', 'dna-extraction'] as const;
export type ApprovalGroup = (typeof APPROVAL_GROUPS)[number];
export const APPROVAL_GROUP_TESTS: Readonly<Record<ApprovalGroup, readonly TestName[]>> = {
  cancer: [
    TestName.ProstoxUltra, TestName.ProstoxResearch, TestName.Previotox, TestName.Kras, TestName.HeadAndNeck,
    TestName.Sarcoma, TestName.RectalCancer, TestName.BreastTox, TestName.Imudx,
  ],
  'cfrt-toxicity': [TestName.ProstoxCfrt],
  'covid-pcr': [TestName.CovidPcr, TestName.CovidRapid],
  'dna-extraction': [TestName.DnaExtraction],
};
export const APPROVAL_GROUP_LABELS: Record<ApprovalGroup, string> = {
  cancer: 'Cancer (toxicity risk and KRAS)',
  'cfrt-toxicity': 'CFRT toxicity',
  'covid-pcr': 'COVID-19 (PCR and Rapid)',
  'dna-extraction': 'DNA extraction',
};

/** The approval a test's results go through, or null for a test the toolbox does not release. */
export function approvalGroupOf(test: TestName): ApprovalGroup | null {
  return APPROVAL_GROUPS.find((g) => APPROVAL_GROUP_TESTS[g].includes(test)) ?? null;
}

/** Tests whose approval reports a result (lab report, notifications); DNA extraction is a processing step. */
export function approvalReportsResult(test: TestName): boolean {
  return catalogueEntry(test).scale !== null;
}

/** The tests of get-cancer-toxicity-results: the cancer and CFRT toxicity approvals. */
export const CANCER_TOXICITY_TESTS: readonly TestName[] = [...APPROVAL_GROUP_TESTS.cancer, ...APPROVAL_GROUP_TESTS['cfrt-toxicity']];

export const SELF_APPROVAL_MESSAGE = 'You entered this result; another lab user must approve it';

/** The most results one approval or rejection handles (a page of the review list). */
export const REVIEW_BATCH_MAX = MAX_PAGE_SIZE;
export const REVIEW_REASON_MAX_LENGTH = 500;

export const SAMPLE_OUTCOMES = ['retest', 'reject-sample'] as const;
export type SampleOutcome = (typeof SAMPLE_OUTCOMES)[number];
export const SAMPLE_OUTCOME_LABELS: Record<SampleOutcome, string> = {
  retest: 'Test again (the sample stays In Testing)',
  'reject-sample': 'Reject the sample',
};

/** How many of the patient's earlier released results of the same test a review row shows. */
export const REVIEW_EARLIER_RESULTS = 3;

const HOUR_MS = 3_600_000;

/** A specimen's age when its testing began, in whole hours (null without a collection time, or a testing time before it). */
export function specimenAgeHours(collectedAt: Date | string | null, testedAt: Date | string): number | null {
  if (collectedAt === null) return null;
  const ms = new Date(testedAt).getTime() - new Date(collectedAt).getTime();
  return Number.isFinite(ms) && ms >= 0 ? Math.floor(ms / HOUR_MS) : null;
}

/** A specimen's age in words: "5 hours", "2 days 3 hours". */
export function describeSpecimenAge(hours: number): string {
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  const part = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (days === 0) return part(rest, 'hour', 'hours');
  return rest === 0 ? part(days, 'day', 'days') : `${part(days, 'day', 'days')} ${part(rest, 'hour', 'hours')}`;
}

/** Whether a value differs from the newest earlier released value of the same test (null: nothing earlier). */
export function changedFromLast(value: string, earlier: readonly { value: string }[]): boolean | null {
  return earlier.length ? earlier[0].value !== value : null;
}
