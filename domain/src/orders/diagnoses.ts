/**
 * ICD-10-CM diagnosis codes on a clinic order: how a code is written, which tests need one (the
 * billing reading of docs/clinical-orders.md), the order's and the search's request schemas and
 * their answers. The code list itself (CMS's, loaded from a data file) lives in the server: this
 * module checks only the shape of a code, the server checks that it is in the list. Plain values,
 * no joi (the SPA imports them); the request schemas are in diagnosis-schemas.ts.
 */
import { catalogueEntry } from '../catalogue/catalogue';
import type { TestName } from '../catalogue/tests';
import * as s from '../shared/shapes';

/** The code system's name (printed on the requisition, named in messages). */
export const DIAGNOSIS_CODE_SYSTEM = 'ICD-10-CM';

/**
 * The most diagnosis codes one order carries: a claim (CMS-1500 box 21, the 837P) carries 12, and
 * the lab's claim for the order is built from them.
 */
export const ORDER_MAX_DIAGNOSES = 12;

/** A billable ICD-10-CM code as stored: a letter, two alphanumerics (QA0: FY2026's new category), then up to four more; no dot (A000, C61, S72001A). */
const STORED_CODE = /^[A-Z][0-9A-Z][0-9A-Z][0-9A-Z]{0,4}$/;

/** A code as typed: any case, spaces around, with or without the dot after the third character. */
export function normalizeDiagnosisCode(value: string): string {
  return value.trim().toUpperCase().replace('.', '');
}

/** True when the (normalized) text is shaped like an ICD-10-CM code. */
export function isDiagnosisCodeShape(value: string): boolean {
  return STORED_CODE.test(value);
}

/** How a code is shown and printed: with the dot after the third character (C61, Z85.46, S72.001A). */
export function formatDiagnosisCode(code: string): string {
  return code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;
}

/**
 * Whether an order of these tests needs a diagnosis code. A clinic's order of a clinical test is
 * billed to the patient's insurer by the lab (the ordering attestation "the provider will submit a
 * claim"), and a claim without a diagnosis is denied: one code at least. A research test (PROSTOX
 * Research) is not billed and not for the patient's care: a code is optional.
 */
export function diagnosisRequiredFor(tests: readonly TestName[]): boolean {
  return tests.some((t) => !catalogueEntry(t).research);
}

export const DIAGNOSIS_REQUIRED_MESSAGE = `Add at least one ${DIAGNOSIS_CODE_SYSTEM} diagnosis code: the lab bills this test to the patient's insurer`;

export const DIAGNOSIS_SEARCH_MIN_LENGTH = 2;
export const DIAGNOSIS_SEARCH_MAX_LENGTH = 100;
export const DIAGNOSIS_SEARCH_DEFAULT_PAGE_SIZE = 20;

/** A diagnosis code and CMS's description of it (an order keeps both as they were when it was placed). */
export const DiagnosisCodeView = s.object({
  /** As stored: no dot (C61, Z8546). */
  code: s.string,
  /** As shown and printed: C61, Z85.46. */
  display: s.string,
  description: s.string,
});
export type DiagnosisCodeView = s.Infer<typeof DiagnosisCodeView>;

/** An order's stored codes ({ code, description }, as placed) as they are shown. */
export function diagnosisViews(stored: readonly { code: string; description: string }[] | null | undefined): DiagnosisCodeView[] {
  return (stored ?? []).map((d) => ({ code: d.code, display: formatDiagnosisCode(d.code), description: d.description }));
}

/** GET diagnosis-codes: one page of matches, how many match in all, and the code list's edition. */
export const DiagnosisSearchAnswer = s.object({
  rows: s.array(DiagnosisCodeView),
  total: s.integer,
  edition: s.string,
});
export type DiagnosisSearchAnswer = s.Infer<typeof DiagnosisSearchAnswer>;
