/**
 * PCR plates: the tests resulted on a plate (and ordered by the lab itself), the wells, the
 * controls and whether they passed. Plain values (no joi here: the SPA imports these); the request
 * schemas are in schemas.ts.
 */
import { TEST_CATALOGUE } from '../catalogue/catalogue';
import { TEST_NAMES, TestName } from '../catalogue/tests';
import { CovidPcrResult } from '../results/result-values';
import { type ControlKind, controlKind, reextractionOf } from '../samples/identifiers';
import { RESPIRATORY_SAMPLE_TYPES, SampleType } from '../samples/sample-types';

/**
 * The tests resulted on a plate, as COVID-19 PCR is: every test the catalogue reports on the COVID
 * scale (COVID-19 PCR, COVID-19 Rapid). Registration, resulting and approval treat them alike.
 */
export const PLATE_TESTS: readonly TestName[] = TEST_NAMES.filter((name) => TEST_CATALOGUE[name].scale === 'covid');
/** "COVID-19 PCR or COVID-19 Rapid": how messages name them. */
export const PLATE_TESTS_LABEL = PLATE_TESTS.join(' or ');
/**
 * What a plate well shows for its sample's test where room is short (the plate grid); the page
 * spells each out in a legend, and the well's accessible name carries the full test name.
 */
export const PLATE_TEST_SHORT_NAMES: Readonly<Partial<Record<TestName, string>>> = { [TestName.CovidPcr]: 'PCR', [TestName.CovidRapid]: 'Rapid' };
/** A plate test's short name (its full name when it has none). */
export const plateTestShortName = (test: string): string => PLATE_TEST_SHORT_NAMES[test as TestName] ?? test;

/** The tests the lab orders itself through samples/create: the plate tests. */
export const LAB_ORDERABLE_TESTS: readonly TestName[] = PLATE_TESTS;
/** The specimens of a lab-ordered COVID-19 PCR: the spec's respiratory subset plus the nasopharyngeal swab. */
export const LAB_SAMPLE_TYPES: readonly SampleType[] = [...RESPIRATORY_SAMPLE_TYPES, SampleType.Nasopharyngeal];

// ---------------------------------------------------------------------------------------------
// PCR plates
// ---------------------------------------------------------------------------------------------

export const PCR_PLATE_ROWS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'] as const;
export const PCR_PLATE_COLUMNS = 12;
/** The 96 wells of a plate in the order a plate is loaded: down each column (A1, B1 … H1, A2 …). */
export const PCR_WELLS: readonly string[] = Array.from({ length: PCR_PLATE_COLUMNS }, (_, c) => PCR_PLATE_ROWS.map((r) => `${r}${c + 1}`)).flat();
/** A well name: row letter A-H, column 1-12. */
export const PCR_WELL_PATTERN = /^[A-H](?:[1-9]|1[0-2])$/;
/** The same rule as a PostgreSQL regular expression (for the table's CHECK). */
export const PCR_WELL_SQL_PATTERN = '^[A-H]([1-9]|1[0-2])$';

export const PcrPlateStatus = { Registered: 'Registered', Resulted: 'Resulted' } as const;
export type PcrPlateStatus = (typeof PcrPlateStatus)[keyof typeof PcrPlateStatus];
export const PCR_PLATE_STATUSES = Object.values(PcrPlateStatus);

/** The controls a plate well may hold (a re-extraction row is a sample's well, not a control). */
export type PcrControlKind = Exclude<ControlKind, 're-extraction'>;
export const PCR_CONTROL_KINDS: readonly PcrControlKind[] = ['positive', 'negative', 'null'];
/** What a control must read for the plate's results to be released. */
export const PCR_CONTROL_EXPECTED: Readonly<Partial<Record<PcrControlKind, CovidPcrResult>>> = {
  positive: CovidPcrResult.Detected,
  negative: CovidPcrResult.NotDetected,
};
export const PCR_CONTROL_LABELS: Record<PcrControlKind, string> = { positive: 'positive control', negative: 'negative control', null: 'null control' };

export const PCR_PLATE_NAME_MAX_LENGTH = 64;

/** What a plate well label names: a control, a re-extraction of a sample, or a sample's barcode. */
export type PcrWellLabel =
  | { kind: 'control'; control: PcrControlKind }
  | { kind: 'sample'; barcode: string; reextraction: boolean };

export function classifyPcrWellLabel(label: string): PcrWellLabel {
  const kind = controlKind(label);
  if (kind === 're-extraction') return { kind: 'sample', barcode: reextractionOf(label)!, reextraction: true };
  if (kind) return { kind: 'control', control: kind };
  return { kind: 'sample', barcode: label, reextraction: false };
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

/** Each control well as the reviewer reads it: what it read, what it must read, and whether it did (null: not judged). */
export function controlOutcomes(controls: readonly PcrControlWell[]): { well: string; label: string; kind: PcrControlKind; result: string | null; expected: string | null; passed: boolean | null }[] {
  return controls.map((c) => {
    const expected = PCR_CONTROL_EXPECTED[c.control] ?? null;
    return { well: c.well, label: c.label, kind: c.control, result: c.result, expected, passed: expected === null ? null : c.result === expected };
  });
}
