/**
 * Every email the platform writes, in one place: each template gives the subject and text of one
 * kind of email and its name in the email log. None carries a result or a date of birth. The
 * patient's emails are written in the patient's preferred language from the domain's message
 * catalogues (./messages); the provider, staff and campaign emails are in English.
 */
import {
  ACCOUNT_INVITATION_DAYS, DEFAULT_LANGUAGE, EmailCampaign, formatAidCode, formatDateTime, formatUsd, PASSWORD_RESET_TOKEN_MINUTES, PATIENT_INVITATION_DAYS, PaymentMethod, SET_PASSWORD_LINK_DAYS, type Language,
  type PaymentMethod as PaymentMethodT, type ResultContacts,
} from '@platform/domain';
import { emailText, sharedText, type EmailText } from './messages';

export interface EmailContent {
  template: string;
  subject: string;
  text: string;
}

export const EMAIL_TEMPLATES = {
  passwordReset: 'password-reset',
  setPassword: 'set-password',
  accessDenied: 'access-denied',
  resultReadyProvider: 'result-ready-provider',
  resultReadyPatient: 'result-ready-patient',
  registrySurvey: 'registry-survey',
  sampleFollowUpQuestion: 'sample-follow-up-question',
  patientOrderReceipt: 'patient-order-receipt',
  patientInvitation: 'patient-invitation',
  patientOrderCancelled: 'patient-order-cancelled',
  unpaidOrderExpired: 'unpaid-order-expired',
  financialAidGranted: 'financial-aid-granted',
  accountInvitation: 'account-invitation',
  twoFactorReset: 'two-factor-reset',
  portalFeedbackRequest: EmailCampaign.PortalFeedbackRequest,
  portalSignupReminder: EmailCampaign.PortalSignupReminder,
} as const;

/**
 * Templates whose email carried a single-use link (a reset or set-password token, a patient's
 * result link): the log keeps them with the token redacted, so they are never sent again from the
 * log; the person asks for a new link instead.
 */
export const SINGLE_USE_LINK_TEMPLATES: readonly string[] = [
  EMAIL_TEMPLATES.passwordReset, EMAIL_TEMPLATES.setPassword, EMAIL_TEMPLATES.resultReadyPatient,
  EMAIL_TEMPLATES.registrySurvey, EMAIL_TEMPLATES.sampleFollowUpQuestion, EMAIL_TEMPLATES.patientInvitation, EMAIL_TEMPLATES.accountInvitation,
];

/** The first line of every email: by first name when one is kept (research participants have none). */
function greeting(firstName: string | null): string {
  return firstName ? `Hello ${firstName},` : 'Hello,';
}

export function passwordResetEmail(args: { brand: string; firstName: string | null; link: string }): EmailContent {
  return {
    template: EMAIL_TEMPLATES.passwordReset,
    subject: `Reset your ${args.brand} Platform password`,
    text: [
      greeting(args.firstName),
      '',
      `Someone asked to reset the password of your ${args.brand} Platform account.`,
      `To choose a new password, open this link within ${PASSWORD_RESET_TOKEN_MINUTES} minutes:`,
      args.link,
      '',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

/** The lab's admin reset a user's second factors: what happened, and what the next sign-in asks. */
export function twoFactorResetEmail(args: { brand: string; firstName: string | null; required: boolean }): EmailContent {
  return {
    template: EMAIL_TEMPLATES.twoFactorReset,
    subject: `Your ${args.brand} Platform two-factor sign-in was reset`,
    text: [
      greeting(args.firstName),
      '',
      `An administrator of ${args.brand} Platform reset your two-factor sign-in: your authenticator app, passkeys,`,
      'recovery codes and remembered devices no longer sign you in, and you were signed out everywhere.',
      args.required
        ? 'At your next sign-in you will set up a new authenticator app or passkey.'
        : 'You can set up a new authenticator app or passkey from your menu ("Two-factor sign-in") after signing in.',
      '',
      'If you did not ask for this, tell your administrator at once.',
    ].join('\n'),
  };
}

/** A new user (approved provider, registered provider, lab user): their access and a single-use link to set a password. */
export function setPasswordEmail(args: { brand: string; firstName: string | null; portalTitle: string; link: string }): EmailContent {
  return {
    template: EMAIL_TEMPLATES.setPassword,
    subject: `Your ${args.brand} Platform access is ready`,
    text: [
      greeting(args.firstName),
      '',
      `You now have access to the ${args.brand} Platform ${args.portalTitle}.`,
      `To choose your password, open this link within ${SET_PASSWORD_LINK_DAYS} days (it works once):`,
      args.link,
      '',
      'If the link has expired, use "Forgot password" on the sign-in page to get a new one.',
    ].join('\n'),
  };
}

/**
 * A Super Admin's invitation to their account. One text whether or not the address already signs
 * in: what accepting does is said for both cases, so the email tells no one else anything either.
 */
export function accountInvitationEmail(args: { brand: string; firstName: string; invitedBy: string; accountName: string; role: string; link: string }): EmailContent {
  return {
    template: EMAIL_TEMPLATES.accountInvitation,
    subject: `${args.invitedBy} invites you to ${args.accountName} on the ${args.brand} Platform`,
    text: [
      greeting(args.firstName),
      '',
      `${args.invitedBy} invites you to work in ${args.accountName} on the ${args.brand} Platform (role: ${args.role}).`,
      `To accept, open this link within ${ACCOUNT_INVITATION_DAYS} days (it works once):`,
      args.link,
      '',
      `If you already sign in to the ${args.brand} Platform with this address, accepting adds ${args.accountName} to your accounts; otherwise you choose a password next.`,
      'If you did not expect this email, you can ignore it: nothing changes unless you accept.',
    ].join('\n'),
  };
}

/** A provider whose request for access was denied, with the lab's reason. */
export function accessDeniedEmail(args: { brand: string; firstName: string | null; reason: string }): EmailContent {
  return {
    template: EMAIL_TEMPLATES.accessDenied,
    subject: `Your request for ${args.brand} Platform access`,
    text: [
      greeting(args.firstName),
      '',
      `Thank you for your interest in the ${args.brand} Platform. We could not grant your request for access:`,
      '',
      args.reason,
      '',
      'If you think this is a mistake, reply to this email.',
    ].join('\n'),
  };
}

/**
 * To the provider: test and barcode only, no patient details and no result; when it was released, on
 * the lab's clock (`timeZone`); where questions about the test go (its line's support mailbox).
 */
export function resultReadyProviderEmail(args: {
  brand: string; testName: string; barcode: string; accountName: string; corrected: boolean; listUrl: string; releasedAt: Date; timeZone: string;
  /** Where the clinic's questions about this test go: the account's support mailbox for the test's line, else the lab's address. */
  supportEmail: string;
}): EmailContent {
  const { brand, testName, barcode, accountName } = args;
  const when = formatDateTime(args.releasedAt, args.timeZone);
  return {
    template: EMAIL_TEMPLATES.resultReadyProvider,
    subject: `${args.corrected ? 'Corrected result' : 'Result'} ready: ${testName} for sample ${barcode}`,
    text: [
      'Hello,',
      '',
      args.corrected
        ? `A corrected result of ${testName} for sample ${barcode} (${accountName}) has been released by the ${brand} laboratory on ${when}. It replaces the earlier result.`
        : `A result of ${testName} for sample ${barcode} (${accountName}) has been released by the ${brand} laboratory on ${when}.`,
      '',
      'To protect the patient\'s privacy this email holds no patient details and no result.',
      'Sign in to read the result and download the report from your completed list:',
      args.listUrl,
      '',
      `Questions about this ${testName} result: write to ${args.supportEmail}`,
    ].join('\n'),
  };
}

/** The first line of a patient's email, in their language. */
function patientGreeting(t: EmailText, firstName: string | null): string {
  return firstName ? t('greeting', { firstName }) : t('greetingNoName');
}

/** What each patient email is written in: the patient's preferred language. */
interface InLanguage { language: Language }

/**
 * A link to a patient page, opening in the patient's language: `lang` (read by the SPA's
 * patient-language) is added for any language but the default, after the link's own parameters.
 */
export function inLanguage(url: string, language: Language): string {
  if (language === DEFAULT_LANGUAGE) return url;
  return `${url}${url.includes('?') ? '&' : '?'}lang=${language}`;
}

/** Whom the patient asks, as the result page lists them: the clinic and its doctor, then the laboratory. */
function contactLines(language: Language, { clinic, lab }: ResultContacts): string[] {
  const t = sharedText(language);
  const reach = (phone: string | null, email: string | null) => [
    ...(phone ? [t('contacts.phone', { phone })] : []),
    ...(email ? [t('contacts.email', { email })] : []),
  ];
  return [
    t('contacts.title'),
    t('contacts.intro'),
    ...(clinic ? ['', t('contacts.clinic', { name: clinic.name }), ...(clinic.physician ? [t('contacts.physician', { name: clinic.physician })] : []), ...reach(clinic.phone, clinic.email)] : []),
    '',
    t('contacts.lab', { name: lab.name }),
    ...reach(lab.phone, lab.email),
  ];
}

/** To the patient: that a result is ready and the link (the page asks for the date of birth first). */
export function resultReadyPatientEmail(args: InLanguage & {
  brand: string; firstName: string | null; testNames: string[]; corrected: boolean; url: string; contacts: ResultContacts;
}): EmailContent {
  const { brand } = args;
  const t = emailText(args.language);
  const tests = args.testNames.length
    ? t('resultReady.testsPhrase', { names: args.testNames.join(t('resultReady.testsJoin')) })
    : t('resultReady.testFallback');
  return {
    template: EMAIL_TEMPLATES.resultReadyPatient,
    subject: t(args.corrected ? 'resultReady.subjectCorrected' : 'resultReady.subject', { brand }),
    text: [
      patientGreeting(t, args.firstName),
      '',
      t(args.corrected ? 'resultReady.bodyCorrected' : 'resultReady.body', { tests, brand }),
      '',
      t('resultReady.open'),
      inLanguage(args.url, args.language),
      '',
      t('resultReady.forYouOnly'),
      t('resultReady.doctorTold'),
      '',
      ...contactLines(args.language, args.contacts),
    ].join('\n'),
  };
}

/** To a PROSTOX patient, at 3, 6 and 12 months: the registry survey's single-use link (no result, no answer). */
export function registrySurveyEmail(args: InLanguage & { brand: string; firstName: string | null; months: number; url: string; reminder: boolean; validDays: number }): EmailContent {
  const t = emailText(args.language);
  const { brand, months } = args;
  return {
    template: EMAIL_TEMPLATES.registrySurvey,
    subject: t(args.reminder ? 'registrySurvey.subjectReminder' : 'registrySurvey.subject', { brand, months }),
    text: [
      patientGreeting(t, args.firstName),
      '',
      t(args.reminder ? 'registrySurvey.bodyReminder' : 'registrySurvey.body', { brand, months }),
      t('registrySurvey.about'),
      '',
      t('registrySurvey.open', { days: args.validDays }),
      inLanguage(args.url, args.language),
      '',
      t('registrySurvey.voluntary'),
    ].join('\n'),
  };
}

/** What a patient order's receipt says: the order, its tests, what was paid and how (no date of birth, no answers). */
export interface PatientOrderReceiptArgs extends InLanguage {
  brand: string;
  firstName: string | null;
  orderNumber: string;
  testNames: string[];
  accountName: string;
  paymentMethod: PaymentMethodT;
  insurancePlanName: string | null;
  priceCents: number;
  /** The tax-deductible donation part of a MiraKind order (20% of the price); null otherwise. */
  donationCents: number | null;
  completeUrl: string;
}

function paymentLines(t: EmailText, a: PatientOrderReceiptArgs): string[] {
  if (a.paymentMethod === PaymentMethod.Insurance) {
    return [a.insurancePlanName ? t('receipt.insuranceWithPlan', { plan: a.insurancePlanName }) : t('receipt.insurance')];
  }
  const how = t(a.paymentMethod === PaymentMethod.FinancialAssistance ? 'receipt.howAssistance' : 'receipt.howSelfPay');
  const lines = [a.priceCents > 0 ? t('receipt.paidByCard', { amount: formatUsd(a.priceCents), how }) : t('receipt.nothingToPay', { amount: formatUsd(0), how })];
  if (a.donationCents) lines.push(t('receipt.donation', { amount: formatUsd(a.donationCents) }));
  return lines;
}

/** To the patient once the order moved on (paid, or nothing to charge): the confirmation and the receipt. */
export function patientOrderReceiptEmail(a: PatientOrderReceiptArgs): EmailContent {
  const t = emailText(a.language);
  const account = a.accountName;
  return {
    template: EMAIL_TEMPLATES.patientOrderReceipt,
    subject: t('receipt.subject', { brand: a.brand, orderNumber: a.orderNumber }),
    text: [
      patientGreeting(t, a.firstName),
      '',
      t('receipt.thanks'),
      '',
      t('receipt.orderNumber', { orderNumber: a.orderNumber }),
      t('receipt.test', { tests: a.testNames.join(t('receipt.testsJoin')) }),
      t('receipt.treatingProvider', { account }),
      ...paymentLines(t, a),
      '',
      t('receipt.nextTitle'),
      t('receipt.next1', { account }),
      t('receipt.next2'),
      t('receipt.next3'),
      '',
      t('receipt.yourOrder', { url: inLanguage(a.completeUrl, a.language) }),
      t('receipt.question'),
    ].join('\n'),
  };
}

/** Who asked a question about a sample: the lab, or the clinic (by name when known). */
export type SampleQuestionAsker = { kind: 'lab' } | { kind: 'clinic'; clinicName: string | null };

/** To a patient: the lab or their clinic has a question about their sample; the single-use link to answer it (the question is on the page, not in the email). */
export function sampleFollowUpQuestionEmail(args: InLanguage & { brand: string; firstName: string | null; askedBy: SampleQuestionAsker; url: string; reminder: boolean; validDays: number }): EmailContent {
  const t = emailText(args.language);
  const { brand, askedBy } = args;
  const who = askedBy.kind === 'lab'
    ? t('sampleQuestion.askedByLab')
    : askedBy.clinicName ? t('sampleQuestion.askedByNamedClinic', { clinic: askedBy.clinicName }) : t('sampleQuestion.askedByClinic');
  return {
    template: EMAIL_TEMPLATES.sampleFollowUpQuestion,
    subject: t(args.reminder ? 'sampleQuestion.subjectReminder' : 'sampleQuestion.subject', { brand }),
    text: [
      patientGreeting(t, args.firstName),
      '',
      t('sampleQuestion.body', { who, brand }),
      t('sampleQuestion.open', { days: args.validDays }),
      inLanguage(args.url, args.language),
      '',
      t('notExpected'),
    ].join('\n'),
  };
}

/** From a clinic to a patient: a single-use link to the order page with the clinic and the test filled in. */
export function patientInvitationEmail(a: InLanguage & { brand: string; firstName: string | null; accountName: string; productName: string; link: string }): EmailContent {
  const t = emailText(a.language);
  const names = { account: a.accountName, product: a.productName, brand: a.brand };
  return {
    template: EMAIL_TEMPLATES.patientInvitation,
    subject: t('invitation.subject', names),
    text: [
      patientGreeting(t, a.firstName),
      '',
      t('invitation.body', names),
      t('invitation.open', { days: PATIENT_INVITATION_DAYS }),
      a.link,
      '',
      t('invitation.ignore'),
    ].join('\n'),
  };
}

/**
 * To the patient when the lab's admin approves financial assistance: the price, until when, and the
 * assistance code that proves at payment that the order is theirs. The log keeps it so the admin
 * can send it again to the same address when the patient has lost it.
 */
export function financialAidGrantedEmail(a: InLanguage & { brand: string; firstName: string | null; priceCents: number; validUntil: string; code: string }): EmailContent {
  const t = emailText(a.language);
  // A calendar date (YYYY-MM-DD) written out in the patient's language, read in UTC so no zone shifts its day.
  const until = new Intl.DateTimeFormat(a.language, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${a.validUntil}T00:00:00Z`));
  return {
    template: EMAIL_TEMPLATES.financialAidGranted,
    subject: t('aid.subject', { brand: a.brand }),
    text: [
      patientGreeting(t, a.firstName),
      '',
      t('aid.body', { brand: a.brand, price: formatUsd(a.priceCents), until }),
      '',
      t('aid.code', { code: formatAidCode(a.code) }),
      t('aid.how'),
      '',
      t('aid.keep'),
    ].join('\n'),
  };
}

/** To the patient when the clinic cancels an order before the kit ships; a paid order is refunded. */
export function patientOrderCancelledEmail(a: InLanguage & { brand: string; firstName: string | null; orderNumber: string; accountName: string; reason: string; refundCents: number | null }): EmailContent {
  const t = emailText(a.language);
  return {
    template: EMAIL_TEMPLATES.patientOrderCancelled,
    subject: t('cancelled.subject', { brand: a.brand, orderNumber: a.orderNumber }),
    text: [
      patientGreeting(t, a.firstName),
      '',
      t('cancelled.body', { orderNumber: a.orderNumber, account: a.accountName }),
      '',
      a.reason,
      '',
      a.refundCents ? t('cancelled.refund', { amount: formatUsd(a.refundCents) }) : t('cancelled.nothingCharged'),
      t('cancelled.noKit'),
    ].join('\n'),
  };
}

/** To the patient whose order closed unpaid: nothing charged, and where to order again. */
export function unpaidOrderExpiredEmail(a: InLanguage & { brand: string; firstName: string | null; orderNumber: string; accountName: string; days: number; orderAgainUrl: string }): EmailContent {
  const t = emailText(a.language);
  return {
    template: EMAIL_TEMPLATES.unpaidOrderExpired,
    subject: t('expired.subject', { brand: a.brand, orderNumber: a.orderNumber }),
    text: [
      patientGreeting(t, a.firstName),
      '',
      t('expired.body', { orderNumber: a.orderNumber, account: a.accountName, days: a.days }),
      '',
      t('expired.again'),
      inLanguage(a.orderAgainUrl, a.language),
      '',
      t('expired.questions'),
    ].join('\n'),
  };
}

/** What a campaign email is written from: the brand, the portal's address and the recipient's first name. */
export interface CampaignEmailArgs {
  brand: string;
  publicUrl: string;
  firstName: string | null;
}

/** Bulk campaign: asks a provider what they think of the portal. No link carries a token. */
export function portalFeedbackRequestEmail(args: CampaignEmailArgs): EmailContent {
  return {
    template: EMAIL_TEMPLATES.portalFeedbackRequest,
    subject: `How is the ${args.brand} Platform working for you?`,
    text: [
      greeting(args.firstName),
      '',
      `You use the ${args.brand} Platform to order tests and read results. We would like to hear how it works for you:`,
      'what helps, what gets in the way, and what you miss.',
      '',
      'Just reply to this email with a few lines. The portal is here when you want to look again:',
      `${args.publicUrl}/provider/login`,
      '',
      `Thank you, the ${args.brand} team`,
    ].join('\n'),
  };
}

/** Bulk campaign: reminds a provider who has access that they can sign in. No link carries a token. */
export function portalSignupReminderEmail(args: CampaignEmailArgs): EmailContent {
  const loginUrl = `${args.publicUrl}/provider/login`;
  return {
    template: EMAIL_TEMPLATES.portalSignupReminder,
    subject: `Your ${args.brand} Platform access is ready`,
    text: [
      greeting(args.firstName),
      '',
      `You have access to the ${args.brand} Platform: you can order tests, track samples and read results online.`,
      `Sign in with this email address at ${loginUrl}`,
      '',
      `If you never set a password, choose "Forgot password" on that page and we will email you a link to set one.`,
      '',
      `Thank you, the ${args.brand} team`,
    ].join('\n'),
  };
}

/** The email of each bulk campaign. */
export const CAMPAIGN_EMAILS: Record<EmailCampaign, (args: CampaignEmailArgs) => EmailContent> = {
  [EmailCampaign.PortalFeedbackRequest]: portalFeedbackRequestEmail,
  [EmailCampaign.PortalSignupReminder]: portalSignupReminderEmail,
};
