/** The request body of the admin's patient release policy (issue 29, part 5): joi, kept apart from the SPA's plain values. */
import Joi from 'joi';
import type { TestName } from '../catalogue/tests';
import {
  DEFAULT_PATIENT_HOLD_DAYS, MAX_PATIENT_HOLD_DAYS, MIN_PATIENT_HOLD_DAYS, PATIENT_RELEASE_POLICIES, PATIENT_RELEASE_TESTS, type PatientReleasePolicy,
} from './patient-release';

export interface PatientReleasePolicyBody {
  testName: TestName;
  policy: PatientReleasePolicy;
  holdDays: number;
}

/** PUT /api/admin/patient-release/policies: one test's policy. */
export const patientReleasePolicyBody = Joi.object<PatientReleasePolicyBody>({
  testName: Joi.string().valid(...PATIENT_RELEASE_TESTS).required().label('Test')
    .messages({ 'any.only': '{#label} must be one of the tests whose results go to patients' }),
  policy: Joi.string().valid(...PATIENT_RELEASE_POLICIES).required().label('Policy'),
  holdDays: Joi.number().integer().min(MIN_PATIENT_HOLD_DAYS).max(MAX_PATIENT_HOLD_DAYS).default(DEFAULT_PATIENT_HOLD_DAYS).label('Days')
    .messages({
      'number.min': `{#label} must be between ${MIN_PATIENT_HOLD_DAYS} and ${MAX_PATIENT_HOLD_DAYS}`,
      'number.max': `{#label} must be between ${MIN_PATIENT_HOLD_DAYS} and ${MAX_PATIENT_HOLD_DAYS}`,
    }),
}).prefs({ allowUnknown: false });
