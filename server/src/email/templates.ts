/**
 * Every email the platform writes, in one place: each template gives the subject and text of one
 * kind of email and its name in the email log. None carries a result or a date of birth.
 */
import {
  EmailCampaign, formatUsd, PASSWORD_RESET_TOKEN_MINUTES, PATIENT_INVITATION_DAYS, PaymentMethod, SET_PASSWORD_LINK_DAYS, type PaymentMethod as PaymentMethodT,
} from '@platform/domain';

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
  patientOrderReceipt: 'patient-order-receipt',
  patientInvitation: 'patient-invitation',
  patientOrderCancelled: 'patient-order-cancelled',
  portalFeedbackRequest: EmailCampaign.PortalFeedbackRequest,
  portalSignupReminder: EmailCampaign.PortalSignupReminder,
} as const;

/**
 * Templates whose email carried a single-use link (a reset or set-password token, a patient's
 * result link): the log keeps them with the token redacted, so they are never sent again from the
 * log; the person asks for a new link instead.
 */
export const SINGLE_USE_LINK_TEMPLATES: readonly string[] = [
  EMAIL_TEMPLATES.passwordReset, EMAIL_TEMPLATES.setPassword, EMAIL_TEMPLATES.resultReadyPatient, EMAIL_TEMPLATES.patientInvitation,
];

export function passwordResetEmail(args: { brand: string; firstName: string; link: string }): EmailContent {
  return {
    template: EMAIL_TEMPLATES.passwordReset,
    subject: `Reset your ${args.brand} Platform password`,
    text: [
      `Hello ${args.firstName},`,
      '',
      `Someone asked to reset the password of your ${args.brand} Platform account.`,
      `To choose a new password, open this link within ${PASSWORD_RESET_TOKEN_MINUTES} minutes:`,
      args.link,
      '',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ].join('\n'),
  };
}

/** A new user (approved provider, registered provider, lab user): their access and a single-use link to set a password. */
export function setPasswordEmail(args: { brand: string; firstName: string; portalTitle: string; link: string }): EmailContent {
  return {
    template: EMAIL_TEMPLATES.setPassword,
    subject: `Your ${args.brand} Platform access is ready`,
    text: [
      `Hello ${args.firstName},`,
      '',
      `You now have access to the ${args.brand} Platform ${args.portalTitle}.`,
      `To choose your password, open this link within ${SET_PASSWORD_LINK_DAYS} days (it works once):`,
      args.link,
      '',
      'If the link has expired, use "Forgot password" on the sign-in page to get a new one.',
    ].join('\n'),
  };
}

/** A provider whose request for access was denied, with the lab's reason. */
export function accessDeniedEmail(args: { brand: string; firstName: string; reason: string }): EmailContent {
  return {
    template: EMAIL_TEMPLATES.accessDenied,
    subject: `Your request for ${args.brand} Platform access`,
    text: [
      `Hello ${args.firstName},`,
      '',
      `Thank you for your interest in the ${args.brand} Platform. We could not grant your request for access:`,
      '',
      args.reason,
      '',
      'If you think this is a mistake, reply to this email.',
    ].join('\n'),
  };
}

/** To the provider: test and barcode only, no patient details and no result. */
export function resultReadyProviderEmail(args: {
  brand: string; testName: string; barcode: string; accountName: string; corrected: boolean; listUrl: string;
}): EmailContent {
  const { brand, testName, barcode, accountName } = args;
  return {
    template: EMAIL_TEMPLATES.resultReadyProvider,
    subject: `${args.corrected ? 'Corrected result' : 'Result'} ready: ${testName} for sample ${barcode}`,
    text: [
      'Hello,',
      '',
      args.corrected
        ? `A corrected result of ${testName} for sample ${barcode} (${accountName}) has been released by the ${brand} laboratory. It replaces the earlier result.`
        : `A result of ${testName} for sample ${barcode} (${accountName}) has been released by the ${brand} laboratory.`,
      '',
      'To protect the patient\'s privacy this email holds no patient details and no result.',
      'Sign in to read the result and download the report from your completed list:',
      args.listUrl,
    ].join('\n'),
  };
}

/** To the patient: that a result is ready and the link (the page asks for the date of birth first). */
export function resultReadyPatientEmail(args: { brand: string; firstName: string; testNames: string[]; corrected: boolean; url: string }): EmailContent {
  const { brand } = args;
  const tests = args.testNames.length ? args.testNames.join(' and ') : 'test';
  return {
    template: EMAIL_TEMPLATES.resultReadyPatient,
    subject: args.corrected ? `Your corrected ${brand} test result is ready` : `Your ${brand} test result is ready`,
    text: [
      `Hello ${args.firstName},`,
      '',
      args.corrected
        ? `An updated (corrected) result of your ${tests} from the ${brand} laboratory is ready.`
        : `The result of your ${tests} from the ${brand} laboratory is ready.`,
      '',
      'To see it, open this link. To protect your privacy we will ask for your date of birth first:',
      args.url,
      '',
      'This link is for you only: please do not forward this email. If you did not expect it, contact your doctor\'s office.',
      'Your doctor has also been told that your result is ready.',
    ].join('\n'),
  };
}

/** What a patient order's receipt says: the order, its tests, what was paid and how (no date of birth, no answers). */
export interface PatientOrderReceiptArgs {
  brand: string;
  firstName: string;
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

function paymentLines(a: PatientOrderReceiptArgs): string[] {
  if (a.paymentMethod === PaymentMethod.Insurance) {
    return [`Payment: Insurance${a.insurancePlanName ? ` (${a.insurancePlanName})` : ''}. Nothing was charged: the laboratory bills your plan.`];
  }
  const how = a.paymentMethod === PaymentMethod.FinancialAssistance ? 'Financial Assistance price' : 'Self-Pay';
  const lines = [a.priceCents > 0 ? `Amount paid: ${formatUsd(a.priceCents)} (${how}, paid by card)` : `Amount paid: ${formatUsd(0)} (${how}: nothing to pay)`];
  if (a.donationCents) {
    lines.push(`Of this price, ${formatUsd(a.donationCents)} (20%) is a tax-deductible donation to the MiraKind non-profit. Keep this email as your receipt for it.`);
  }
  return lines;
}

/** To the patient once the order moved on (paid, or nothing to charge): the confirmation and the receipt. */
export function patientOrderReceiptEmail(a: PatientOrderReceiptArgs): EmailContent {
  return {
    template: EMAIL_TEMPLATES.patientOrderReceipt,
    subject: `Your ${a.brand} order ${a.orderNumber}: confirmation and receipt`,
    text: [
      `Hello ${a.firstName},`,
      '',
      `Thank you for your order. This email is your confirmation and receipt.`,
      '',
      `Order number: ${a.orderNumber}`,
      `Test: ${a.testNames.join(' and ')}`,
      `Treating provider: ${a.accountName}`,
      ...paymentLines(a),
      '',
      'What happens next:',
      `1. A physician at ${a.accountName} reviews your order and signs it off.`,
      '2. We then ship a sample collection kit to your address, with instructions and a prepaid return label.',
      '3. Once the laboratory has your sample, your result is ready in about two to three weeks; we email you a private link to it.',
      '',
      `Your order: ${a.completeUrl}`,
      'If you have a question, reply to this email and mention your order number.',
    ].join('\n'),
  };
}

/** From a clinic to a patient: a single-use link to the order page with the clinic and the test filled in. */
export function patientInvitationEmail(a: { brand: string; firstName: string | null; accountName: string; productName: string; link: string }): EmailContent {
  return {
    template: EMAIL_TEMPLATES.patientInvitation,
    subject: `${a.accountName} invites you to order the ${a.productName} test`,
    text: [
      a.firstName ? `Hello ${a.firstName},` : 'Hello,',
      '',
      `${a.accountName} invites you to order the ${a.productName} test from the ${a.brand} laboratory. The test kit is shipped to your home.`,
      `To order, open this link within ${PATIENT_INVITATION_DAYS} days (it works for one order):`,
      a.link,
      '',
      'If you did not expect this email, you can ignore it.',
    ].join('\n'),
  };
}

/** To the patient when the clinic cancels an order before the kit ships; a paid order is refunded. */
export function patientOrderCancelledEmail(a: { brand: string; firstName: string; orderNumber: string; accountName: string; reason: string; refundCents: number | null }): EmailContent {
  return {
    template: EMAIL_TEMPLATES.patientOrderCancelled,
    subject: `Your ${a.brand} order ${a.orderNumber} was cancelled`,
    text: [
      `Hello ${a.firstName},`,
      '',
      `Your order ${a.orderNumber} was cancelled by ${a.accountName}. The reason given:`,
      '',
      a.reason,
      '',
      a.refundCents
        ? `Your payment of ${formatUsd(a.refundCents)} is refunded to the card you paid with; banks usually show it within 5 to 10 days.`
        : 'Nothing was charged for this order.',
      'No kit will be shipped. If you have a question, contact your doctor\'s office or reply to this email.',
    ].join('\n'),
  };
}

/** What a campaign email is written from: the brand, the portal's address and the recipient's first name. */
export interface CampaignEmailArgs {
  brand: string;
  publicUrl: string;
  firstName: string;
}

/** Bulk campaign: asks a provider what they think of the portal. No link carries a token. */
export function portalFeedbackRequestEmail(args: CampaignEmailArgs): EmailContent {
  return {
    template: EMAIL_TEMPLATES.portalFeedbackRequest,
    subject: `How is the ${args.brand} Platform working for you?`,
    text: [
      `Hello ${args.firstName},`,
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
      `Hello ${args.firstName},`,
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
