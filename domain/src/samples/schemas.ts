/**
 * Request schemas of samples in the Lab Toolbox: intake (receive, reject), lab-ordered COVID
 * samples (samples/create), and the LIMS correction of a sample's metadata (SPEC §7 lims/…).
 */
import Joi from 'joi';
import { TestName } from '../catalogue/tests';
import { EARLIEST_DATE_OF_BIRTH, PATIENT_NAME_MAX_LENGTH, PATIENT_SEX_LABELS, PATIENT_SEXES, type PatientSex } from '../patients/patients';
import { patientDateOfBirthSchema, patientNameSchema } from '../patients/schemas';
import { LAB_ORDERABLE_TESTS, LAB_SAMPLE_TYPES } from '../pcr/plates';
import { EARLIEST_EVENT_DATE, SCANNED_MAX_LENGTH } from '../shared/constants';
import { isDataDate } from '../shared/dates';
import { KIT_BARCODE_PATTERN, KIT_BARCODE_RULE } from './identifiers';
import { SAMPLE_TYPES, type SampleType } from './sample-types';
import { CONDITION_NOTE_MAX_LENGTH, SPECIMEN_CONDITIONS, type SpecimenCondition } from './specimen-checks';
import { REJECTION_REASONS, type RejectionReason } from './statuses';

const STRICT_KEYS = { allowUnknown: false } as const;
const id = () => Joi.number().integer().positive();

/** How far in the future a typed receipt time may be (clock differences between machines). */
export const RECEIPT_CLOCK_SKEW_MS = 5 * 60_000;

/** A scanned barcode: any text up to 64 characters, even empty, so the answer can say what is wrong with it. */
const scannedBarcode = (label: string) => Joi.string().allow('').max(SCANNED_MAX_LENGTH).label(label);

/** The specimen's condition, required of every scan at intake. */
const conditionSchema = () => Joi.string().valid(...SPECIMEN_CONDITIONS).label('Specimen condition')
  .messages({ 'any.only': `{#label} must be one of: ${SPECIMEN_CONDITIONS.join(', ')}`, 'any.required': '{#label} is required: choose what the specimen looks like' });
const conditionNoteSchema = () => Joi.string().trim().max(CONDITION_NOTE_MAX_LENGTH).allow('').label('Condition note');
const collectedAtSchema = () => Joi.date().iso().min(EARLIEST_EVENT_DATE).label('Collection time')
  .messages({ 'date.format': '{#label} must be a date and time', 'date.base': '{#label} must be a date and time', 'date.min': '{#label} must be after 01/01/2000' });

export interface IntakeReceiveBody {
  barcode: string;
  receivedAt?: Date;
  condition: SpecimenCondition;
  conditionNote?: string;
  /** Required when the order did not give it; when given, it replaces the order's (the change audited). */
  collectedAt?: Date;
  /** Required true for a kit with a requisition: the tube's name and date of birth match it. */
  identityConfirmed?: boolean;
}
/** POST intake/receive: a scanned kit, its condition, collection time and identity check; receivedAt when the kit arrived earlier than it is scanned. */
export const intakeReceiveBody = /*#__PURE__*/ Joi.object<IntakeReceiveBody>({
  barcode: scannedBarcode('Barcode').required(),
  receivedAt: Joi.date().iso().min(EARLIEST_EVENT_DATE).label('Receipt time').messages({ 'date.format': '{#label} must be a date and time', 'date.min': '{#label} must be after 01/01/2000' }),
  condition: conditionSchema().required(),
  conditionNote: conditionNoteSchema(),
  collectedAt: collectedAtSchema(),
  identityConfirmed: Joi.boolean().strict().label('Identity confirmation').messages({ 'boolean.base': '{#label} must be true or false' }),
}).options(STRICT_KEYS).label('Request body');

export interface IntakeRejectBody {
  barcode: string;
  reason: RejectionReason;
  /** Required for a kit rejected at intake (In Transit or Pending Shipment); a sample the lab already has keeps its intake condition. */
  condition?: SpecimenCondition;
  conditionNote?: string;
  collectedAt?: Date;
}
/** POST intake/reject: a kit that cannot be tested, with one of the spec's rejection reasons and, at intake, its condition. */
export const intakeRejectBody = /*#__PURE__*/ Joi.object<IntakeRejectBody>({
  barcode: scannedBarcode('Barcode').required(),
  reason: Joi.string().valid(...REJECTION_REASONS).label('Reason')
    .messages({ 'any.only': `{#label} must be one of: ${REJECTION_REASONS.join('; ')}` }).required(),
  condition: conditionSchema(),
  conditionNote: conditionNoteSchema(),
  collectedAt: collectedAtSchema(),
}).options(STRICT_KEYS).label('Request body');

const personName = (label: string) => Joi.string().trim().min(1).max(PATIENT_NAME_MAX_LENGTH).label(label);

export interface LabNewPatient { firstName: string; lastName: string; dateOfBirth: string; email?: string; phone?: string }
export interface LabSampleCreateBody {
  barcode: string;
  test: TestName;
  sampleType: SampleType;
  collectedAt?: Date;
  receivedAt?: Date;
  /** An existing patient (the sample belongs to the patient's account), or … */
  patientId?: number;
  /** … a new patient, with no account (a lab-ordered test). */
  patient?: LabNewPatient;
}
/** POST samples/create: a lab-ordered sample (origin Lab Ordered), received at once (In Queue). */
export const labSampleCreateBody = /*#__PURE__*/ Joi.object<LabSampleCreateBody>({
  barcode: Joi.string().pattern(KIT_BARCODE_PATTERN).label('Barcode')
    .messages({ 'string.pattern.base': KIT_BARCODE_RULE })
    .required(),
  test: Joi.string().valid(...LAB_ORDERABLE_TESTS).default(TestName.CovidPcr).label('Test')
    .messages({ 'any.only': `{#label} must be one of: ${LAB_ORDERABLE_TESTS.join(', ')}` }),
  sampleType: Joi.string().valid(...LAB_SAMPLE_TYPES).label('Sample type')
    .messages({ 'any.only': `{#label} must be one of: ${LAB_SAMPLE_TYPES.join(', ')}` }).required(),
  collectedAt: Joi.date().iso().min(EARLIEST_EVENT_DATE).max('now').label('Collection time')
    .messages({ 'date.max': '{#label} cannot be in the future', 'date.min': '{#label} must be after 01/01/2000', 'date.format': '{#label} must be a date and time' }),
  receivedAt: Joi.date().iso().min(EARLIEST_EVENT_DATE).max('now').label('Receipt time')
    .messages({ 'date.max': '{#label} cannot be in the future', 'date.min': '{#label} must be after 01/01/2000', 'date.format': '{#label} must be a date and time' }),
  patientId: id().label('Patient'),
  patient: Joi.object<LabNewPatient>({
    firstName: personName('First name').required(),
    lastName: personName('Last name').required(),
    dateOfBirth: Joi.string()
      .custom((value: string, helpers) => {
        if (!isDataDate(value)) return helpers.error('date.data');
        const today = new Date().toISOString().slice(0, 10);
        if (value < EARLIEST_DATE_OF_BIRTH || value > today) return helpers.error('date.range');
        return value;
      })
      .label('Date of birth')
      .messages({
        'date.data': '{#label} must be a real date written YYYY-MM-DD',
        'date.range': `{#label} must be between ${EARLIEST_DATE_OF_BIRTH} and today`,
      })
      .required(),
    email: Joi.string().trim().lowercase().max(254).email({ tlds: false }).allow('').label('Email'),
    phone: Joi.string().trim().pattern(/^\+?[0-9 ().-]{7,20}$/).allow('').label('Phone')
      .messages({ 'string.pattern.base': '{#label} must be a phone number' }),
  }).options(STRICT_KEYS).label('Patient'),
})
  .xor('patientId', 'patient')
  .messages({
    'object.missing': 'Give either an existing patient (patientId) or a new patient (patient)',
    'object.xor': 'Give either an existing patient (patientId) or a new patient (patient), not both',
  })
  .options(STRICT_KEYS)
  .label('Request body');

/** The longest reason a metadata correction may give. */
export const LIMS_REASON_MAX_LENGTH = 500;

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
