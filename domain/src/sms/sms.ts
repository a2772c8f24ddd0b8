/**
 * Text messages (SMS) to patients: which numbers we text, how consent is recorded, the statuses of
 * a message, and the words Twilio treats as an opt-out or an opt-in. The texts themselves are in
 * the message catalogues (messages/en.ts, es.ts: `sms.`), beside the emails' words.
 */
import { valuesOf } from '../shared/values';

/** A text message's row: Pending until sent; Sent once Twilio took it; Not sent (with why) when the patient may not be texted; Failed after the last attempt. */
export const TextMessageStatus = { Pending: 'Pending', Sent: 'Sent', NotSent: 'Not sent', Failed: 'Failed' } as const;
export type TextMessageStatus = (typeof TextMessageStatus)[keyof typeof TextMessageStatus];
export const TEXT_MESSAGE_STATUSES = valuesOf(TextMessageStatus);

/** The notices a patient may get by text (each also goes by email). */
export const TextMessageKind = { ResultReady: 'result-ready', KitShipped: 'kit-shipped', KitDelivered: 'kit-delivered' } as const;
export type TextMessageKind = (typeof TextMessageKind)[keyof typeof TextMessageKind];
export const TEXT_MESSAGE_KINDS = valuesOf(TextMessageKind);

/** Where the patient gave (or took back) their consent to texts: kept with when, and audited. */
export const SmsConsentSource = { PatientOrder: 'patient-order', ResultPage: 'result-page', Clinic: 'clinic' } as const;
export type SmsConsentSource = (typeof SmsConsentSource)[keyof typeof SmsConsentSource];
export const SMS_CONSENT_SOURCES = valuesOf(SmsConsentSource);

/** Why a message was not sent (the row's reason, as the admin reads it). */
export const NOT_SENT_REASONS = {
  optedOut: 'The number replied STOP (opted out of texts)',
  noConsent: 'The patient no longer consents to texts',
  numberChanged: 'The patient\'s mobile number changed since the message was written',
} as const;

/**
 * Twilio's default opt-out and opt-in keywords (Advanced Opt-Out): a reply that is exactly one of
 * these words (any case, surrounding spaces ignored) stops or restarts texts to the number.
 */
export const SMS_OPT_OUT_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'] as const;
export const SMS_OPT_IN_KEYWORDS = ['START', 'UNSTOP'] as const;

export type SmsKeywordAction = 'opt-out' | 'opt-in' | null;

/** What an inbound text asks: to stop, to start again, or nothing we act on. */
export function smsKeywordAction(body: string): SmsKeywordAction {
  const word = body.trim().toUpperCase();
  if ((SMS_OPT_OUT_KEYWORDS as readonly string[]).includes(word)) return 'opt-out';
  if ((SMS_OPT_IN_KEYWORDS as readonly string[]).includes(word)) return 'opt-in';
  return null;
}

/** Consent to texts without a mobile number is refused (the server's check, and the forms' words). */
export const SMS_CONSENT_NEEDS_NUMBER = 'Give a mobile number to get texts';

/** What a number that is not one is told (after the field's label). */
export const MOBILE_PHONE_MESSAGE = 'must be a mobile number, e.g. (415) 555-0134 or +44 7700 900123';

/** Twilio's error code for a message to a number that replied STOP. */
export const TWILIO_UNSUBSCRIBED_ERROR = 21610;

/**
 * A mobile number as typed, in E.164 (+ and 8 to 15 digits), or null when it is not one. Spaces,
 * dashes, dots and parentheses are dropped; a number without + is read as a US (NANP) number: ten
 * digits, or eleven starting with 1, whose area code and exchange do not start with 0 or 1.
 */
export function normaliseMobile(input: string): string | null {
  const trimmed = input.trim();
  if (!/^\+?[\d ().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+')) {
    if (digits.startsWith('1')) return nanp(digits.slice(1));
    return /^[1-9]\d{7,14}$/.test(digits) ? `+${digits}` : null;
  }
  if (digits.length === 11 && digits.startsWith('1')) return nanp(digits.slice(1));
  return digits.length === 10 ? nanp(digits) : null;
}

function nanp(ten: string): string | null {
  return /^[2-9]\d{2}[2-9]\d{6}$/.test(ten) ? `+1${ten}` : null;
}

/** The number as the audit keeps it: its last four digits only. */
export const maskedMobile = (e164: string | null) => (e164 ? `…${e164.slice(-4)}` : null);

/** A text stays within one SMS segment's worth of characters times this (a link makes it two or three). */
export const SMS_MAX_LENGTH = 480;
