/**
 * What the Research Portal's endpoints (/api/provider-research/{accountId}/…) and the study
 * responses of both portals answer, as JSON (timestamps ISO strings, dates YYYY-MM-DD): answer
 * shapes (shared/shapes.ts), each a type too.
 */
import * as s from '../shared/shapes';
import { PlacedOrder, PlacedSample, RequisitionFormJob } from '../orders/views';
import { PatientSampleView } from '../patients/views';

/** A research project of the account (GET …/research-projects). */
export const ResearchProjectView = s.object({
  id: s.integer,
  name: s.string,
  protocol: s.nullable(s.string),
  consentDocument: s.nullable(s.string),
  /** The catalogue tests the project uses. */
  tests: s.array(s.string),
  questionnaire: s.object({ id: s.string, title: s.string }),
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
  project: s.object({ id: s.integer, name: s.string, questionnaireId: s.string }),
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
