/**
 * Request schemas of the result pages: the patient's tokened result link (open, verify the date
 * of birth, log a view, update contact details, download the report) and the provider's re-send
 * of that link. Unknown keys refused, every field labelled, no message repeats a token or a date
 * of birth back.
 */
import Joi from 'joi';
import type { Language } from '../messages';
import { EMAIL_MAX_LENGTH } from '../shared/constants';
import { languageSchema } from '../shared/schemas';
import { DEMOGRAPHIC_FIELDS, RESULT_BARCODE_MAX_LENGTH, RESULT_LINK_TOKEN_HEX_LENGTH } from './result-links';
import { mobilePhoneSchema, smsConsentSchema } from '../sms/schemas';

const STRICT_KEYS = { allowUnknown: false } as const;

export const resultLinkTokenSchema = Joi.string()
  .hex()
  .length(RESULT_LINK_TOKEN_HEX_LENGTH)
  .label('Token')
  .messages({
    'string.hex': 'This result link is not valid',
    'string.length': 'This result link is not valid',
    'string.base': 'This result link is not valid',
  });

export const resultBarcodeSchema = Joi.string()
  .max(RESULT_BARCODE_MAX_LENGTH)
  .pattern(/^[A-Za-z0-9_.-]+$/)
  .label('Barcode')
  .messages({ 'string.pattern.base': '{#label} is not valid' });

/** A date of birth as sent by the result page: YYYY-MM-DD, a real calendar date. */
export const dateOfBirthSchema = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .custom((value: string, helpers) => {
    const [y, m, d] = value.split('-').map(Number);
    const date = new Date(Date.UTC(y, m - 1, d));
    const real = date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
    if (!real || y < 1900 || date.getTime() > Date.now()) return helpers.error('date.real');
    return value;
  })
  .label('Date of birth')
  .messages({
    'string.pattern.base': '{#label} must be a date (month, day and year)',
    'date.real': '{#label} must be a real date in the past',
  });

export interface PatientResultLinkQuery { token: string }
/** GET the result link's greeting (and, once verified, the result): the token from the emailed link. */
export const patientResultLinkQuery = Joi.object<PatientResultLinkQuery>({
  token: resultLinkTokenSchema.required(),
}).options(STRICT_KEYS).label('Query');

export interface ResultLinkBody { barcode: string; token: string }
const linkKeys = {
  barcode: resultBarcodeSchema.required(),
  token: resultLinkTokenSchema.required(),
};

export interface VerifyPatientBody extends ResultLinkBody { dateOfBirth: string }
/** POST verify-patient: the link's barcode and token, and the date of birth the patient typed. */
export const verifyPatientBody = Joi.object<VerifyPatientBody>({
  ...linkKeys,
  dateOfBirth: dateOfBirthSchema.required(),
}).options(STRICT_KEYS).label('Request body');

/** POST log-view-result: the page shows the result (once per view). */
export const logViewResultBody = Joi.object<ResultLinkBody>(linkKeys).options(STRICT_KEYS).label('Request body');

export interface SetLanguageBody extends ResultLinkBody { language: Language }
/** POST set-language: the verified patient chose the language of their pages and emails. */
export const setLanguageBody = Joi.object<SetLanguageBody>({
  ...linkKeys,
  language: languageSchema.required(),
}).options(STRICT_KEYS).label('Request body');

export interface UpdateDemographicInfoBody extends ResultLinkBody {
  email?: string;
  phone?: string;
  addressLine1?: string;
  addressLine2?: string;
  city?: string;
  state?: string;
  postalCode?: string;
}

const text = (label: string, max: number) => Joi.string().trim().min(1).max(max).label(label)
  .messages({ 'string.empty': '{#label} cannot be empty', 'string.min': '{#label} cannot be empty' });

/** POST update-demographic-info: at least one contact field; unknown fields are refused. */
export const updateDemographicInfoBody = Joi.object<UpdateDemographicInfoBody>({
  ...linkKeys,
  email: Joi.string().trim().lowercase().max(EMAIL_MAX_LENGTH).email({ tlds: false }).label('Email')
    .messages({ 'string.email': '{#label} must be a valid email address', 'string.empty': '{#label} cannot be empty' }),
  phone: Joi.string().trim().pattern(/^\+?[0-9 ().-]{7,20}$/).label('Phone')
    .messages({ 'string.pattern.base': '{#label} must be a phone number (digits, spaces, + ( ) - .)', 'string.empty': '{#label} cannot be empty' }),
  addressLine1: text('Address', 200),
  addressLine2: Joi.string().trim().max(200).allow('').label('Address line 2'),
  city: text('City', 100),
  state: text('State', 50),
  postalCode: Joi.string().trim().pattern(/^[A-Za-z0-9 -]{3,12}$/).label('Postal code')
    .messages({ 'string.pattern.base': '{#label} must be 3 to 12 letters, digits, spaces or hyphens', 'string.empty': '{#label} cannot be empty' }),
})
  .or(...DEMOGRAPHIC_FIELDS)
  .messages({ 'object.missing': 'Change at least one contact detail' })
  .options(STRICT_KEYS)
  .label('Request body');

export interface SetTextMessagesBody extends ResultLinkBody { mobilePhone: string | null; smsConsent: boolean }
/** POST set-text-messages: the verified patient's mobile number (E.164 once read) and whether they want texts. */
export const setTextMessagesBody = Joi.object<SetTextMessagesBody>({
  ...linkKeys,
  mobilePhone: mobilePhoneSchema,
  smsConsent: smsConsentSchema.required(),
}).options(STRICT_KEYS).label('Request body');

export interface SendResultEmailBody { sampleId: number }
/** POST patient/send-result-email (and send-cancer-result-email): the sample whose result link is (re)sent. */
export const sendResultEmailBody = Joi.object<SendResultEmailBody>({
  sampleId: Joi.number().integer().positive().label('Sample').required(),
}).options(STRICT_KEYS).label('Request body');
