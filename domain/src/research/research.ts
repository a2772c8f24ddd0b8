/**
 * Research: research participants' study ids (KRAS study ids among them), which accounts take
 * part, the lists' sort fields and the spec's messages. Plain values and functions (no joi: the SPA
 * imports these); the questionnaires are in questionnaires.ts, the request schemas in schemas.ts.
 */
import { AccountType } from '../accounts/accounts';
import { TestName } from '../catalogue/tests';
import { testsOrderableIn } from '../catalogue/catalogue';
import { Portal } from '../orders/orders';

// ---------------------------------------------------------------------------------------------
// Participants: study ids
// ---------------------------------------------------------------------------------------------

export const STUDY_ID_MAX_LENGTH = 40;
/** A study id: letters, digits, hyphens and underscores, starting and ending with a letter or digit. */
export const STUDY_ID_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,38}[A-Za-z0-9])?$/;
/** The same rule as SQL (a CHECK on patients.study_id). */
export const STUDY_ID_SQL_PATTERN = '^[A-Za-z0-9]([A-Za-z0-9_-]{0,38}[A-Za-z0-9])?$';

/** The prefixes of KRAS study ids, as the spec writes them (upper case, case-sensitive). */
export const KRAS_STUDY_ID_PREFIXES = ['KRAS-WH-', 'MDXKRAS-HNSCC', 'KRASHNSCC'] as const;

/**
 * KRAS study id: a prefix of KRAS_STUDY_ID_PREFIXES, then 1 to 32 letters, digits or hyphens that
 * end in a letter or digit (e.g. KRAS-WH-0042, MDXKRAS-HNSCC-017, KRASHNSCC103).
 */
export const KRAS_STUDY_ID_PATTERN = /^(?:KRAS-WH-|MDXKRAS-HNSCC|KRASHNSCC)(?=[A-Za-z0-9-]{1,32}$)[A-Za-z0-9-]*[A-Za-z0-9]$/;

/** True when the value is a KRAS study id (KRAS-WH-, MDXKRAS-HNSCC or KRASHNSCC + a suffix). */
export function isKrasStudyId(value: string): boolean {
  return KRAS_STUDY_ID_PATTERN.test(value);
}

/**
 * Null when the value is a study id, else one sentence. An id with a KRAS study prefix (SPEC §5:
 * KRAS-WH-, MDXKRAS-HNSCC, KRASHNSCC) must be a whole KRAS study id.
 */
export function describeStudyIdProblem(value: string): string | null {
  if (value.trim() === '') return 'Study ID is required';
  if (value !== value.trim()) return 'Study ID must not start or end with a space';
  if (KRAS_STUDY_ID_PREFIXES.some((p) => value.toUpperCase().startsWith(p)) && !isKrasStudyId(value)) {
    return `Study ID starting with a KRAS study prefix (${KRAS_STUDY_ID_PREFIXES.join(', ')}) must continue with letters, digits or hyphens and end with a letter or digit, e.g. KRAS-WH-0042`;
  }
  if (value.length > STUDY_ID_MAX_LENGTH) return `Study ID must be at most ${STUDY_ID_MAX_LENGTH} characters long`;
  if (!STUDY_ID_PATTERN.test(value)) return 'Study ID may contain letters, digits, hyphens and underscores, and must start and end with a letter or digit';
  return null;
}

/**
 * The tests a research project may order: the Research Portal's panels, and PROSTOX Research
 * (clinics taking part order it from the Clinical Portal, which enrols their patient).
 */
export const RESEARCH_PROJECT_TESTS: readonly TestName[] = [TestName.ProstoxResearch, ...testsOrderableIn(Portal.Research)];

/** An account takes part in PROSTOX Research when it is a PROSTOX Research Partner or has a research project. */
export function takesPartInResearch(account: { type: string }, projectCount: number): boolean {
  return account.type === AccountType.ProstoxResearchPartner || projectCount > 0;
}

/** The sort fields of the research tests list. */
export const RESEARCH_TEST_SORT_FIELDS = ['studyId', 'barcode', 'status', 'project', 'orderedAt', 'resultedAt'] as const;
export type ResearchTestSortField = (typeof RESEARCH_TEST_SORT_FIELDS)[number];

/** The sort fields of the study responses list. */
export const STUDY_RESPONSE_SORT_FIELDS = ['participant', 'project', 'updatedAt', 'complete'] as const;
export type StudyResponseSortField = (typeof STUDY_RESPONSE_SORT_FIELDS)[number];

/** Messages of SPEC §8 for study responses. */
export const STUDY_RESPONSE_MESSAGES = {
  updated: 'Study Response Updated Successfully',
  updateFailed: 'Failed to update study response',
  listFailed: 'Error retrieving study responses',
} as const;

/** The header carrying the number of incomplete participants (SPEC §7). */
export const TOTAL_INCOMPLETE_HEADER = 'x-total-incomplete-count';
