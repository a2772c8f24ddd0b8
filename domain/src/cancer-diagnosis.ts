/**
 * A patient's cancer diagnosis, registered by the clinic for a sample (SPEC §7
 * sample/patient-register-cancer), and the PROSTOX CFRT test a clinic adds to a sample it already
 * collected (sample/{id}/add-cfrt-test). The values, the rules and the request schemas, once.
 */
import Joi from 'joi';
import { RADIATION_TREATMENTS, SampleStatus, valuesOf, type RadiationTreatment } from './enums';
import { patientDateOfBirthSchema } from './provider-schemas';

const STRICT_KEYS = { allowUnknown: false } as const;

/** Where the cancer is (the tests' cancers; anything else is Other, with its name). */
export const CancerSite = {
  Prostate: 'Prostate',
  HeadAndNeck: 'Head and neck',
  Breast: 'Breast',
  Rectum: 'Rectum',
  Sarcoma: 'Sarcoma',
  Other: 'Other',
} as const;
export type CancerSite = (typeof CancerSite)[keyof typeof CancerSite];
export const CANCER_SITES = valuesOf(CancerSite);

/** The AJCC stage group, or Unknown. */
export const CANCER_STAGES = ['I', 'II', 'IIA', 'IIB', 'IIC', 'III', 'IIIA', 'IIIB', 'IIIC', 'IV', 'IVA', 'IVB', 'Unknown'] as const;
export type CancerStage = (typeof CANCER_STAGES)[number];

/** Gleason pattern (primary and secondary, prostate only): 3 to 5. */
export const GLEASON_PATTERN_MIN = 3;
export const GLEASON_PATTERN_MAX = 5;

/** The ISUP grade group of a Gleason primary + secondary pattern. */
export function gradeGroup(primary: number, secondary: number): number {
  const score = primary + secondary;
  if (score <= 6) return 1;
  if (score === 7) return primary === 3 ? 2 : 3;
  return score === 8 ? 4 : 5;
}

export const CANCER_DETAIL_MAX_LENGTH = 200;
export const PSA_MAX = 10_000;

export interface CancerDiagnosisBody {
  sampleId: number;
  site: CancerSite;
  /** The cancer's name when the site is Other; a histology note otherwise (optional). */
  diagnosis?: string | null;
  diagnosedOn: string;
  stage?: CancerStage | null;
  gleasonPrimary?: number | null;
  gleasonSecondary?: number | null;
  /** PSA at diagnosis, ng/mL (prostate only). */
  psa?: number | null;
  plannedTreatment?: RadiationTreatment | null;
}

const gleason = (label: string) => Joi.number().integer().min(GLEASON_PATTERN_MIN).max(GLEASON_PATTERN_MAX).allow(null).label(label)
  .messages({ 'number.min': `{#label} must be ${GLEASON_PATTERN_MIN} to ${GLEASON_PATTERN_MAX}`, 'number.max': `{#label} must be ${GLEASON_PATTERN_MIN} to ${GLEASON_PATTERN_MAX}` });
const prostateOnly = { is: Joi.not(CancerSite.Prostate), then: Joi.valid(null).messages({ 'any.only': '{#label} applies to prostate cancer only' }) };

/** POST provider-clinic/{accountId}/sample/patient-register-cancer: one diagnosis per sample (a second registration replaces it). */
export const cancerDiagnosisBody = Joi.object<CancerDiagnosisBody>({
  sampleId: Joi.number().integer().positive().label('Sample').required(),
  site: Joi.string().valid(...CANCER_SITES).label('Cancer').messages({ 'any.only': `{#label} must be one of ${CANCER_SITES.join(', ')}` }).required(),
  diagnosis: Joi.string().trim().max(CANCER_DETAIL_MAX_LENGTH).allow('', null).label('Diagnosis')
    .when('site', { is: CancerSite.Other, then: Joi.string().trim().min(1).required().messages({ 'any.required': 'Name the cancer', 'string.empty': 'Name the cancer' }) }),
  diagnosedOn: patientDateOfBirthSchema.label('Date of diagnosis').required(),
  stage: Joi.string().valid(...CANCER_STAGES).allow(null).label('Stage').messages({ 'any.only': `{#label} must be one of ${CANCER_STAGES.join(', ')}` }),
  gleasonPrimary: gleason('Gleason primary pattern').when('site', prostateOnly),
  gleasonSecondary: gleason('Gleason secondary pattern').when('site', prostateOnly),
  psa: Joi.number().min(0).max(PSA_MAX).precision(2).allow(null).label('PSA').when('site', prostateOnly),
  plannedTreatment: Joi.string().valid(...RADIATION_TREATMENTS).allow(null).label('Planned radiation treatment')
    .messages({ 'any.only': `{#label} must be one of ${RADIATION_TREATMENTS.join(', ')}` }),
})
  .custom((body: CancerDiagnosisBody, helpers) => {
    // Both Gleason patterns, or neither: the missing one is the field named.
    const primary = body.gleasonPrimary ?? null;
    const secondary = body.gleasonSecondary ?? null;
    if ((primary === null) === (secondary === null)) return body;
    const path = [primary === null ? 'gleasonPrimary' : 'gleasonSecondary'];
    return helpers.error('any.custom', { path } as never, { path } as never);
  })
  .messages({ 'any.custom': 'Give both Gleason patterns, or neither' })
  .options(STRICT_KEYS).label('Request body');

/** What the clinic sees of a sample's registered diagnosis. */
export interface CancerDiagnosisView extends Required<Omit<CancerDiagnosisBody, 'sampleId'>> {
  sampleId: number;
  gradeGroup: number | null;
  recordedAt: string;
}

/** The statuses a sample may get a test added in: not yet past testing (a stored sample counts by the status it left). */
export const ADD_TEST_SAMPLE_STATUSES: readonly SampleStatus[] = [
  SampleStatus.OrderPlaced, SampleStatus.PendingShipment, SampleStatus.InTransit, SampleStatus.InQueue, SampleStatus.InTesting,
];

/** POST sample/{id}/add-cfrt-test: the sample is the path's; the body, if any, is empty. */
export const addCfrtTestBody = Joi.object({}).options(STRICT_KEYS).label('Request body');
