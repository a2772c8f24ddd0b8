/** Emails the platform sends: their statuses, and the two bulk email campaigns of SPEC §7. */
import { valuesOf } from '../shared/values';

export const EmailStatus = { Pending: 'Pending', Sent: 'Sent', Failed: 'Failed' } as const;
export type EmailStatus = (typeof EmailStatus)[keyof typeof EmailStatus];
export const EMAIL_STATUSES = valuesOf(EmailStatus);

/** The largest audience one bulk send may have. */
export const CAMPAIGN_MAX_RECIPIENTS = 20_000;

/** The two bulk email campaigns of SPEC §7 (send-email/portal-feedback-request, /portal-signup-reminder). */
export const EmailCampaign = { PortalFeedbackRequest: 'portal-feedback-request', PortalSignupReminder: 'portal-signup-reminder' } as const;
export type EmailCampaign = (typeof EmailCampaign)[keyof typeof EmailCampaign];
export const EMAIL_CAMPAIGNS = [EmailCampaign.PortalFeedbackRequest, EmailCampaign.PortalSignupReminder] as const;
export const EMAIL_CAMPAIGN_TITLES: Record<EmailCampaign, string> = {
  'portal-feedback-request': 'Portal feedback request',
  'portal-signup-reminder': 'Portal signup reminder',
};
