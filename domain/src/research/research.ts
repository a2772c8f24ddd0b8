/**
 * Research: the questionnaires research projects ask (kept as data), when a study response is
 * complete, research participants' study ids (KRAS study ids among them), and which accounts take
 * part. Plain values and functions (no joi: the SPA imports these); the request schemas are in
 * schemas.ts.
 */
import { AccountType } from '../accounts/accounts';
import { RADIATION_TREATMENTS } from '../patients/patients';
import { isDataDate } from '../shared/dates';
import { YES_NO_OTHER } from '../shared/values';

// ---------------------------------------------------------------------------------------------
// Questionnaires
// ---------------------------------------------------------------------------------------------

interface QuestionBase {
  key: string;
  label: string;
  /** A response is complete once every required answer is in. */
  required: boolean;
  /** Where the question sits on the form. */
  section: string;
  help?: string;
}
export type StudyQuestion =
  | (QuestionBase & { kind: 'choice'; options: readonly string[] })
  | (QuestionBase & { kind: 'number'; min: number; max: number; unit: string; integer: boolean })
  | (QuestionBase & { kind: 'date'; notBefore?: string })
  | (QuestionBase & { kind: 'text'; maxLength: number });

export interface StudyQuestionnaire {
  id: string;
  title: string;
  questions: readonly StudyQuestion[];
}

export const STUDY_TEXT_MAX_LENGTH = 2000;

/**
 * PROSTOX Research: the radiation treatment the participant had (SPEC §3 radiation treatment
 * types), its dose and fractions, when it ran (YYYY-MM-DD), and toxicity at follow-up (SPEC §3
 * yes/no/other).
 */
export const PROSTOX_RESEARCH_QUESTIONNAIRE: StudyQuestionnaire = {
  id: 'prostox-research',
  title: 'PROSTOX Research clinical data',
  questions: [
    { key: 'radiationTreatment', label: 'Radiation treatment type', kind: 'choice', options: RADIATION_TREATMENTS, required: true, section: 'Treatment' },
    { key: 'doseGy', label: 'Total dose (Gy)', kind: 'number', min: 0.1, max: 200, unit: 'Gy', integer: false, required: true, section: 'Treatment' },
    { key: 'fractions', label: 'Fractions', kind: 'number', min: 1, max: 100, unit: 'fractions', integer: true, required: true, section: 'Treatment' },
    { key: 'treatmentStartDate', label: 'Treatment start date', kind: 'date', required: true, section: 'Treatment' },
    { key: 'treatmentEndDate', label: 'Treatment end date', kind: 'date', notBefore: 'treatmentStartDate', required: true, section: 'Treatment' },
    {
      key: 'acuteToxicity', label: 'Acute toxicity (during treatment or within 90 days)', kind: 'choice', options: YES_NO_OTHER, required: true,
      section: 'Toxicity at follow-up',
    },
    { key: 'lateToxicity', label: 'Late toxicity at follow-up', kind: 'choice', options: YES_NO_OTHER, required: true, section: 'Toxicity at follow-up' },
    {
      key: 'toxicityNotes', label: 'Toxicity notes', kind: 'text', maxLength: STUDY_TEXT_MAX_LENGTH, required: false, section: 'Toxicity at follow-up',
      help: 'Describe any answer of Other, the grade and when it began.',
    },
  ],
};

/** Every questionnaire a project may use, by id. */
export const STUDY_QUESTIONNAIRES: Readonly<Record<string, StudyQuestionnaire>> = {
  [PROSTOX_RESEARCH_QUESTIONNAIRE.id]: PROSTOX_RESEARCH_QUESTIONNAIRE,
};
export const STUDY_QUESTIONNAIRE_IDS = Object.keys(STUDY_QUESTIONNAIRES);

/** The questionnaire of an id; throws for an unknown one (the database CHECK keeps them known). */
export function studyQuestionnaire(id: string): StudyQuestionnaire {
  const q = STUDY_QUESTIONNAIRES[id];
  if (!q) throw new RangeError(`Unknown questionnaire: ${id}`);
  return q;
}

export type StudyAnswerValue = string | number;
export type StudyAnswers = Record<string, StudyAnswerValue>;

const answered = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The required questions not answered yet, in the questionnaire's order. */
export function missingAnswers(questionnaire: StudyQuestionnaire, answers: Readonly<Record<string, unknown>>): StudyQuestion[] {
  return questionnaire.questions.filter((q) => q.required && !answered(answers[q.key]));
}

/** A response is complete once every required answer is in. */
export function isResponseComplete(questionnaire: StudyQuestionnaire, answers: Readonly<Record<string, unknown>>): boolean {
  return missingAnswers(questionnaire, answers).length === 0;
}

/**
 * Null when one answer fits its question, else one sentence naming it. `answers` are the whole
 * response after the change (for rules across questions: an end date not before the start).
 */
export function describeAnswerProblem(q: StudyQuestion, value: unknown, answers: Readonly<Record<string, unknown>>): string | null {
  switch (q.kind) {
    case 'choice':
      return typeof value === 'string' && q.options.includes(value) ? null : `${q.label} must be one of ${q.options.join(', ')}`;
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${q.label} must be a number`;
      if (q.integer && !Number.isInteger(value)) return `${q.label} must be a whole number`;
      if (value < q.min || value > q.max) return `${q.label} must be between ${q.min} and ${q.max}`;
      return null;
    }
    case 'date': {
      if (typeof value !== 'string' || !isDataDate(value)) return `${q.label} must be a real date written YYYY-MM-DD`;
      const other = q.notBefore ? answers[q.notBefore] : undefined;
      if (typeof other === 'string' && isDataDate(other) && value < other) {
        return `${q.label} must not be before the ${questionLabelOf(q.notBefore!).toLowerCase()}`;
      }
      return null;
    }
    case 'text':
      if (typeof value !== 'string' || value.trim() === '') return `${q.label} must be text`;
      return value.length > q.maxLength ? `${q.label} must be at most ${q.maxLength} characters long` : null;
  }
}

function questionLabelOf(key: string): string {
  for (const q of Object.values(STUDY_QUESTIONNAIRES)) {
    const found = q.questions.find((x) => x.key === key);
    if (found) return found.label;
  }
  return key;
}

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
