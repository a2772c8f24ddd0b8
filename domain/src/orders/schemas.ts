/**
 * Request schemas of the clinic's order: its tests, sample type and the ordering attestations
 * (shared with the Research Portal's order), and the requisition form's download.
 */
import Joi from 'joi';
import { canOrderIn, isTestName } from '../catalogue/catalogue';
import type { TestName } from '../catalogue/tests';
import { SAMPLE_TYPES, type SampleType } from '../samples/sample-types';
import { EARLIEST_EVENT_DATE } from '../shared/constants';
import { isDataDate } from '../shared/dates';
import { type Attestations, ORDER_ATTESTATIONS } from './attestations';
import { diagnosisCodesSchema } from './diagnosis-schemas';
import { ORDER_MAX_TESTS, Portal } from './orders';

const STRICT_KEYS = { allowUnknown: false } as const;

export interface ClinicOrderBody {
  patientId: number;
  tests: TestName[];
  physicianId: number;
  sampleType: SampleType;
  attestations: Attestations;
  /** When the clinic collected the sample, if it already has (not in the future, at most a day before the order). */
  collectedAt?: Date;
  /** ICD-10-CM codes, normalized (no dot); required when a test is billed (diagnosisRequiredFor), checked against the code list by the server. */
  diagnosisCodes: string[];
}

const attestationSchema = (a: (typeof ORDER_ATTESTATIONS)[number]) =>
  Joi.boolean()
    .strict()
    .valid(true)
    .label(`Attestation of ${a.short}`)
    .messages({
      'any.only': `The attestation of ${a.short} must be confirmed`,
      'any.required': `The attestation of ${a.short} must be confirmed`,
      'boolean.base': `The attestation of ${a.short} must be confirmed`,
    })
    .required();

/** The tests of an order placed in `portal`: catalogue tests that portal may order, each once. */
export const orderTestsSchema = (portal: Portal) =>
  Joi.array()
    .items(
      // A custom rule, not valid(): joi accepts a listed value without running further rules.
      Joi.string()
        .custom((value: string, helpers) => {
          if (!isTestName(value)) return helpers.error('test.unknown');
          return canOrderIn(value, portal) ? value : helpers.error('test.portal');
        })
        .label('Test')
        .messages({
          'test.unknown': '{#value} is not a test of the catalogue',
          'test.portal': `{#value} cannot be ordered in the ${portal}`,
        }),
    )
    .min(1)
    .max(ORDER_MAX_TESTS)
    .unique()
    .label('Tests')
    .messages({ 'array.min': 'Choose at least one test', 'array.unique': 'Each test may be chosen once' });

/** The sample type of an order. */
export const orderSampleTypeSchema = Joi.string()
  .valid(...SAMPLE_TYPES)
  .label('Sample type')
  .messages({ 'any.only': `{#label} must be one of ${SAMPLE_TYPES.join(', ')}` });

/** The ordering attestations an order confirms: those of the list given (every one, each true). */
export const attestationsSchema = (attestations: readonly (typeof ORDER_ATTESTATIONS)[number][]) =>
  Joi.object(Object.fromEntries(attestations.map((a) => [a.key, attestationSchema(a)])))
    .options(STRICT_KEYS)
    .label('Attestations');

/** POST provider-clinic/{accountId}/order */
export const clinicOrderBody = Joi.object<ClinicOrderBody>({
  patientId: Joi.number().integer().positive().label('Patient').required(),
  tests: orderTestsSchema(Portal.Clinical).required(),
  physicianId: Joi.number().integer().positive().label('Physician').required(),
  sampleType: orderSampleTypeSchema.required(),
  attestations: attestationsSchema(ORDER_ATTESTATIONS).required(),
  collectedAt: Joi.date().iso().min(EARLIEST_EVENT_DATE).label('Collection time')
    .messages({ 'date.format': '{#label} must be a date and time', 'date.base': '{#label} must be a date and time', 'date.min': '{#label} must be after 01/01/2000' }),
  diagnosisCodes: diagnosisCodesSchema.default([]),
}).options(STRICT_KEYS).label('Request body');

export interface RequisitionDownloadQuery { dob?: string }
/** GET sample/{barcode}/pdf_order?dob=YYYY-MM-DD */
export const requisitionDownloadQuery = Joi.object<RequisitionDownloadQuery>({
  dob: Joi.string()
    .custom((value: string, helpers) => (isDataDate(value) ? value : helpers.error('date.format')))
    .label('dob')
    .messages({ 'date.format': '{#label} must be a date written YYYY-MM-DD' }),
}).options(STRICT_KEYS).label('Query');
