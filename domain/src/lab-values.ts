/**
 * Plain values of the Lab Toolbox: import columns and values, approval groups, PCR control checks
 * (no joi here: the SPA imports these). The request schemas that use them are in lab-schemas.ts.
 */
import { catalogueEntry, scaleValues, type ResultScale } from './catalogue';
import { MAX_PAGE_SIZE } from './constants';
import { TestName } from './enums';
import type { LabImportKind, ResultImportKind } from './jobs';
import { PCR_CONTROL_EXPECTED, PCR_CONTROL_LABELS, type PcrControlKind } from './pcr-plates';

/** The whole-number format of counts in messages (10,000). */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** A count with its noun, singular for one: "1 control", "3 controls", "1,204 samples". */
export function countOf(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export interface PcrControlWell { well: string; label: string; control: PcrControlKind; result: string | null }
export type PcrControlCheck = { ok: true } | { ok: false; problems: string[] };

/**
 * Whether a plate's controls passed: at least one positive control, all DETECTED, and at least
 * one negative control, all NOT DETECTED. Null controls are not judged.
 */
export function checkPcrControls(controls: readonly PcrControlWell[]): PcrControlCheck {
  const problems: string[] = [];
  for (const kind of ['positive', 'negative'] as const) {
    const wells = controls.filter((c) => c.control === kind);
    const expected = PCR_CONTROL_EXPECTED[kind]!;
    if (wells.length === 0) problems.push(`the plate has no ${PCR_CONTROL_LABELS[kind]}`);
    for (const w of wells) {
      if (w.result === null) problems.push(`the ${PCR_CONTROL_LABELS[kind]} ${w.label} in ${w.well} has no result`);
      else if (w.result !== expected) problems.push(`the ${PCR_CONTROL_LABELS[kind]} ${w.label} in ${w.well} is ${w.result} (expected ${expected})`);
    }
  }
  return problems.length ? { ok: false, problems } : { ok: true };
}

export const LAB_IMPORT_KIND_LABELS: Record<LabImportKind, string> = {
  'cancer-toxicity': 'Toxicity risk levels (CFRT / cancer toxicity)',
  kras: 'KRAS genotypes',
  'dna-extraction': 'DNA extraction runs (concentration, A260/280, volume, plate and well)',
};

/** The columns of an import file: barcode, the value column of the kind, and an optional test name. */
export const IMPORT_BARCODE_COLUMN = 'barcode';
export const IMPORT_TEST_COLUMN = 'test';
export const IMPORT_VALUE_COLUMN: Record<ResultImportKind, string> = { 'cancer-toxicity': 'risk_level', kras: 'genotype' };
/** The scales each kind's value column may be written on. */
export const IMPORT_KIND_SCALES: Record<ResultImportKind, readonly ResultScale[]> = { 'cancer-toxicity': ['risk4', 'risk2'], kras: ['kras'] };

/** Every value the kind's value column accepts, in catalogue order, without repeats. */
export function importKindValues(kind: ResultImportKind): string[] {
  return [...new Set(IMPORT_KIND_SCALES[kind].flatMap((s) => scaleValues(s) ?? []))];
}

/** True when a test takes results of that import kind (a risk level, a KRAS genotype). */
export function importKindFitsTest(kind: ResultImportKind, test: TestName): boolean {
  return catalogueEntry(test).acceptedScales.some((s) => IMPORT_KIND_SCALES[kind].includes(s));
}

/** The canonical value for a typed one (case and spacing forgiven: 'high  risk' -> 'High Risk'), or null. */
export function canonicalImportValue(kind: ResultImportKind, typed: string): string | null {
  const key = (v: string) => v.trim().replace(/\s+/g, ' ').toLowerCase();
  const wanted = key(typed);
  return importKindValues(kind).find((v) => key(v) === wanted) ?? null;
}

/** The scale a result value of a test is on ('High Risk' on PROSTOX ultra -> 'risk4'), or null. */
export function resultScaleOf(test: TestName, value: string): ResultScale | null {
  return catalogueEntry(test).acceptedScales.find((s) => {
    const values = scaleValues(s);
    return values !== null && values.includes(value);
  }) ?? null;
}

/** A header as typed -> its column name: trimmed, lower case, spaces and hyphens as underscores ('Risk Level' -> 'risk_level'). */
export function normaliseImportHeader(header: string): string {
  return header.replace(/^\uFEFF/, '').trim().toLowerCase().replace(/[\s-]+/g, '_');
}

export const IMPORT_FILE_NAME_MAX_LENGTH = 200;
/** The rows the dry run keeps in its result for display (all errors are kept). */
export const IMPORT_PREVIEW_ROWS = 200;
/** How many errors the job endpoint answers inline (the errors CSV has them all). */
export const IMPORT_ERRORS_INLINE = 1_000;

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
