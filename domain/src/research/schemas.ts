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
import { pageFields } from '../shared/schemas';
import { describeStudyIdProblem, RESEARCH_PROJECT_TESTS, RESEARCH_TEST_SORT_FIELDS, type ResearchTestSortField, STUDY_RESPONSE_SORT_FIELDS, type StudyResponseSortField } from './research';
import { QUESTION_KEY_PATTERN, QUESTIONNAIRE_LIMITS, type QuestionnaireDefinition, type StudyAnswerChanges } from './questionnaires';

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

export interface UpdateStudyResponseBody {
  /** The answers to change: a value sets one, null clears it; answers not named stay as they are. */
  answers: StudyAnswerChanges;
}
/**
 * POST …/study-responses/{id}/update { answers }. The shape is checked here (question keys,
 * strings or numbers or null); each answer against its version's definition by applyStudyAnswers.
 */
export const updateStudyResponseBody = Joi.object<UpdateStudyResponseBody>({
  answers: Joi.object()
    .pattern(
      Joi.string().pattern(QUESTION_KEY_PATTERN).max(QUESTIONNAIRE_LIMITS.key),
      Joi.alternatives(Joi.string().trim().max(4000), Joi.number(), Joi.valid(null)).label('Answer'),
    )
    .options(STRICT_KEYS)
    .min(1)
    .label('Answers')
    .messages({ 'object.min': 'Give at least one answer', 'object.unknown': '{#label} may only name questions (letters and digits)' })
    .required(),
}).options(STRICT_KEYS).label('Request body');

// ---------------------------------------------------------------------------------------------
// The lab's admin: research projects and their questionnaire versions (/api/admin/research-projects)
// ---------------------------------------------------------------------------------------------

export const RESEARCH_PROJECT_NAME_MAX_LENGTH = 200;
export const RESEARCH_PROJECT_MAX_ACCOUNTS = 100;

export interface ResearchProjectBody {
  name: string;
  protocol: string | null;
  consentDocument: string | null;
  /** The accounts taking part: their providers order for the project and fill its study responses. */
  accountIds: number[];
  /** The catalogue tests (panels) the project orders. */
  tests: TestName[];
}
const documentField = (label: string) => Joi.string().trim().max(500).allow(null, '').empty(['', null]).default(null).label(label);
/** POST /api/admin/research-projects and PUT /api/admin/research-projects/{id}: the whole project. */
export const researchProjectBody = Joi.object<ResearchProjectBody>({
  name: Joi.string().trim().min(1).max(RESEARCH_PROJECT_NAME_MAX_LENGTH).label('Name').required(),
  protocol: documentField('Protocol'),
  consentDocument: documentField('Consent document'),
  accountIds: Joi.array().items(Joi.number().integer().positive().label('Account')).min(1).max(RESEARCH_PROJECT_MAX_ACCOUNTS).unique()
    .label('Accounts taking part')
    .messages({ 'array.min': 'Choose at least one account taking part', 'array.unique': 'Each account takes part once' })
    .required(),
  tests: Joi.array().items(Joi.string().valid(...RESEARCH_PROJECT_TESTS).label('Test').messages({ 'any.only': `{#label} must be one of ${RESEARCH_PROJECT_TESTS.join(', ')}` }))
    .min(1).max(RESEARCH_PROJECT_TESTS.length).unique()
    .label('Tests')
    .messages({ 'array.min': 'Choose at least one test the project orders', 'array.unique': 'Each test is named once' })
    .required(),
}).options(STRICT_KEYS).label('Request body');

export interface QuestionnaireDraftBody {
  /** The draft's definition: checked against the questionnaire rules by describeDefinitionProblems. */
  definition: QuestionnaireDefinition;
}
/** PUT /api/admin/research-projects/{id}/questionnaire/draft. */
export const questionnaireDraftBody = Joi.object<QuestionnaireDraftBody>({
  definition: Joi.object().unknown(true).label('Questionnaire').required(),
}).options(STRICT_KEYS).label('Request body');
