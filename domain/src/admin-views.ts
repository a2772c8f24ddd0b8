/**
 * What the admin portal's endpoints (and the clinic's account-users page) answer, as JSON. Types
 * only; the request schemas are in admin-schemas.ts. Lists are JSON arrays with x-total-count.
 */
import type { AccessStatus, AccountRole, AccountType, JobStatus, ProviderTitle, Specialty } from './enums';
import type { EmailCampaign } from './admin-values';
import type { EmailStatus } from './record-values';

/** GET admin/attention: what needs an admin now (the home page). */
export interface AdminAttention {
  pendingProviders: number;
  failedJobs: number;
  failedEmails: number;
}

/** GET admin/accounts (rows), POST admin/accounts/create (201). */
export interface AdminAccountRow {
  id: number;
  name: string;
  type: AccountType;
  eapPartner: boolean;
  international: boolean;
  clinicAccess: boolean;
  researchAccess: boolean;
  takesPatientOrders: boolean;
  isActive: boolean;
  departments: string[];
  physicianCount: number;
  userCount: number;
  createdAt: string;
}

/** One account a contact may act in, with the role and whether that access is active. */
export interface ContactMembership {
  accountId: number;
  accountName: string;
  role: AccountRole;
  isActive: boolean;
}

/** GET admin/contacts, admin/contacts/pending and provider-clinic/{id}/contacts (rows); contacts/{id}. */
export interface ContactRow {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  title: ProviderTitle | null;
  specialty: Specialty | null;
  npi: string | null;
  accessStatus: AccessStatus;
  /** The practice named when asking for access. */
  requestedAccountName: string | null;
  requestNote: string | null;
  decisionReason: string | null;
  decidedAt: string | null;
  /** The sign-in user: null until access is granted. */
  userId: number | null;
  userActive: boolean | null;
  lastLoginAt: string | null;
  memberships: ContactMembership[];
  createdAt: string;
}

/** A contact with whom they work in one account: staff → their physicians, physician → their staff. */
export interface ContactDetail extends ContactRow {
  /** Per account: the physicians a support staff member is linked to (contact ids and names). */
  staffLinks: { accountId: number; physicians: { contactId: number; name: string }[] }[];
}

/** POST contacts/create (201; admin and an account's super admin): the toast text and the new user. */
export interface ProviderRegistered {
  message: string;
  contact: ContactDetail;
}

/** One invitation on an account's users page: Invited, awaiting acceptance (only what the Super Admin typed). */
export interface AccountInvitationRow {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  title: ProviderTitle;
  role: AccountRole;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  /** Past its last day: the link no longer works; cancel it and invite again. */
  expired: boolean;
}

/** POST contacts/create by an account's Super Admin (201): the same answer whoever the address belongs to. */
export interface AccountUserInvited {
  message: string;
  invitation: AccountInvitationRow;
}

/** POST auth/account-invitation: what the emailed link opens (to the holder of the link only). */
export interface AccountInvitationPreview {
  accountName: string;
  invitedBy: string | null;
  email: string;
  role: AccountRole;
  expiresAt: string;
}

/** POST auth/account-invitation/accept: what was done, and where the person goes next. */
export interface AccountInvitationAccepted {
  message: string;
  /** 'sign-in': they already had a sign-in (the account is added to it); 'set-password': a new person chooses a password at `path`. */
  next: 'sign-in' | 'set-password';
  path: string;
}

/** GET provider-staff-relationships/get-support-staff?accountId= */
export interface SupportStaffRow {
  contactId: number;
  name: string;
  email: string;
  physicians: { contactId: number; name: string }[];
}

/** GET admin/lab-toolbox/users (rows). POST …/create answers { message, user }. */
export interface LabUserRow {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  isActive: boolean;
  lastLoginAt: string | null;
  createdAt: string;
}

export interface LabUserCreated {
  /** The toast text (SPEC §8: lab toolbox user creation shows the server's message). */
  message: string;
  user: LabUserRow;
}

/** GET insurance-plans (patient ordering reads active ones) and admin/insurance-plans (all). */
export interface InsurancePlanRow {
  id: number;
  name: string;
  payerCode: string | null;
  isActive: boolean;
}

/** POST admin/patients/search (at most 20). */
export interface AdminPatientOption {
  id: number;
  name: string;
  dateOfBirth: string;
  email: string | null;
  /** Null for a patient who orders for themselves. */
  accountName: string | null;
}

/** GET admin/patients/financial-assistance (rows). */
export interface FinancialAidRow {
  id: number;
  patientId: number;
  patientName: string;
  patientEmail: string | null;
  dateOfBirth: string;
  status: AccessStatus;
  approvedPriceCents: number | null;
  validUntil: string | null;
  /** Valid today: approved and not past its end date. */
  current: boolean;
  note: string | null;
  createdBy: string | null;
  createdAt: string;
}

/** The answer to a grant: the record, and its assistance code shown this once (only its hash is kept). */
export interface CreatedFinancialAid extends FinancialAidRow {
  /** ABCDE-23456: what the patient enters at payment. */
  assistanceCode: string;
  /** Where the code was emailed; null when the patient has no email on file (the admin gives it to them). */
  codeEmailedTo: string | null;
}

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

/** GET admin/jobs/summary */
export interface JobSummary {
  /** BullMQ's own counts on the queue. */
  queue: { waiting: number; active: number; delayed: number; failed: number; completed: number };
  /** The job rows by status. */
  rows: Record<JobStatus, number>;
}

/** GET admin/jobs (rows). */
export interface JobRow {
  id: number;
  name: string;
  status: JobStatus;
  progress: number;
  attempts: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

/** POST admin/jobs/{id}/retry and admin/jobs/retry-failed. */
export interface JobsRetried {
  retried: number;
}
