/** What the API answers about a patient's texts, as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { SMS_CONSENT_SOURCES } from './sms';

/** The patient's mobile number and text consent now (consentAt and consentSource say when and where it was given). */
export const SmsContact = s.object({
  mobilePhone: s.nullable(s.string),
  smsConsent: s.boolean,
  consentAt: s.nullable(s.string),
  consentSource: s.nullable(s.oneOf(SMS_CONSENT_SOURCES)),
});
export type SmsContact = s.Infer<typeof SmsContact>;

/** POST webhooks/sms/inbound answers TwiML; nothing to describe beyond its type. */
