/** What the API answers about a patient's texts, as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { SMS_CONSENT_SOURCES, TEXT_MESSAGE_KINDS, TEXT_MESSAGE_STATUSES } from './sms';

/** The patient's mobile number and text consent now (consentAt and consentSource say when and where it was given). */
export const SmsContact = s.object({
  mobilePhone: s.nullable(s.string),
  smsConsent: s.boolean,
  consentAt: s.nullable(s.string),
  consentSource: s.nullable(s.oneOf(SMS_CONSENT_SOURCES)),
});
export type SmsContact = s.Infer<typeof SmsContact>;

/** One text to the patient as the clinic sees it: what kind, its status and why it was not sent (never its words). */
export const TextMessageRow = s.object({
  id: s.integer,
  kind: s.oneOf(TEXT_MESSAGE_KINDS),
  status: s.oneOf(TEXT_MESSAGE_STATUSES),
  error: s.nullable(s.string),
  createdAt: s.string,
  sentAt: s.nullable(s.string),
});
export type TextMessageRow = s.Infer<typeof TextMessageRow>;

/** GET / PUT provider-clinic/{accountId}/patient/{patientId}/text-messages: the patient's texts settings, whether the number replied STOP, and the latest texts. */
export const ClinicPatientTexts = s.object({
  texts: SmsContact,
  optedOut: s.boolean,
  messages: s.array(TextMessageRow),
});
export type ClinicPatientTexts = s.Infer<typeof ClinicPatientTexts>;
