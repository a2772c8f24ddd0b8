/** What the email log and the campaign endpoints answer, as JSON. Types only. */
import type { JobStatus } from '../jobs/jobs';
import type { EmailCampaign, EmailStatus } from './emails';

/** GET admin/emails (rows): never the body (a sent link's token is not shown, even redacted). */
export interface EmailLogRow {
  id: number;
  toAddress: string;
  subject: string;
  template: string | null;
  status: EmailStatus;
  error: string | null;
  sentAt: string | null;
  createdAt: string;
  campaignId: number | null;
}

/** POST admin/send-email/{campaign} with preview: true. */
export interface CampaignPreview {
  campaign: EmailCampaign;
  recipientCount: number;
  /** The first few recipients, to check the audience. */
  sampleRecipients: { name: string; email: string }[];
  subject: string;
  text: string;
}

/** POST admin/send-email/{campaign} (202) and GET admin/email-campaigns/{id}. */
export interface CampaignProgress {
  id: number;
  campaign: EmailCampaign;
  recipientCount: number;
  queued: number;
  sent: number;
  failed: number;
  jobId: number | null;
  jobStatus: JobStatus | null;
  createdAt: string;
}

/** GET admin/email-campaigns (rows). */
export type CampaignRow = CampaignProgress;

/** GET admin/email-campaigns/{id}/recipients (rows). */
export interface CampaignRecipientRow {
  contactId: number;
  name: string;
  toAddress: string;
  emailId: number | null;
  /** 'Not queued' until the job has written this person's email. */
  status: EmailStatus | 'Not queued';
  sentAt: string | null;
}
