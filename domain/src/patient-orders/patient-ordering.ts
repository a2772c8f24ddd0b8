/**
 * Patient ordering (the Patient Portal's self-order, the clinic's {product}-through-mirakind order
 * and patient invitations): the products a patient may order, the eligibility questions kept as
 * data, how answers decide eligibility and which tests are ordered, the order's stages, patient
 * invitations, and the rules of cancelling and expiring an order. Payment methods and statuses
 * are in payments/. No joi here (the SPA imports these values): the request schemas are in
 * schemas.ts. See docs/patient-ordering-api.md for the endpoints.
 */
import { AccountRole } from '../accounts/accounts';
import { canOrderIn } from '../catalogue/catalogue';
import { TEST_NAMES, TestName } from '../catalogue/tests';
import * as s from '../shared/shapes';
import type { InSpanish } from '../messages';
import { Portal, TestOrigin } from '../orders/orders';
import { RADIATION_TREATMENTS, RadiationTreatment } from '../patients/patients';
import { type PaymentStatus, SETTLED_PAYMENT_STATUSES } from '../payments/payments';
import { valuesOf, YesNoOther } from '../shared/values';

// ---------------------------------------------------------------------------------------------
// Products and their eligibility questions
// ---------------------------------------------------------------------------------------------

/** The products of the patient order pages (/patient-portal/order/{product}/new). */
export const PATIENT_PRODUCTS = ['prostox', 'kras', 'previotox'] as const;
export type PatientProduct = (typeof PATIENT_PRODUCTS)[number];

export const PATIENT_PRODUCT_NAMES: Record<PatientProduct, string> = { prostox: 'PROSTOX', kras: 'KRAS', previotox: 'PREVIOTOX' };
/**
 * A product by the tests it can become, where an invitation names it before the patient's answers
 * choose (a PROSTOX order is PROSTOX ultra, PROSTOX CFRT or both): the same names as everywhere else.
 */
export const PATIENT_PRODUCT_TEST_NAMES: Record<PatientProduct, string> = { prostox: 'PROSTOX ultra / PROSTOX CFRT', kras: 'KRAS', previotox: 'PREVIOTOX' };

/** The PROSTOX treatment options a patient chooses between (SPEC §3 treatment options), or both. */
export const PROSTOX_CHOICES = ['ultra', 'cfrt', 'both'] as const;
export type ProstoxChoice = (typeof PROSTOX_CHOICES)[number];

export const PROSTOX_CHOICE_TESTS: Record<ProstoxChoice, readonly TestName[]> = {
  ultra: [TestName.ProstoxUltra],
  cfrt: [TestName.ProstoxCfrt],
  both: [TestName.ProstoxUltra, TestName.ProstoxCfrt],
};

/**
 * A question answered Yes, No or Other; answers outside `eligible` stop the order with the reason
 * and what to do instead. `es` holds the same words in Spanish (the page shows one or the other).
 */
export interface YesNoQuestion extends InSpanish<{ text: string; hint?: string; ineligibleReason: string; guidance: string }> {
  id: string;
  kind: 'yes-no-other';
  text: string;
  /** Shown under the question (what "Other" means here, for example). */
  hint?: string;
  eligible: readonly YesNoOther[];
  ineligibleReason: string;
  guidance: string;
}

/** A question answered by choosing one option; every option is eligible (the choice decides what is ordered). */
export interface ChoiceQuestion extends InSpanish<{ text: string; hint?: string }> {
  id: string;
  kind: 'choice';
  text: string;
  hint?: string;
  options: readonly ChoiceOption[];
}

/** One option of a choice question; `value` is what is stored, `label` and `hint` what is shown (in English, `es` in Spanish). */
export interface ChoiceOption extends InSpanish<{ label: string; hint?: string }> { value: string; label: string; hint?: string }

export type EligibilityQuestion = YesNoQuestion | ChoiceQuestion;

const TALK_TO_DOCTOR = 'Talk to your doctor about whether a test is right for you; your clinic can also order it for you.';
const TALK_TO_DOCTOR_ES = 'Hable con su médico sobre si una prueba es adecuada para usted; su clínica también puede pedirla por usted.';

const ADULT: YesNoQuestion = {
  id: 'adult', kind: 'yes-no-other', text: 'Are you 18 years of age or older?', eligible: [YesNoOther.Yes],
  ineligibleReason: 'Patients must be 18 or older to order a test themselves.',
  guidance: 'A parent or guardian can ask the treating clinic to order the test.',
  es: {
    text: '¿Tiene 18 años o más?',
    ineligibleReason: 'Los pacientes deben tener 18 años o más para pedir una prueba por su cuenta.',
    guidance: 'Un padre, una madre o un tutor puede pedir a la clínica que ordene la prueba.',
  },
};
const US_RESIDENT: YesNoQuestion = {
  id: 'usResident', kind: 'yes-no-other', text: 'Do you live in the United States, where the kit can be shipped to you?', eligible: [YesNoOther.Yes],
  ineligibleReason: 'Test kits ordered by patients are shipped only to addresses in the United States.',
  guidance: 'Patients outside the United States can ask their clinic to order the test through the Clinical Portal.',
  es: {
    text: '¿Vive en los Estados Unidos, donde se le puede enviar el kit?',
    ineligibleReason: 'Los kits que piden los pacientes se envían solo a direcciones en los Estados Unidos.',
    guidance: 'Los pacientes fuera de los Estados Unidos pueden pedir a su clínica que ordene la prueba por el Portal Clínico.',
  },
};
const RADIATION_PLANNED: YesNoQuestion = {
  id: 'radiationPlanned', kind: 'yes-no-other', text: 'Is radiation therapy planned or being considered for your treatment?',
  hint: 'Answer Other if you are not sure yet.', eligible: [YesNoOther.Yes, YesNoOther.Other],
  ineligibleReason: 'The test predicts the risk of side effects from radiation therapy, so it helps only when radiation is part of the plan.',
  guidance: TALK_TO_DOCTOR,
  es: {
    text: '¿Está planeada o en consideración la radioterapia como parte de su tratamiento?',
    hint: 'Responda Otro si todavía no está seguro.',
    ineligibleReason: 'La prueba predice el riesgo de efectos secundarios de la radioterapia, así que solo ayuda cuando la radioterapia es parte del plan.',
    guidance: TALK_TO_DOCTOR_ES,
  },
};
const RADIATION_FINISHED: YesNoQuestion = {
  id: 'radiationFinished', kind: 'yes-no-other', text: 'Have you already completed your course of radiation therapy?', eligible: [YesNoOther.No, YesNoOther.Other],
  ineligibleReason: 'The test is meant to inform treatment before or early in radiation therapy.',
  guidance: 'If you have side effects after radiation therapy, talk to your doctor about follow-up care.',
  es: {
    text: '¿Ya terminó su tratamiento de radioterapia?',
    ineligibleReason: 'La prueba sirve para orientar el tratamiento antes o al principio de la radioterapia.',
    guidance: 'Si tiene efectos secundarios después de la radioterapia, hable con su médico sobre la atención de seguimiento.',
  },
};
/** The radiation treatment types in Spanish; the option still shows the spec's English name beside them. */
const RADIATION_TREATMENT_ES: Record<RadiationTreatment, string> = {
  [RadiationTreatment.Protons]: 'Protones',
  [RadiationTreatment.Photons]: 'Fotones',
  [RadiationTreatment.BrachytherapyLdr]: 'Braquiterapia de baja tasa de dosis',
  [RadiationTreatment.BrachytherapyHdr]: 'Braquiterapia de alta tasa de dosis',
};
const RADIATION_TYPE: ChoiceQuestion = {
  id: 'radiationType', kind: 'choice', text: 'Which type of radiation therapy is planned?',
  options: [
    ...RADIATION_TREATMENTS.map((t) => ({ value: t, label: t, es: { label: `${RADIATION_TREATMENT_ES[t]} (${t})` } })),
    { value: 'Not sure', label: 'Not sure yet', es: { label: 'Todavía no lo sé' } },
  ],
  es: { text: '¿Qué tipo de radioterapia está planeada?' },
};

/** The eligibility questions of each product, in the order they are asked. */
export const ELIGIBILITY_QUESTIONS: Record<PatientProduct, readonly EligibilityQuestion[]> = {
  prostox: [
    ADULT,
    {
      id: 'diagnosis', kind: 'yes-no-other', text: 'Have you been diagnosed with prostate cancer?', eligible: [YesNoOther.Yes],
      ineligibleReason: 'PROSTOX predicts side effects of radiation therapy for prostate cancer, so it needs a prostate cancer diagnosis.',
      guidance: TALK_TO_DOCTOR,
      es: {
        text: '¿Le han diagnosticado cáncer de próstata?',
        ineligibleReason: 'PROSTOX predice los efectos secundarios de la radioterapia para el cáncer de próstata, así que requiere un diagnóstico de cáncer de próstata.',
        guidance: TALK_TO_DOCTOR_ES,
      },
    },
    RADIATION_PLANNED,
    RADIATION_FINISHED,
    RADIATION_TYPE,
    {
      id: 'treatmentOption', kind: 'choice', text: 'Which radiation therapy schedule is being considered?',
      hint: 'If both are being considered, both tests are run on one sample.',
      options: [
        { value: 'ultra', label: 'PROSTOX ultra', hint: 'fewer than 7 sessions over 1-2 weeks (SBRT)', es: { label: 'PROSTOX ultra', hint: 'menos de 7 sesiones en 1-2 semanas (SBRT)' } },
        { value: 'cfrt', label: 'PROSTOX CFRT', hint: '35 or more sessions over 8-10 weeks (MHFRT and CFRT)', es: { label: 'PROSTOX CFRT', hint: '35 sesiones o más en 8-10 semanas (MHFRT y CFRT)' } },
        { value: 'both', label: 'Both', hint: 'my doctor and I are choosing between them', es: { label: 'Ambas', hint: 'mi médico y yo estamos eligiendo entre las dos' } },
      ],
      es: {
        text: '¿Qué plan de radioterapia se está considerando?',
        hint: 'Si se consideran los dos, ambas pruebas se hacen con una sola muestra.',
      },
    },
    US_RESIDENT,
  ],
  kras: [
    ADULT,
    {
      id: 'priorKrasTest', kind: 'yes-no-other', text: 'Have you had the KRAS-variant test before?', eligible: [YesNoOther.No, YesNoOther.Other],
      ineligibleReason: 'The KRAS-variant is inherited and does not change over a lifetime, so a second test gives the same result.',
      guidance: 'Ask the clinic that ordered your first test for a copy of the result.',
      es: {
        text: '¿Se ha hecho antes la prueba de la variante KRAS?',
        ineligibleReason: 'La variante KRAS es hereditaria y no cambia a lo largo de la vida, así que una segunda prueba da el mismo resultado.',
        guidance: 'Pida a la clínica que ordenó su primera prueba una copia del resultado.',
      },
    },
    {
      id: 'cancerHistory', kind: 'yes-no-other', text: 'Have you or a close relative been diagnosed with cancer?',
      hint: 'Every answer is eligible; it helps the lab and your doctor read the result.', eligible: [YesNoOther.Yes, YesNoOther.No, YesNoOther.Other],
      ineligibleReason: '', guidance: '',
      es: {
        text: '¿Le han diagnosticado cáncer a usted o a un familiar cercano?',
        hint: 'Cualquier respuesta es válida; ayuda al laboratorio y a su médico a interpretar el resultado.',
        ineligibleReason: '', guidance: '',
      },
    },
    US_RESIDENT,
  ],
  previotox: [
    ADULT,
    {
      id: 'diagnosis', kind: 'yes-no-other', text: 'Have you been diagnosed with cancer?', eligible: [YesNoOther.Yes],
      ineligibleReason: 'PREVIOTOX predicts side effects of radiation therapy for cancer, so it needs a cancer diagnosis.',
      guidance: TALK_TO_DOCTOR,
      es: {
        text: '¿Le han diagnosticado cáncer?',
        ineligibleReason: 'PREVIOTOX predice los efectos secundarios de la radioterapia para el cáncer, así que requiere un diagnóstico de cáncer.',
        guidance: TALK_TO_DOCTOR_ES,
      },
    },
    RADIATION_PLANNED,
    RADIATION_FINISHED,
    RADIATION_TYPE,
    US_RESIDENT,
  ],
};

export type EligibilityAnswers = Record<string, string>;

/** A patient's eligibility answers as the questions read them (in English): what the signing physician reads. */
export function eligibilityAnswerLines(product: PatientProduct, answers: EligibilityAnswers): { question: string; answer: string }[] {
  return ELIGIBILITY_QUESTIONS[product].map((q) => {
    const value = answers[q.id];
    const answer = q.kind === 'choice' ? (q.options.find((o) => o.value === value)?.label ?? value) : value;
    return { question: q.text, answer: answer ?? 'Not answered' };
  });
}

export const EligibilityProblem = s.object({
  questionId: s.string,
  question: s.string,
  reason: s.string,
  guidance: s.string,
});
export type EligibilityProblem = s.Infer<typeof EligibilityProblem>;

/** POST order/eligibility-inquiry answer: eligible, and what would be ordered; otherwise why not. */
export const EligibilityAnswer = s.object({
  eligible: s.boolean,
  /** The tests the answers order (empty when not eligible). */
  tests: s.array(s.oneOf(TEST_NAMES)),
  problems: s.array(EligibilityProblem),
});
export type EligibilityAnswer = s.Infer<typeof EligibilityAnswer>;

/** The tests a product's (valid) answers order. */
export function testsForProduct(product: PatientProduct, answers: EligibilityAnswers): TestName[] {
  if (product === 'kras') return [TestName.Kras];
  if (product === 'previotox') return [TestName.Previotox];
  return [...PROSTOX_CHOICE_TESTS[answers.treatmentOption as ProstoxChoice]];
}

/** Decides eligibility from answers already validated by eligibilityAnswersSchema(product). Pure. */
export function assessEligibility(product: PatientProduct, answers: EligibilityAnswers): EligibilityAnswer {
  const problems: EligibilityProblem[] = [];
  for (const q of ELIGIBILITY_QUESTIONS[product]) {
    if (q.kind !== 'yes-no-other') continue;
    if (!q.eligible.includes(answers[q.id] as YesNoOther)) problems.push({ questionId: q.id, question: q.text, reason: q.ineligibleReason, guidance: q.guidance });
  }
  const tests = problems.length ? [] : testsForProduct(product, answers);
  // The catalogue is the one authority on what the Patient Portal may order.
  if (tests.some((t) => !canOrderIn(t, Portal.Patient))) throw new RangeError(`${product} orders a test the Patient Portal may not order`);
  return { eligible: problems.length === 0, tests, problems };
}

// ---------------------------------------------------------------------------------------------
// Referral sources ("How did you hear about the test?")
// ---------------------------------------------------------------------------------------------

export const REFERRAL_SOURCES = ['My doctor or clinic', 'Another patient', 'Family or friend', 'Internet search', 'Social media', 'Patient support group', 'News or article', 'Other'] as const;
export type ReferralSource = (typeof REFERRAL_SOURCES)[number];
/** The referral sources in Spanish (the stored value stays the English one). */
export const REFERRAL_SOURCES_ES: Record<ReferralSource, string> = {
  'My doctor or clinic': 'Mi médico o mi clínica',
  'Another patient': 'Otro paciente',
  'Family or friend': 'Un familiar o un amigo',
  'Internet search': 'Una búsqueda en internet',
  'Social media': 'Redes sociales',
  'Patient support group': 'Un grupo de apoyo para pacientes',
  'News or article': 'Noticias o un artículo',
  Other: 'Otro',
};
export const REFERRAL_OTHER_MAX_LENGTH = 200;

// ---------------------------------------------------------------------------------------------
// The order: its stages, sign-off, invitations, cancellation and expiry
// ---------------------------------------------------------------------------------------------

/**
 * A patient order's stage, derived from its payment, sign-off and cancellation:
 * Awaiting Payment → Awaiting Sign-off (paid or not charged) → Signed Off (kit ships) ; Cancelled.
 */
export const PatientOrderStage = {
  AwaitingPayment: 'Awaiting Payment',
  AwaitingSignOff: 'Awaiting Sign-off',
  SignedOff: 'Signed Off',
  Cancelled: 'Cancelled',
} as const;
export type PatientOrderStage = (typeof PatientOrderStage)[keyof typeof PatientOrderStage];

export function patientOrderStage(o: { paymentStatus: PaymentStatus | null; signedOffAt: string | Date | null; cancelledAt: string | Date | null }): PatientOrderStage {
  if (o.cancelledAt) return PatientOrderStage.Cancelled;
  if (!o.paymentStatus || !SETTLED_PAYMENT_STATUSES.includes(o.paymentStatus)) return PatientOrderStage.AwaitingPayment;
  return o.signedOffAt ? PatientOrderStage.SignedOff : PatientOrderStage.AwaitingSignOff;
}

/**
 * A patient's own order has no ordering physician until a physician of the clinic signs it off:
 * its test requisition form is rendered at the sign-off (not when the patient pays), so until then
 * the clinic's download answers this message and its patient page shows it instead of the button.
 */
export const REQUISITION_AWAITS_SIGN_OFF_MESSAGE =
  'The requisition form comes with the physician’s sign-off: a physician of this clinic signs this patient’s order off under Pending → Patient-ordered, and the form is ready a moment later.';

/** Whether an order's requisition form waits for the sign-off (a patient order, not signed off, not cancelled). */
export function requisitionAwaitsSignOff(o: { origin: string; signedOffAt: string | Date | null; cancelledAt: string | Date | null }): boolean {
  return o.origin === TestOrigin.PatientOrdered && !o.signedOffAt && !o.cancelledAt;
}

/** Patient order numbers: RPD + 10 random digits (SPEC §5 order ids), so one cannot be guessed from another. */
export const PATIENT_ORDER_PREFIX = 'RPD';
export const PATIENT_ORDER_NUMBER_PATTERN = /^RPD\d{10}$/;

/** How long a patient invitation link stays valid. */
export const PATIENT_INVITATION_DAYS = 14;

/** What a clinic may do with an invitation it sent (POST patient/invitations/update). */
export const INVITATION_ACTIONS = ['resend', 'cancel'] as const;
export type InvitationAction = (typeof INVITATION_ACTIONS)[number];

export const RequestStatus = { Requested: 'Requested' } as const;
export type RequestStatus = (typeof RequestStatus)[keyof typeof RequestStatus];
export const REQUEST_STATUSES = valuesOf(RequestStatus);

/** A patient invitation: the spec's request status (Requested), then accepted or cancelled. */
export const InvitationStatus = { ...RequestStatus, Accepted: 'Accepted', Cancelled: 'Cancelled' } as const;
export type InvitationStatus = (typeof InvitationStatus)[keyof typeof InvitationStatus];
export const INVITATION_STATUSES: InvitationStatus[] = [...REQUEST_STATUSES, InvitationStatus.Accepted, InvitationStatus.Cancelled];

/** Who in the account may cancel a patient's order (before its kit ships): its physicians and its super admin. */
export const PATIENT_ORDER_CANCEL_ROLES: readonly AccountRole[] = [AccountRole.Physician, AccountRole.SuperAdmin];

/** The longest reason a physician may give for cancelling a patient's order. */
export const CANCEL_REASON_MAX_LENGTH = 500;

/**
 * A patient's order not paid within this many days of being placed closes by itself: nothing is
 * charged and its card payment, if one was started, is cancelled. Only the browser tab that placed
 * an order can resume it, so an older unpaid order can no longer be paid by anyone; three days
 * leave a weekend to come back to the tab.
 */
export const UNPAID_ORDER_EXPIRY_DAYS = 3;
export const UNPAID_ORDER_EXPIRED_REASON = `Not paid within ${UNPAID_ORDER_EXPIRY_DAYS} days of being placed`;
/** How often a worker looks for unpaid orders to close, and how many it closes per look. */
export const UNPAID_ORDER_SCAN_INTERVAL_MS = 15 * 60_000;
export const UNPAID_ORDER_SCAN_BATCH = 100;

/** The error code (409) of a patient command on an order the clinic cancelled: the order pages then show it cancelled, with no way to pay. */
export const ORDER_CANCELLED_CODE = 'order_cancelled';
