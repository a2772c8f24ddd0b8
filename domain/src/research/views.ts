/**
 * What the Research Portal's endpoints (/api/provider-research/{accountId}/…) and the study
 * responses of both portals answer, as JSON: timestamps ISO strings, dates YYYY-MM-DD. Types only.
 */
import type { PatientSampleView } from '../patients/views';
import type { StudyAnswers } from './research';

/** A research project of the account (GET …/research-projects). */
export interface ResearchProjectView {
  id: number;
  name: string;
  protocol: string | null;
  consentDocument: string | null;
  /** The catalogue tests the project uses. */
  tests: string[];
  questionnaire: { id: string; title: string };
  participants: number;
  incomplete: number;
}

/** A research participant: a study id, never a name. */
export interface ParticipantSummary {
  id: number;
  studyId: string | null;
  /** The name when the participant is a clinic's patient (clinics know their patients). */
  name: string;
  sex: string | null;
}

/** One study response (GET …/study-responses, and on the participant page). */
export interface StudyResponseView {
  id: number;
  project: { id: number; name: string; questionnaireId: string };
  participant: ParticipantSummary;
  answers: StudyAnswers;
  complete: boolean;
  /** The keys of the required questions not answered yet. */
  missing: string[];
  updatedAt: string;
  updatedBy: string | null;
}

/** GET provider-research/{accountId}/tests: one research sample. */
export interface ResearchTestRow {
  sampleId: number;
  barcode: string;
  status: string;
  /** While the sample is In Storage: the status its work left it in (what the portal shows). */
  statusBeforeStorage: string | null;
  rejectionReason: string | null;
  tests: string[];
  orderNumber: string;
  participant: { id: number; studyId: string | null };
  project: { id: number; name: string } | null;
  orderedAt: string;
  resultedAt: string | null;
  reportAvailable: boolean;
}

/** GET provider-research/{accountId}/patient/{patientId}: the participant page. */
export interface ParticipantDetail {
  participant: ParticipantSummary & { createdAt: string };
  samples: PatientSampleView[];
  studyResponses: StudyResponseView[];
}

/** POST provider-research/{accountId}/order: the order placed for the participant. */
export interface CreatedResearchOrder {
  order: { id: number; orderNumber: string; createdAt: string; origin: string; portal: string };
  sample: { id: number; barcode: string; status: string; sampleType: string };
  tests: { id: number; name: string }[];
  participant: { id: number; studyId: string; created: boolean };
  studyResponseId: number;
  physicianId: number;
  requisitionForm: { url: string; jobId: number };
}
