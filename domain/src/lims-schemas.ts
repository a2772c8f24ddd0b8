/**
 * The LIMS calls (SPEC §7 lims/…, read through SPEC-NOTES.md: the lab's own data, for lab staff)
 * and the cross-account patient search (sfpatient/search, lab staff and admins): request schemas
 * and the shapes they answer. Shared by api (validation) and web (forms, labels).
 */
import Joi from 'joi';
import { DEFAULT_PAGE_SIZE, EARLIEST_EVENT_DATE, MAX_PAGE_SIZE } from './constants';
import { SAMPLE_TYPES, type SampleStatus, type SampleType } from './enums';
import { PATIENT_SEX_LABELS, PATIENT_SEXES, type PatientSex } from './orders';
import { patientDateOfBirthSchema, patientNameSchema } from './provider-schemas';
import type { PatientSummary, TimelineEntry } from './provider-views';

const STRICT_KEYS = { allowUnknown: false } as const;

/** The longest reason a metadata correction may give. */
export const LIMS_REASON_MAX_LENGTH = 500;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

export interface LimsAccountsQuery { q: string; page: number; pageSize: number }
/** GET lims/accounts?q=&page=&pageSize=: every account (active or not), by name. */
export const limsAccountsQuery = /*#__PURE__*/ Joi.object<LimsAccountsQuery>({
  q: Joi.string().trim().max(100).allow('').default('').label('Search'),
  page: Joi.number().integer().min(1).default(1).label('Page'),
  pageSize: Joi.number().integer().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).label('Page size'),
}).options(STRICT_KEYS).label('Query');

/** What a correction may change of the sample's patient. */
export interface LimsPatientCorrection { firstName?: string; lastName?: string; dateOfBirth?: string; sex?: PatientSex }

export interface LimsSampleUpdateBody {
  sampleId: number;
  /** Why the metadata is corrected: required, kept in the audit trail with the old and new values. */
  reason: string;
  sampleType?: SampleType;
  collectedAt?: Date;
  patient?: LimsPatientCorrection;
}

/** The fields of a sample and its patient a correction may change (the audit's keys). */
export const LIMS_CORRECTABLE_FIELDS = ['sampleType', 'collectedAt', 'patient.firstName', 'patient.lastName', 'patient.dateOfBirth', 'patient.sex'] as const;
export type LimsCorrectableField = (typeof LIMS_CORRECTABLE_FIELDS)[number];

/** POST lims/sample/update: a correction of a sample's metadata, with its reason. */
export const limsSampleUpdateBody = /*#__PURE__*/ Joi.object<LimsSampleUpdateBody>({
  sampleId: Joi.number().integer().positive().label('Sample').required(),
  reason: Joi.string().trim().min(1).max(LIMS_REASON_MAX_LENGTH).label('Reason')
    .messages({
      'any.required': '{#label} is required: say why the sample is corrected',
      'string.empty': '{#label} is required: say why the sample is corrected',
    })
    .required(),
  sampleType: Joi.string().valid(...SAMPLE_TYPES).label('Sample type')
    .messages({ 'any.only': `{#label} must be one of: ${SAMPLE_TYPES.join(', ')}` }),
  collectedAt: Joi.date().iso().min(EARLIEST_EVENT_DATE).max('now').label('Collection time')
    .messages({ 'date.max': '{#label} cannot be in the future', 'date.min': '{#label} must be after 01/01/2000', 'date.format': '{#label} must be a date and time' }),
  patient: Joi.object<LimsPatientCorrection>({
    firstName: patientNameSchema('First name'),
    lastName: patientNameSchema('Last name'),
    dateOfBirth: patientDateOfBirthSchema,
    sex: Joi.string().valid(...PATIENT_SEXES).label('Sex')
      .messages({ 'any.only': `{#label} must be one of ${PATIENT_SEXES.map((s) => `${s} (${PATIENT_SEX_LABELS[s]})`).join(', ')}` }),
  }).min(1).options(STRICT_KEYS).label('Patient')
    .messages({ 'object.min': 'Patient must name at least one field to correct' }),
})
  .or('sampleType', 'collectedAt', 'patient')
  .messages({ 'object.missing': 'Give at least one correction: sample type, collection time or patient details' })
  .options(STRICT_KEYS)
  .label('Request body');

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** GET lims/accounts (rows; x-total-count). */
export interface LimsAccountRow {
  id: number;
  name: string;
  type: string;
  isActive: boolean;
  clinicAccess: boolean;
  researchAccess: boolean;
  eapPartner: boolean;
  international: boolean;
}

/** GET lims/accounts/{id}/departments */
export interface LimsDepartment { id: number; name: string }

/** GET lims/accounts/{id}/physicians */
export interface LimsPhysician { id: number; name: string; firstName: string; lastName: string; npi: string | null; specialty: string | null }

/** GET lims/contact/technicians: the lab's people; userId is their lab user (what the review list filters on). */
export interface LimsTechnician { id: number; userId: number | null; name: string; firstName: string; lastName: string; email: string | null; active: boolean }

/** A test of a sample and its newest result version (null before any). */
export interface LimsSampleTest {
  id: number;
  name: string;
  status: string;
  result: { id: number; version: number; value: string; status: string; enteredAt: string; releasedAt: string | null } | null;
}

/** GET lims/sample/{id}: one sample, found by its id or its barcode. */
export interface LimsSampleView {
  id: number;
  barcode: string;
  status: SampleStatus;
  /** While In Storage: the status it goes back to. */
  statusBeforeStorage: string | null;
  sampleType: string | null;
  specimenSource: string | null;
  collectedAt: string | null;
  receivedAt: string | null;
  receivedBy: { id: number; name: string } | null;
  rejectionReason: string | null;
  order: { id: number; orderNumber: string; origin: string; portal: string; orderedAt: string };
  /** Null for a sample of a patient who ordered for themselves, or a lab-ordered one. */
  account: { id: number; name: string } | null;
  physician: { id: number; name: string; npi: string | null } | null;
  /** A research participant has a study id and no name or date of birth. */
  patient: Pick<PatientSummary, 'id' | 'sex'> & { firstName: string | null; lastName: string | null; dateOfBirth: string | null; studyId: string | null };
  tests: LimsSampleTest[];
  timeline: TimelineEntry[];
}

/** POST lims/sample/update: the sample as it is now, and what changed (old and new values). */
export interface LimsSampleUpdated {
  sample: LimsSampleView;
  changes: { field: LimsCorrectableField; from: string | null; to: string | null }[];
}

/** GET lims/sample/auth/{barcode}: before intake, is this a kit the lab issued, to whom, in which status. */
export interface LimsKitAuth {
  barcode: string;
  issued: boolean;
  sampleId: number | null;
  account: { id: number; name: string } | null;
  status: SampleStatus | null;
  tests: string[];
  /** True when intake may receive it now (In Transit or Pending Shipment). */
  receivable: boolean;
  message: string;
}

/** POST sfpatient/search: a patient of any account, with their samples. */
export interface CrossAccountPatientRow extends PatientSummary {
  /** Null for a patient who orders for themselves (or one the lab registered). */
  account: { id: number; name: string } | null;
  samples: { id: number; barcode: string; status: string }[];
}

export interface CrossAccountPatientSearchAnswer {
  rows: CrossAccountPatientRow[];
  total: number;
}
