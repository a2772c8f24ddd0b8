/** Request schemas of the clinic's calls on a sample (values and rules: cancer-diagnosis.ts). */
import Joi from 'joi';
import { RADIATION_TREATMENTS } from '../patients/patients';
import { patientDateOfBirthSchema } from '../patients/schemas';
import {
  CANCER_DETAIL_MAX_LENGTH, CANCER_SITES, CANCER_STAGES, type CancerDiagnosisBody, CancerSite, GLEASON_PATTERN_MAX,
  GLEASON_PATTERN_MIN, PSA_MAX,
} from './cancer-diagnosis';

const STRICT_KEYS = { allowUnknown: false } as const;

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

/** POST sample/{id}/add-cfrt-test: the sample is the path's; the body, if any, is empty. */
export const addCfrtTestBody = Joi.object({}).options(STRICT_KEYS).label('Request body');
