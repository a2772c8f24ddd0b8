/**
 * What the Research Portal's endpoints (/api/provider-research/{accountId}/…) and the study
 * responses of both portals answer, as JSON (timestamps ISO strings, dates YYYY-MM-DD): answer
 * shapes (shared/shapes.ts), each a type too.
 */
import * as s from '../shared/shapes';
import { PlacedOrder, PlacedSample, RequisitionFormJob } from '../orders/views';
import { PatientSampleView } from '../patients/views';
import { STUDY_QUESTION_KINDS, type QuestionnaireDefinition } from './questionnaires';

/** A questionnaire definition as JSON Schema (its rules are describeDefinitionProblems'; the type is QuestionnaireDefinition). */
const QUESTION_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'label', 'kind', 'required', 'section'],
  properties: {
    key: { type: 'string' }, label: { type: 'string' }, kind: { enum: [...STUDY_QUESTION_KINDS] }, required: { type: 'boolean' },
    section: { type: 'string' }, help: { type: 'string' },
    showWhen: {
      type: 'object', additionalProperties: false, required: ['question', 'answers'],
      properties: { question: { type: 'string' }, answers: { type: 'array', items: { type: 'string' } } },
    },
    options: { type: 'array', items: { type: 'string' } }, min: { type: 'number' }, max: { type: 'number' }, unit: { type: 'string' },
    integer: { type: 'boolean' }, notBefore: { type: 'string' }, maxLength: { type: 'integer' },
  },
};
export const QuestionnaireDefinitionShape: s.Shape<QuestionnaireDefinition> = {
  schema: { type: 'object', additionalProperties: false, required: ['title', 'questions'], properties: { title: { type: 'string' }, questions: { type: 'array', items: QUESTION_SCHEMA } } },
};

/** One version of a project's questionnaire: what a study response answers. */
export const QuestionnaireVersionView = s.object({
  id: s.integer,
  version: s.integer,
  definition: QuestionnaireDefinitionShape,
});
export type QuestionnaireVersionView = s.Infer<typeof QuestionnaireVersionView>;

/** A research project of the account (GET …/research-projects). */
export const ResearchProjectView = s.object({
  id: s.integer,
  name: s.string,
  protocol: s.nullable(s.string),
  consentDocument: s.nullable(s.string),
  /** The catalogue tests the project uses. */
  tests: s.array(s.string),
  /** The version new participants answer (the latest published one); null while none is published. */
  questionnaire: s.nullable(s.object({ id: s.integer, version: s.integer, title: s.string })),
  /** When the lab closed the project (no new orders; its data kept). */
  closedAt: s.nullable(s.string),
  participants: s.integer,
  incomplete: s.integer,
});
export type ResearchProjectView = s.Infer<typeof ResearchProjectView>;

/** A research participant: a study id, never a name. */
export const ParticipantSummary = s.object({
  id: s.integer,
  studyId: s.nullable(s.string),
  /** The name when the participant is a clinic's patient (clinics know their patients). */
  name: s.string,
  sex: s.nullable(s.string),
});
export type ParticipantSummary = s.Infer<typeof ParticipantSummary>;

/** One study response (GET …/study-responses, and on the participant page). */
export const StudyResponseView = s.object({
  id: s.integer,
  project: s.object({ id: s.integer, name: s.string }),
  /** The version the answers were given under (kept when the project publishes a newer one). */
  questionnaire: QuestionnaireVersionView,
  participant: ParticipantSummary,
  /** The answers by question key (StudyAnswers). */
  answers: s.dictionary(s.union(s.string, s.number)),
  complete: s.boolean,
  /** The keys of the required questions not answered yet. */
  missing: s.array(s.string),
  updatedAt: s.string,
  updatedBy: s.nullable(s.string),
});
export type StudyResponseView = s.Infer<typeof StudyResponseView>;

/** GET provider-research/{accountId}/tests: one research sample. */
export const ResearchTestRow = s.object({
  sampleId: s.integer,
  barcode: s.string,
  status: s.string,
  /** While the sample is In Storage: the status its work left it in (what the portal shows). */
  statusBeforeStorage: s.nullable(s.string),
  rejectionReason: s.nullable(s.string),
  tests: s.array(s.string),
  orderNumber: s.string,
  participant: s.object({ id: s.integer, studyId: s.nullable(s.string) }),
  project: s.nullable(s.object({ id: s.integer, name: s.string })),
  orderedAt: s.string,
  resultedAt: s.nullable(s.string),
  reportAvailable: s.boolean,
});
export type ResearchTestRow = s.Infer<typeof ResearchTestRow>;

/** GET provider-research/{accountId}/patient/{patientId}: the participant page. */
export const ParticipantDetail = s.object({
  participant: s.extend(ParticipantSummary, { createdAt: s.string }),
  samples: s.array(PatientSampleView),
  studyResponses: s.array(StudyResponseView),
});
export type ParticipantDetail = s.Infer<typeof ParticipantDetail>;

/** POST provider-research/{accountId}/order: the order placed for the participant. */
export const CreatedResearchOrder = s.object({
  order: PlacedOrder,
  sample: PlacedSample,
  tests: s.array(s.object({ id: s.integer, name: s.string })),
  participant: s.object({ id: s.integer, studyId: s.string, created: s.boolean }),
  studyResponseId: s.integer,
  physicianId: s.integer,
  requisitionForm: RequisitionFormJob,
});
export type CreatedResearchOrder = s.Infer<typeof CreatedResearchOrder>;

// ---------------------------------------------------------------------------------------------
// The lab's admin (/api/admin/research-projects)
// ---------------------------------------------------------------------------------------------

const AccountRef = s.object({ id: s.integer, name: s.string });

/** A row of the admin's research projects list. */
export const AdminResearchProjectRow = s.object({
  id: s.integer,
  name: s.string,
  tests: s.array(s.string),
  accounts: s.array(AccountRef),
  /** The latest published version's number; null while none is published. */
  publishedVersion: s.nullable(s.integer),
  hasDraft: s.boolean,
  participants: s.integer,
  closedAt: s.nullable(s.string),
  createdAt: s.string,
});
export type AdminResearchProjectRow = s.Infer<typeof AdminResearchProjectRow>;

/** One version as the admin sees it: a draft (changeable) or published (never changes again). */
export const AdminQuestionnaireVersion = s.object({
  id: s.integer,
  version: s.integer,
  definition: QuestionnaireDefinitionShape,
  publishedAt: s.nullable(s.string),
  publishedBy: s.nullable(s.string),
  /** Study responses answered under this version. */
  responses: s.integer,
  updatedAt: s.string,
});
export type AdminQuestionnaireVersion = s.Infer<typeof AdminQuestionnaireVersion>;

/** GET /api/admin/research-projects/{id}: the project, its accounts and every version, newest first. */
export const AdminResearchProjectView = s.extend(AdminResearchProjectRow, {
  protocol: s.nullable(s.string),
  consentDocument: s.nullable(s.string),
  closedBy: s.nullable(s.string),
  versions: s.array(AdminQuestionnaireVersion),
});
export type AdminResearchProjectView = s.Infer<typeof AdminResearchProjectView>;
