/**
 * The admin portal's values without joi (the SPA imports these without shipping the schemas):
 * field limits, the two bulk email campaigns, and the toasts of SPEC §8 for the admin pages.
 */
export const PERSON_NAME_MAX_LENGTH = 100;
export const ACCOUNT_NAME_MAX_LENGTH = 200;
export const ACCOUNT_MAX_DEPARTMENTS = 50;
export const REASON_MAX_LENGTH = 1000;
/** How long a set-password link from an approval or a registration works. */
export const SET_PASSWORD_LINK_DAYS = 7;
/** How long an account invitation's link works. */
export const ACCOUNT_INVITATION_DAYS = 14;

/**
 * An account invitation (a Super Admin adding someone to their account): Pending until the
 * person accepts through the emailed link, or the Super Admin cancels it.
 */
export const AccountInvitationStatus = { Pending: 'Pending', Accepted: 'Accepted', Cancelled: 'Cancelled' } as const;
export type AccountInvitationStatus = (typeof AccountInvitationStatus)[keyof typeof AccountInvitationStatus];
export const ACCOUNT_INVITATION_STATUSES: readonly AccountInvitationStatus[] = Object.values(AccountInvitationStatus);

/** What a Super Admin is told after adding a user: the same words whoever the address belongs to. */
export const accountUserInvitedMessage = (email: string) =>
  `Invitation sent to ${email}: they join this account when they accept it from the email`;

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

/** The success toasts of SPEC §8 the admin pages show, word for word. */
export const ADMIN_TOASTS = {
  userCreated: 'User Created Successfully',
  accountCreated: 'Account Created Successfully',
  labUserFailed: 'Adding lab toolbox user failed',
} as const;


/**
 * The approved price a new financial-aid record starts with: the reduced price of the financial
 * assistance program (SPEC §9 "a general limit of 100", read in SPEC-NOTES as 100 USD), in cents.
 */
export const FINANCIAL_AID_DEFAULT_PRICE_CENTS = 100_00;
