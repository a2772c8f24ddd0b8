/** The mobile number and text consent fields, as every form that takes them validates them. */
import Joi from 'joi';
import { MOBILE_PHONE_MESSAGE, normaliseMobile, SMS_CONSENT_NEEDS_NUMBER } from './sms';


/**
 * A mobile number for texts: normalised to E.164 (a US number may be typed without +1); left out,
 * '' or null is no number.
 */
export const mobilePhoneSchema = Joi.string().trim().max(30).empty(['', null]).default(null)
  .custom((value: string, helpers) => normaliseMobile(value) ?? helpers.error('mobile.invalid'))
  .label('Mobile phone')
  .messages({ 'mobile.invalid': `{#label} ${MOBILE_PHONE_MESSAGE}`, 'string.max': `{#label} ${MOBILE_PHONE_MESSAGE}` });

/** Whether the patient agrees to get their notices by text as well as by email. */
export const smsConsentSchema = Joi.boolean().strict().label('Text message consent')
  .messages({ 'boolean.base': '{#label} must be true or false' });


/**
 * The two fields of a form that creates a patient (the patient's order, the clinic's new patient):
 * a number or none, and consent (false unless given), refused on `smsConsent` without a number.
 */
export const newPatientSmsFields = {
  mobilePhone: mobilePhoneSchema,
  smsConsent: smsConsentSchema.default(false)
    .when('mobilePhone', { is: null, then: Joi.valid(false).messages({ 'any.only': SMS_CONSENT_NEEDS_NUMBER }) }),
};

export interface SmsContactInput {
  /** E.164, null to remove it; undefined leaves it as it is. */
  mobilePhone?: string | null;
  /** undefined leaves it as it is. */
  smsConsent?: boolean;
}

export interface PatientTextsBody { mobilePhone: string | null; smsConsent: boolean }
/** PUT provider-clinic/{accountId}/patient/{patientId}/text-messages: the number the patient gave the clinic and their consent. */
export const patientTextsBody = Joi.object<PatientTextsBody>({
  mobilePhone: mobilePhoneSchema,
  smsConsent: smsConsentSchema.required(),
}).options({ allowUnknown: false }).label('Request body');
