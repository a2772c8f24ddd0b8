/**
 * Study questionnaires as data: what a version of a research project's questionnaire may hold (the
 * definition the admin's form builder writes), the rules a definition must keep, when a question is
 * shown (a condition on an earlier answer), and the one check of a participant's answers against a
 * version's definition: the API runs it before it writes, the SPA's form before it sends.
 * Plain values and functions (no joi): the SPA imports these.
 */
import { RADIATION_TREATMENTS } from '../patients/patients';
import { isDataDate } from '../shared/dates';
import { YES_NO_OTHER } from '../shared/values';

/** The kinds of question a questionnaire may ask, with the builder's names for them. */
export const STUDY_QUESTION_KINDS = ['yesNoOther', 'choice', 'number', 'date', 'text'] as const;
export type StudyQuestionKind = (typeof STUDY_QUESTION_KINDS)[number];
export const STUDY_QUESTION_KIND_LABELS: Readonly<Record<StudyQuestionKind, string>> = {
  yesNoOther: 'Yes / No / Other',
  choice: 'Choice from a list',
  number: 'Number with unit',
  date: 'Date',
  text: 'Text',
};

/** Shown only when an earlier question (yes/no/other or choice) was answered with one of `answers`. */
export interface ShowWhen {
  question: string;
  answers: string[];
}

interface QuestionBase {
  /** The answer's name in the data (letters and digits, starting with a lower-case letter). */
  key: string;
  label: string;
  /** A response is complete once every required question that is shown is answered. */
  required: boolean;
  /** Where the question sits on the form. */
  section: string;
  help?: string;
  showWhen?: ShowWhen;
}
export type StudyQuestion =
  | (QuestionBase & { kind: 'yesNoOther' })
  | (QuestionBase & { kind: 'choice'; options: string[] })
  | (QuestionBase & { kind: 'number'; min: number; max: number; unit: string; integer: boolean })
  | (QuestionBase & { kind: 'date'; notBefore?: string })
  | (QuestionBase & { kind: 'text'; maxLength: number });

/** What one version of a questionnaire asks. A published version never changes. */
export interface QuestionnaireDefinition {
  title: string;
  questions: StudyQuestion[];
}

export const STUDY_TEXT_MAX_LENGTH = 2000;
export const QUESTIONNAIRE_LIMITS = {
  title: 200, questions: 100, key: 40, label: 200, section: 100, help: 500, options: 30, option: 100, unit: 20,
} as const;
export const QUESTION_KEY_PATTERN = /^[a-z][A-Za-z0-9]*$/;

/**
 * PROSTOX Research: the radiation treatment the participant had (SPEC §3 radiation treatment
 * types), its dose and fractions, when it ran (YYYY-MM-DD), and toxicity at follow-up (SPEC §3
 * yes/no/other). The first version of the projects that existed before questionnaires were data
 * (written by the migration research-studies) and the demo project's.
 */
export const PROSTOX_RESEARCH_QUESTIONNAIRE: QuestionnaireDefinition = {
  title: 'PROSTOX Research clinical data',
  questions: [
    { key: 'radiationTreatment', label: 'Radiation treatment type', kind: 'choice', options: [...RADIATION_TREATMENTS], required: true, section: 'Treatment' },
    { key: 'doseGy', label: 'Total dose (Gy)', kind: 'number', min: 0.1, max: 200, unit: 'Gy', integer: false, required: true, section: 'Treatment' },
    { key: 'fractions', label: 'Fractions', kind: 'number', min: 1, max: 100, unit: 'fractions', integer: true, required: true, section: 'Treatment' },
    { key: 'treatmentStartDate', label: 'Treatment start date', kind: 'date', required: true, section: 'Treatment' },
    { key: 'treatmentEndDate', label: 'Treatment end date', kind: 'date', notBefore: 'treatmentStartDate', required: true, section: 'Treatment' },
    { key: 'acuteToxicity', label: 'Acute toxicity (during treatment or within 90 days)', kind: 'yesNoOther', required: true, section: 'Toxicity at follow-up' },
    { key: 'lateToxicity', label: 'Late toxicity at follow-up', kind: 'yesNoOther', required: true, section: 'Toxicity at follow-up' },
    {
      key: 'toxicityNotes', label: 'Toxicity notes', kind: 'text', maxLength: STUDY_TEXT_MAX_LENGTH, required: false, section: 'Toxicity at follow-up',
      help: 'Describe any answer of Other, the grade and when it began.',
    },
  ],
};

/** The answers a yes/no/other or choice question offers (none for the other kinds). */
export function questionOptions(q: StudyQuestion): readonly string[] {
  if (q.kind === 'yesNoOther') return YES_NO_OTHER;
  return q.kind === 'choice' ? q.options : [];
}

// ---------------------------------------------------------------------------------------------
// Definitions: the rules a version must keep before it is saved (the builder shows the same)
// ---------------------------------------------------------------------------------------------

interface Problem { field: string; message: string }

const isText = (v: unknown, max: number) => typeof v === 'string' && v.trim() !== '' && v.trim() === v && v.length <= max;
const plainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const KIND_FIELDS: Readonly<Record<StudyQuestionKind, readonly string[]>> = {
  yesNoOther: [], choice: ['options'], number: ['min', 'max', 'unit', 'integer'], date: ['notBefore'], text: ['maxLength'],
};
const COMMON_FIELDS = ['key', 'label', 'kind', 'required', 'section', 'help', 'showWhen'];

/** Every problem of a questionnaire definition, each naming its field (`questions.2.label`). */
export function describeDefinitionProblems(definition: unknown): Problem[] {
  if (!plainObject(definition)) return [{ field: '', message: 'The questionnaire must be an object with a title and questions' }];
  const problems: Problem[] = [];
  for (const key of Object.keys(definition)) {
    if (key !== 'title' && key !== 'questions') problems.push({ field: key, message: `${key} is not allowed` });
  }
  if (!isText(definition.title, QUESTIONNAIRE_LIMITS.title)) {
    problems.push({ field: 'title', message: `Title is required: 1 to ${QUESTIONNAIRE_LIMITS.title} characters, no spaces around` });
  }
  const questions = definition.questions;
  if (!Array.isArray(questions) || questions.length === 0 || questions.length > QUESTIONNAIRE_LIMITS.questions) {
    problems.push({ field: 'questions', message: `A questionnaire asks 1 to ${QUESTIONNAIRE_LIMITS.questions} questions` });
    return problems;
  }
  questions.forEach((q, i) => problems.push(...questionProblems(q, `questions.${i}`, questions.slice(0, i))));
  return problems;
}

function questionProblems(q: unknown, at: string, earlier: unknown[]): Problem[] {
  if (!plainObject(q)) return [{ field: at, message: `Question ${at.split('.')[1]} must be an object` }];
  const problems: Problem[] = [];
  const add = (field: string, message: string) => problems.push({ field: `${at}.${field}`, message });
  const kind = q.kind as StudyQuestionKind;
  if (!STUDY_QUESTION_KINDS.includes(kind)) {
    add('kind', `Kind must be one of ${STUDY_QUESTION_KINDS.join(', ')}`);
    return problems;
  }
  for (const field of Object.keys(q)) {
    if (!COMMON_FIELDS.includes(field) && !KIND_FIELDS[kind].includes(field)) add(field, `${field} is not allowed for a question of kind ${kind}`);
  }
  const earlierQuestions = earlier.filter(plainObject);
  const key = q.key;
  if (typeof key !== 'string' || !QUESTION_KEY_PATTERN.test(key) || key.length > QUESTIONNAIRE_LIMITS.key) {
    add('key', `Key must be 1 to ${QUESTIONNAIRE_LIMITS.key} letters or digits starting with a lower-case letter`);
  } else if (earlierQuestions.some((e) => e.key === key)) add('key', `Key ${key} is used by an earlier question`);
  if (!isText(q.label, QUESTIONNAIRE_LIMITS.label)) add('label', `Question is required: 1 to ${QUESTIONNAIRE_LIMITS.label} characters, no spaces around`);
  if (!isText(q.section, QUESTIONNAIRE_LIMITS.section)) add('section', `Section is required: 1 to ${QUESTIONNAIRE_LIMITS.section} characters, no spaces around`);
  if (q.help !== undefined && !isText(q.help, QUESTIONNAIRE_LIMITS.help)) add('help', `Help must be 1 to ${QUESTIONNAIRE_LIMITS.help} characters, or left out`);
  if (typeof q.required !== 'boolean') add('required', 'Required must be true or false');
  switch (kind) {
    case 'choice': {
      const o = q.options;
      if (!Array.isArray(o) || o.length < 2 || o.length > QUESTIONNAIRE_LIMITS.options || !o.every((x) => isText(x, QUESTIONNAIRE_LIMITS.option))) {
        add('options', `A choice offers 2 to ${QUESTIONNAIRE_LIMITS.options} answers, each 1 to ${QUESTIONNAIRE_LIMITS.option} characters`);
      } else if (new Set(o).size !== o.length) add('options', 'Each answer of a choice is offered once');
      break;
    }
    case 'number': {
      const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
      if (!finite(q.min)) add('min', 'Minimum must be a number');
      if (!finite(q.max)) add('max', 'Maximum must be a number');
      if (finite(q.min) && finite(q.max) && (q.min as number) >= (q.max as number)) add('max', 'Maximum must be more than the minimum');
      if (!isText(q.unit, QUESTIONNAIRE_LIMITS.unit)) add('unit', `Unit is required: 1 to ${QUESTIONNAIRE_LIMITS.unit} characters`);
      if (typeof q.integer !== 'boolean') add('integer', 'Whole numbers only must be true or false');
      break;
    }
    case 'date':
      if (q.notBefore !== undefined && !earlierQuestions.some((e) => e.kind === 'date' && e.key === q.notBefore)) {
        add('notBefore', 'Not before must name an earlier date question');
      }
      break;
    case 'text':
      if (typeof q.maxLength !== 'number' || !Number.isInteger(q.maxLength) || q.maxLength < 1 || q.maxLength > STUDY_TEXT_MAX_LENGTH) {
        add('maxLength', `Longest answer must be a whole number from 1 to ${STUDY_TEXT_MAX_LENGTH}`);
      }
      break;
    case 'yesNoOther':
      break;
  }
  if (q.showWhen !== undefined) problems.push(...showWhenProblems(q.showWhen, `${at}.showWhen`, earlierQuestions));
  return problems;
}

function showWhenProblems(showWhen: unknown, at: string, earlier: Record<string, unknown>[]): Problem[] {
  const trigger = plainObject(showWhen) ? earlier.find((e) => e.key === showWhen.question) : undefined;
  if (!plainObject(showWhen) || !trigger || (trigger.kind !== 'choice' && trigger.kind !== 'yesNoOther')) {
    return [{ field: `${at}.question`, message: 'Shown only when must name an earlier yes/no/other or choice question' }];
  }
  const offered = trigger.kind === 'yesNoOther' ? YES_NO_OTHER : Array.isArray(trigger.options) ? trigger.options : [];
  const answers = showWhen.answers;
  const problems: Problem[] = [];
  for (const field of Object.keys(showWhen)) if (field !== 'question' && field !== 'answers') problems.push({ field: `${at}.${field}`, message: `${field} is not allowed` });
  if (!Array.isArray(answers) || answers.length === 0 || !answers.every((a) => typeof a === 'string' && offered.includes(a)) || new Set(answers).size !== answers.length) {
    problems.push({ field: `${at}.answers`, message: `Shown only when needs one or more answers of ${String(trigger.label)}: ${offered.join(', ')}` });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Answers: what is shown, what is missing, and the one check of answers against a definition
// ---------------------------------------------------------------------------------------------

export type StudyAnswerValue = string | number;
export type StudyAnswers = Record<string, StudyAnswerValue>;

const answered = (v: unknown) => v !== undefined && v !== null && v !== '';

/** Whether a question is shown with these answers: always, or when its earlier question (itself shown) has one of the answers named. */
export function isQuestionShown(definition: QuestionnaireDefinition, q: StudyQuestion, answers: Readonly<Record<string, unknown>>): boolean {
  if (!q.showWhen) return true;
  const trigger = definition.questions.find((x) => x.key === q.showWhen!.question);
  if (!trigger || !isQuestionShown(definition, trigger, answers)) return false;
  const value = answers[trigger.key];
  return typeof value === 'string' && q.showWhen.answers.includes(value);
}

/** The required questions shown and not answered yet, in the questionnaire's order (a hidden question is never missing). */
export function missingAnswers(definition: QuestionnaireDefinition, answers: Readonly<Record<string, unknown>>): StudyQuestion[] {
  return definition.questions.filter((q) => q.required && !answered(answers[q.key]) && isQuestionShown(definition, q, answers));
}

/** A response is complete once every required question that is shown is answered. */
export function isResponseComplete(definition: QuestionnaireDefinition, answers: Readonly<Record<string, unknown>>): boolean {
  return missingAnswers(definition, answers).length === 0;
}

/** How the form says when a question is shown ("Asked when Acute toxicity is Yes or Other"). */
export function describeShowWhen(definition: QuestionnaireDefinition, q: StudyQuestion): string | null {
  if (!q.showWhen) return null;
  const trigger = definition.questions.find((x) => x.key === q.showWhen!.question);
  return `Asked when ${trigger?.label ?? q.showWhen.question} is ${q.showWhen.answers.join(' or ')}`;
}

/**
 * Null when one answer fits its question, else one sentence naming it. `answers` are the whole
 * response after the change (for rules across questions: an end date not before the start).
 */
export function describeAnswerProblem(
  definition: QuestionnaireDefinition, q: StudyQuestion, value: unknown, answers: Readonly<Record<string, unknown>>,
): string | null {
  switch (q.kind) {
    case 'yesNoOther':
    case 'choice': {
      const options = questionOptions(q);
      return typeof value === 'string' && options.includes(value) ? null : `${q.label} must be one of ${options.join(', ')}`;
    }
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
        const before = definition.questions.find((x) => x.key === q.notBefore)?.label ?? q.notBefore!;
        return `${q.label} must not be before the ${before.toLowerCase()}`;
      }
      return null;
    }
    case 'text':
      if (typeof value !== 'string' || value.trim() === '') return `${q.label} must be text`;
      return value.length > q.maxLength ? `${q.label} must be at most ${q.maxLength} characters long` : null;
  }
}

/** The answers to change: a value sets one, null (or '') clears it; answers not named stay as they are. */
export type StudyAnswerChanges = Record<string, string | number | null>;

/**
 * The one check of answers against a version's definition (the API before it writes, the SPA's
 * form before it sends): the answers after applying `changes`, and every problem, each naming its
 * field (`answers.<key>`). A question hidden by the answers is never required; an answer given to
 * it is refused, and one it kept from before the change that hid it is dropped (it no longer applies).
 */
export function applyStudyAnswers(
  definition: QuestionnaireDefinition,
  current: Readonly<Record<string, unknown>>,
  changes: Readonly<StudyAnswerChanges>,
): { answers: StudyAnswers; problems: Problem[] } {
  const answers: StudyAnswers = {};
  for (const q of definition.questions) {
    const v = current[q.key];
    if (typeof v === 'string' || typeof v === 'number') answers[q.key] = v;
  }
  const problems: Problem[] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (!definition.questions.some((q) => q.key === key)) {
      problems.push({ field: `answers.${key}`, message: `answers.${key} is not a question of ${definition.title}` });
    } else if (value === null || value === '') delete answers[key];
    else answers[key] = value;
  }
  // Questions in order: a trigger's answer is settled before the questions it shows.
  for (const q of definition.questions) {
    if (!(q.key in answers) || isQuestionShown(definition, q, answers)) continue;
    if (answered(changes[q.key])) problems.push({ field: `answers.${q.key}`, message: `${q.label} is not asked: ${describeShowWhen(definition, q)!.toLowerCase()}` });
    delete answers[q.key];
  }
  // Every answer is checked (a change may make another wrong: an end date before a new start).
  for (const q of definition.questions) {
    if (!(q.key in answers)) continue;
    const problem = describeAnswerProblem(definition, q, answers[q.key], answers);
    if (problem && (q.key in changes || q.kind === 'date')) problems.push({ field: `answers.${q.key}`, message: problem });
  }
  return { answers, problems };
}
