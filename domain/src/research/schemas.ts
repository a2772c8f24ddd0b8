/**
 * Request schemas of the Research Portal (/api/provider-research/{accountId}/…) and of the study
 * responses both portals fill: the research order (a participant by study id, the tests of the
 * Research Portal, the attestations that apply to research), the research tests list, the study
 * responses list and a study response's update. Shared by api (validation) and web (forms).
 */
import Joi from 'joi';
import type { TestName } from '../catalogue/tests';
import { type Attestations, attestationsFor } from '../orders/attestations';
import { Portal } from '../orders/orders';
import { attestationsSchema, orderSampleTypeSchema, orderTestsSchema } from '../orders/schemas';
import { PATIENT_SEX_LABELS, PATIENT_SEXES, type PatientSex } from '../patients/patients';
import type { SampleType } from '../samples/sample-types';
import { SAMPLE_STATUSES } from '../samples/statuses';
import { type FieldError, pageFields } from '../shared/schemas';
import {
  describeAnswerProblem, describeStudyIdProblem, RESEARCH_TEST_SORT_FIELDS, type ResearchTestSortField,
  STUDY_QUESTIONNAIRES, STUDY_RESPONSE_SORT_FIELDS, type StudyAnswers, type StudyQuestionnaire,
  type StudyResponseSortField,
} from './research';

const STRICT_KEYS = { allowUnknown: false } as const;

/** A participant's study id (research.ts describeStudyIdProblem: KRAS study prefixes of SPEC §5 where they apply). */
export const studyIdSchema = Joi.string()
  .custom((value: string, helpers) => {
    const problem = describeStudyIdProblem(value);
    return problem ? helpers.message({ custom: problem }) : value;
  })
  .label('Study ID');

export interface ResearchOrderBody {
  projectId: number;
  studyId: string;
  sex: PatientSex | null;
  tests: TestName[];
  physicianId: number;
  sampleType: SampleType;
  attestations: Partial<Attestations>;
}

/** POST provider-research/{accountId}/order */
export const researchOrderBody = Joi.object<ResearchOrderBody>({
  projectId: Joi.number().integer().positive().label('Research project').required(),
  studyId: studyIdSchema.required(),
  sex: Joi.string()
    .valid(...PATIENT_SEXES)
    .allow(null, '')
    .empty(['', null])
    .default(null)
    .label('Sex')
    .messages({ 'any.only': `{#label} must be one of ${PATIENT_SEXES.map((s) => `${s} (${PATIENT_SEX_LABELS[s]})`).join(', ')}` }),
  tests: orderTestsSchema(Portal.Research).required(),
  physicianId: Joi.number().integer().positive().label('Physician').required(),
  sampleType: orderSampleTypeSchema.required(),
  attestations: attestationsSchema(attestationsFor(Portal.Research)).required(),
}).options(STRICT_KEYS).label('Request body');

const sortField = <F extends string>(fields: readonly F[]) =>
  Joi.string().valid(...fields).label('Sort').messages({ 'any.only': `{#label} must be one of ${fields.join(', ')}` });
const orderField = Joi.string().valid('asc', 'desc').label('Order').messages({ 'any.only': '{#label} must be asc or desc' });

export interface ResearchTestsQuery {
  page: number;
  pageSize: number;
  sort?: ResearchTestSortField;
  order?: 'asc' | 'desc';
  status?: string;
  projectId?: number;
  /** Part of a study id or barcode. */
  q?: string;
}
/** GET provider-research/{accountId}/tests */
export const researchTestsQuery = Joi.object<ResearchTestsQuery>({
  ...pageFields,
  sort: sortField(RESEARCH_TEST_SORT_FIELDS),
  order: orderField,
  status: Joi.string().valid(...SAMPLE_STATUSES).label('Status').messages({ 'any.only': `{#label} must be one of ${SAMPLE_STATUSES.join(', ')}` }),
  projectId: Joi.number().integer().positive().label('Research project'),
  q: Joi.string().trim().min(1).max(64).label('Search'),
}).options(STRICT_KEYS).label('Query');

export interface StudyResponsesQuery {
  page: number;
  pageSize: number;
  sort?: StudyResponseSortField;
  order?: 'asc' | 'desc';
  projectId?: number;
  patientId?: number;
  /** true: only incomplete responses; false: only complete ones. */
  incomplete?: boolean;
}
/** GET …/study-responses */
export const studyResponsesQuery = Joi.object<StudyResponsesQuery>({
  ...pageFields,
  sort: sortField(STUDY_RESPONSE_SORT_FIELDS),
  order: orderField,
  projectId: Joi.number().integer().positive().label('Research project'),
  patientId: Joi.number().integer().positive().label('Participant'),
  incomplete: Joi.boolean().label('Incomplete'),
}).options(STRICT_KEYS).label('Query');

const ANSWER_KEYS = [...new Set(Object.values(STUDY_QUESTIONNAIRES).flatMap((q) => q.questions.map((x) => x.key)))];

export interface UpdateStudyResponseBody {
  /** The answers to change: a value sets one, null clears it; answers not named stay as they are. */
  answers: Record<string, string | number | null>;
}
/**
 * POST …/study-responses/{id}/update { answers }. The shape is checked here (known question keys,
 * strings or numbers or null); each answer against its project's questionnaire by studyAnswerProblems.
 */
export const updateStudyResponseBody = Joi.object<UpdateStudyResponseBody>({
  answers: Joi.object(Object.fromEntries(ANSWER_KEYS.map((k) => [k, Joi.alternatives(Joi.string().trim().max(4000), Joi.number(), Joi.valid(null)).label(`answers.${k}`)])))
    .options(STRICT_KEYS)
    .min(1)
    .label('Answers')
    .messages({ 'object.min': 'Give at least one answer' })
    .required(),
}).options(STRICT_KEYS).label('Request body');

/**
 * The answers after applying `changes` (null or '' clears), and every problem with them against
 * the questionnaire, each naming its field (`answers.<key>`).
 */
export function applyStudyAnswers(
  questionnaire: StudyQuestionnaire,
  current: Readonly<Record<string, unknown>>,
  changes: UpdateStudyResponseBody['answers'],
): { answers: StudyAnswers; problems: FieldError[] } {
  const answers: StudyAnswers = {};
  for (const q of questionnaire.questions) {
    const v = current[q.key];
    if (typeof v === 'string' || typeof v === 'number') answers[q.key] = v;
  }
  const problems: FieldError[] = [];
  for (const [key, value] of Object.entries(changes)) {
    if (!questionnaire.questions.some((q) => q.key === key)) {
      problems.push({ field: `answers.${key}`, message: `answers.${key} is not a question of ${questionnaire.title}` });
    } else if (value === null || value === '') delete answers[key];
    else answers[key] = value;
  }
  // Every answer is checked (a change may make another wrong: an end date before a new start).
  for (const q of questionnaire.questions) {
    if (!(q.key in answers)) continue;
    const problem = describeAnswerProblem(q, answers[q.key], answers);
    if (problem && (q.key in changes || q.kind === 'date')) problems.push({ field: `answers.${q.key}`, message: problem });
  }
  return { answers, problems };
}
