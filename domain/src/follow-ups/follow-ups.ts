/**
 * Follow-ups of a sample's patient, answered through an emailed single-use link (no sign-in):
 * - the PROSTOX registry survey: patient-reported urinary and bowel outcomes, scheduled at 3, 6
 *   and 12 months after a PROSTOX result is released, one reminder when unanswered;
 * - a question the lab or the clinic asks about a sample (to confirm collection details before a
 *   recollection, say), answered yes / no / other with a comment; the answer goes on the sample's
 *   timeline.
 * The schedule rules, the questionnaire as data and the statuses live here, once (the request
 * schemas in schemas.ts, apart so the SPA's bundle has no joi); every layer reads them.
 */
import { catalogueEntry, isTestName } from '../catalogue/catalogue';
import type { InSpanish } from '../messages';
import * as s from '../shared/shapes';
import { addLabMonths } from '../shared/lab-clock';
import { valuesOf } from '../shared/values';

// ---------------------------------------------------------------------------------------------
// What a follow-up is, and where it stands
// ---------------------------------------------------------------------------------------------

export const FollowUpKind = { RegistrySurvey: 'registry-survey', Question: 'question' } as const;
export type FollowUpKind = (typeof FollowUpKind)[keyof typeof FollowUpKind];
export const FOLLOW_UP_KINDS = valuesOf(FollowUpKind);

/**
 * Scheduled (waiting for its date) → Sent (the email with the link is queued) → Reminded (the one
 * reminder is queued) → Answered. A patient with no email address: Not Sendable, once, no retry loop.
 */
export const FollowUpStatus = {
  Scheduled: 'Scheduled',
  Sent: 'Sent',
  Reminded: 'Reminded',
  Answered: 'Answered',
  NotSendable: 'Not Sendable',
} as const;
export type FollowUpStatus = (typeof FollowUpStatus)[keyof typeof FollowUpStatus];
export const FOLLOW_UP_STATUSES = valuesOf(FollowUpStatus);

/** The registry study whose survey the patient answers (the path's `study/prostox`). */
export const REGISTRY_STUDY = 'prostox';

/** Months after the release of a PROSTOX result at which the registry survey is sent. */
export const REGISTRY_FOLLOW_UP_MONTHS = [3, 6, 12] as const;
export type RegistryFollowUpMonths = (typeof REGISTRY_FOLLOW_UP_MONTHS)[number];

/** Days after the email that an unanswered follow-up gets its one reminder. */
export const FOLLOW_UP_REMINDER_DAYS = 14;
/** How long the link of one email (first or reminder) works. */
export const FOLLOW_UP_LINK_VALID_DAYS = 30;
/** How often a worker looks for follow-ups to send, and how many one look takes at most. */
export const FOLLOW_UP_SCAN_INTERVAL_MS = 60_000;
export const FOLLOW_UP_SCAN_BATCH = 100;

/** The tests whose release enrols the patient in the PROSTOX registry: the clinical PROSTOX tests (research results are never returned to participants). */
export function enrolsInRegistry(testName: string): boolean {
  if (!isTestName(testName)) return false;
  const entry = catalogueEntry(testName);
  return entry.parentType === 'PROSTOX' && !entry.research;
}

/**
 * The registry follow-ups of a result released at `releasedAt`: one per interval, due the same
 * wall-clock time that many calendar months later on the lab's clock (`zone`; luxon, so a release
 * in the week before a daylight-saving change is still due at the same hour of the day).
 */
export function registrySchedule(releasedAt: Date, zone: string): { months: RegistryFollowUpMonths; dueAt: Date }[] {
  return REGISTRY_FOLLOW_UP_MONTHS.map((months) => ({ months, dueAt: addLabMonths(releasedAt, months, zone) }));
}

// ---------------------------------------------------------------------------------------------
// The PROSTOX registry survey, as data
// ---------------------------------------------------------------------------------------------

/** How much of a problem something has been (0 = none … 4 = a big problem). */
export const PROBLEM_SCALE = ['No problem', 'A very small problem', 'A small problem', 'A moderate problem', 'A big problem'] as const;
export const PROBLEM_SCALE_ES = ['Ningún problema', 'Un problema muy pequeño', 'Un problema pequeño', 'Un problema moderado', 'Un problema grande'] as const;
/** How often something happened over the last four weeks. */
export const FREQUENCY_SCALE = ['Never', 'Rarely', 'About once a week', 'About once a day', 'More than once a day'] as const;
export const FREQUENCY_SCALE_ES = ['Nunca', 'Rara vez', 'Más o menos una vez por semana', 'Más o menos una vez al día', 'Más de una vez al día'] as const;

/** A survey question; `es` holds its words in Spanish (a scale's options in the same order: the stored answer is the index). */
export type SurveyQuestion =
  | ({ id: string; section: SurveySection; kind: 'yes-no-other'; text: string } & InSpanish<{ text: string }>)
  | ({ id: string; section: SurveySection; kind: 'scale'; text: string; options: readonly string[] } & InSpanish<{ text: string; options: readonly string[] }>);

export const SURVEY_SECTIONS = ['Urinary', 'Bowel', 'Daily life'] as const;
export type SurveySection = (typeof SURVEY_SECTIONS)[number];
export const SURVEY_SECTIONS_ES: Record<SurveySection, string> = { Urinary: 'Vías urinarias', Bowel: 'Intestino', 'Daily life': 'Vida diaria' };

const problem = (id: string, section: SurveySection, text: string, es: string): SurveyQuestion =>
  ({ id, section, kind: 'scale', text, options: PROBLEM_SCALE, es: { text: es, options: PROBLEM_SCALE_ES } });
const yesNo = (id: string, section: SurveySection, text: string, es: string): SurveyQuestion => ({ id, section, kind: 'yes-no-other', text, es: { text: es } });

/**
 * The registry's patient-reported outcomes after prostate radiation therapy: a short set in the
 * manner of EPIC-26 (urinary and bowel symptoms, their effect on daily life), in our own words,
 * in English and Spanish. Every question refers to the last four weeks. Ids are stable: stored
 * answers are keyed by them.
 */
export const PROSTOX_REGISTRY_SURVEY: readonly SurveyQuestion[] = [
  {
    id: 'urineLeaks', section: 'Urinary', kind: 'scale', text: 'How often have you leaked urine?', options: FREQUENCY_SCALE,
    es: { text: '¿Con qué frecuencia ha tenido pérdidas de orina?', options: FREQUENCY_SCALE_ES },
  },
  yesNo('urinePads', 'Urinary', 'Have you used pads or other protection because of urine leaks?',
    '¿Ha usado toallas u otra protección por pérdidas de orina?'),
  problem('urineBurning', 'Urinary', 'How much of a problem has pain or burning when passing urine been?',
    '¿Cuánto problema le ha causado el dolor o ardor al orinar?'),
  problem('urineOften', 'Urinary', 'How much of a problem has needing to pass urine often, by day or by night, been?',
    '¿Cuánto problema le ha causado tener que orinar con frecuencia, de día o de noche?'),
  yesNo('urineBlood', 'Urinary', 'Have you seen blood in your urine?', '¿Ha visto sangre en la orina?'),
  problem('bowelUrgency', 'Bowel', 'How much of a problem has a sudden, urgent need to open your bowels been?',
    '¿Cuánto problema le ha causado una necesidad repentina y urgente de evacuar?'),
  problem('bowelOften', 'Bowel', 'How much of a problem have frequent bowel movements been?',
    '¿Cuánto problema le han causado las evacuaciones frecuentes?'),
  problem('bowelPain', 'Bowel', 'How much of a problem has pain in your abdomen or back passage been?',
    '¿Cuánto problema le ha causado el dolor en el abdomen o en el recto?'),
  yesNo('bowelBleeding', 'Bowel', 'Have you noticed bleeding from your back passage?', '¿Ha notado sangrado por el recto?'),
  problem('dailyUrinary', 'Daily life', 'Overall, how much have urinary symptoms got in the way of your daily life?',
    'En general, ¿cuánto han afectado los síntomas urinarios su vida diaria?'),
  problem('dailyBowel', 'Daily life', 'Overall, how much have bowel symptoms got in the way of your daily life?',
    'En general, ¿cuánto han afectado los síntomas intestinales su vida diaria?'),
  yesNo('sawDoctor', 'Daily life', 'Have you seen a doctor or nurse about urinary or bowel problems since your treatment or your last survey?',
    '¿Ha consultado a un médico o a un enfermero por problemas urinarios o intestinales desde su tratamiento o su última encuesta?'),
];

/** The longest comment the patient may add to an "Other" answer (or to a sample follow-up answer), and the longest question. */
export const FOLLOW_UP_COMMENT_MAX_LENGTH = 1000;
export const FOLLOW_UP_QUESTION_MAX_LENGTH = 1000;

export type SurveyAnswers = Record<string, string | number>;

/** GET of a survey link: whom it greets, which interval. */
export const RegistrySurveyView = s.object({
  firstName: s.nullable(s.string),
  months: s.integer,
  study: s.literal(REGISTRY_STUDY),
});
export type RegistrySurveyView = s.Infer<typeof RegistrySurveyView>;

/** POST of a survey's or a question's answers. */
export const FollowUpAnswered = s.object({ answeredAt: s.string });
export type FollowUpAnswered = s.Infer<typeof FollowUpAnswered>;

// ---------------------------------------------------------------------------------------------
// A question about a sample (lab or clinic → patient)
// ---------------------------------------------------------------------------------------------

/** What the patient's page shows of a sample follow-up before answering. */
export const SampleFollowUpPatientView = s.object({
  firstName: s.nullable(s.string),
  question: s.string,
  askedBy: s.oneOf(['lab', 'clinic']),
  /** The clinic's name, when the clinic asked. */
  clinicName: s.nullable(s.string),
  barcode: s.string,
});
export type SampleFollowUpPatientView = s.Infer<typeof SampleFollowUpPatientView>;

/** One follow-up as the lab or clinic sees it. */
export const FollowUpView = s.object({
  id: s.integer,
  kind: s.oneOf(FOLLOW_UP_KINDS),
  sampleId: s.integer,
  barcode: s.string,
  status: s.oneOf(FOLLOW_UP_STATUSES),
  months: s.nullable(s.integer),
  question: s.nullable(s.string),
  dueAt: s.string,
  sentAt: s.nullable(s.string),
  remindedAt: s.nullable(s.string),
  answeredAt: s.nullable(s.string),
  /** The answer of a sample question (Yes / No / Other + comment); registry answers stay with the registry. */
  answer: s.nullable(s.object({ answer: s.string, comment: s.nullable(s.string) })),
  notSendableReason: s.nullable(s.string),
});
export type FollowUpView = s.Infer<typeof FollowUpView>;

/** The reason recorded on a follow-up that cannot be emailed. */
export const NO_EMAIL_REASON = 'The patient has no email address on file';

/** Words a page shows for each refusal of a link. */
export const FOLLOW_UP_LINK_MESSAGES = {
  invalid: 'This link is not valid. Please use the latest link you received by email.',
  answered: 'This link has already been used: your answers were received. Thank you.',
  expired: 'This link has expired. Please contact your clinic if you would still like to answer.',
} as const;
