/** What the email log and the campaign endpoints answer, as JSON: answer shapes (shared/shapes.ts), each a type too. */
import * as s from '../shared/shapes';
import { JOB_STATUSES } from '../jobs/jobs';
import { EMAIL_CAMPAIGNS, EMAIL_STATUSES } from './emails';

/** GET admin/emails (rows): never the body (a sent link's token is not shown, even redacted). */
export const EmailLogRow = s.object({
  id: s.integer,
  toAddress: s.string,
  subject: s.string,
  template: s.nullable(s.string),
  status: s.oneOf(EMAIL_STATUSES),
  error: s.nullable(s.string),
  sentAt: s.nullable(s.string),
  createdAt: s.string,
  campaignId: s.nullable(s.integer),
});
export type EmailLogRow = s.Infer<typeof EmailLogRow>;

/** POST admin/send-email/{campaign} with preview: true. */
export const CampaignPreview = s.object({
  campaign: s.oneOf(EMAIL_CAMPAIGNS),
  recipientCount: s.integer,
  /** The first few recipients, to check the audience. */
  sampleRecipients: s.array(s.object({ name: s.string, email: s.string })),
  subject: s.string,
  text: s.string,
});
export type CampaignPreview = s.Infer<typeof CampaignPreview>;

/** POST admin/send-email/{campaign} (202) and GET admin/email-campaigns/{id}. */
export const CampaignProgress = s.object({
  id: s.integer,
  campaign: s.oneOf(EMAIL_CAMPAIGNS),
  recipientCount: s.integer,
  queued: s.integer,
  sent: s.integer,
  failed: s.integer,
  jobId: s.nullable(s.integer),
  jobStatus: s.nullable(s.oneOf(JOB_STATUSES)),
  createdAt: s.string,
});
export type CampaignProgress = s.Infer<typeof CampaignProgress>;

/** GET admin/email-campaigns (rows). */
export const CampaignRow = CampaignProgress;
export type CampaignRow = CampaignProgress;

/** GET admin/email-campaigns/{id}/recipients (rows). */
export const CampaignRecipientRow = s.object({
  contactId: s.integer,
  name: s.string,
  toAddress: s.string,
  emailId: s.nullable(s.integer),
  /** 'Not queued' until the job has written this person's email. */
  status: s.union(s.oneOf(EMAIL_STATUSES), s.literal('Not queued')),
  sentAt: s.nullable(s.string),
});
export type CampaignRecipientRow = s.Infer<typeof CampaignRecipientRow>;
