/**
 * The admin portal's endpoints (/api/admin/…, docs/admin-api.md): one SWR hook per resource, the
 * commands, paginated lists that read x-total-count, and the bulk-email progress polled while a
 * campaign runs. Request bodies are the domain's types (admin-schemas.ts, types only: its joi
 * schemas stay on the server); answers are admin-views.ts. This layer imports no UI.
 */
import useSWR from 'swr';
import type {
  AccessStatus, AccountAccessBody, AccountAccessFilter, AccountGrant, AccountType, ActivateDeactivateBody, AdminAccountDetail, AdminAccountRow, AdminAttention, AdminPatientOption, CampaignAudience,
  CampaignPreview, CampaignProgress, CampaignRecipientRow, CampaignRow, ContactDetail, ContactInAccountBody, ContactRow, CreateAccountBody,
  CreatedFinancialAid, CreateFinancialAidBody, CreateLabUserBody, EmailCampaign, EmailLogRow, EmailStatus, FinancialAidRow, InsurancePlanBody, InsurancePlanRow,
  JobRow, JobsRetried, JobStatus, JobSummary, LabUserCreated, LabUserRow, ProviderRegistered, RegisterProviderBody, StaffLinksBody, SupportStaffRow,
  UpdateAccessBody, UpdateAccountBody,
} from '@platform/domain';
import { ApiError, apiFetch, queryString } from './fetcher';
import { useApiPage, useApiQuery, useRefreshApi, withErrorHeading } from './query';

const BASE = '/admin';
export const adminApiPath = (path: string) => `${BASE}/${path}`;

const query = queryString;

// ---------------------------------------------------------------------------------------------
// Shapes
// ---------------------------------------------------------------------------------------------

// Declared once in domain/ (admin-views.ts answers, admin-schemas.ts request bodies).
export type {
  AccountGrant, AdminAccountDetail, AdminAccountRow, AdminPatientOption, ProviderRegistered, AdminAttention, CampaignAudience, CampaignPreview, CampaignProgress, CampaignRecipientRow, CampaignRow,
  ContactDetail, ContactRow, CreateAccountBody, CreateFinancialAidBody, EmailLogRow, FinancialAidRow, InsurancePlanBody, InsurancePlanRow,
  JobRow, JobsRetried, JobSummary, LabUserCreated, LabUserRow, RegisterProviderBody, SupportStaffRow, UpdateAccountBody,
};


/** The largest page a list endpoint gives (SPEC §9 "200"): pickers read one page of this size. */
export const PICKER_PAGE_SIZE = 200;

// ---------------------------------------------------------------------------------------------
// Reads
// ---------------------------------------------------------------------------------------------

/** After a command: every cached admin read is stale. */
export const useRefreshAdmin = () => useRefreshApi(BASE);

/**
 * What needs an admin now (the home page). A 404 (an API without this endpoint yet) is the home
 * page's to show quietly: the tools below it still work, so no error modal blocks them.
 */
export const useAdminAttention = () =>
  useSWR<AdminAttention, ApiError>(adminApiPath('attention'), (p: string) => apiFetch<AdminAttention>(p), withErrorHeading({
    errorHeading: 'Error retrieving what needs attention',
    quietStatuses: [404],
  }));

export const useAdminAccounts = (params: { q?: string; access?: AccountAccessFilter | null; type?: AccountType | null; page: number; pageSize: number }) =>
  useApiPage<AdminAccountRow>(adminApiPath(`accounts?${query(params)}`), { errorHeading: 'Error retrieving accounts' });

/** One account as its page edits it. */
export const useAdminAccount = (accountId: number | null) =>
  useApiQuery<AdminAccountDetail>(accountId ? adminApiPath(`accounts/${accountId}`) : null, { errorHeading: 'Error retrieving accounts' });

export interface ContactsParams {
  q?: string;
  accountId?: number | null;
  status?: AccessStatus | null;
  page: number;
  pageSize: number;
}

export const useContacts = (params: ContactsParams | null) =>
  useApiPage<ContactRow>(params ? adminApiPath(`contacts?${query({ ...params })}`) : null, { errorHeading: 'Error retrieving contact details' });

export const usePendingContacts = () =>
  useApiQuery<ContactRow[]>(adminApiPath('contacts/pending'), { errorHeading: 'Error retrieving contact details' });

export const useContact = (contactId: number | null) =>
  useApiQuery<ContactDetail>(contactId ? adminApiPath(`contacts/${contactId}`) : null, { errorHeading: 'Error retrieving contact details' });

export const useSupportStaff = (accountId: number | null) =>
  useApiQuery<SupportStaffRow[]>(
    accountId ? adminApiPath(`provider-staff-relationships/get-support-staff?${query({ accountId })}`) : null,
    { errorHeading: 'Error retrieving physicians' },
  );

export const useLabUsers = () => useApiQuery<LabUserRow[]>(adminApiPath('lab-toolbox/users'), { errorHeading: 'Error retrieving lab toolbox users' });

export const useInsurancePlans = () =>
  useApiQuery<InsurancePlanRow[]>(adminApiPath('insurance-plans'), { errorHeading: 'Error retrieving insurance plans' });

export const useFinancialAid = (params: { patientId?: number | null; page: number; pageSize: number }) =>
  useApiPage<FinancialAidRow>(adminApiPath(`patients/financial-assistance?${query(params)}`), { errorHeading: 'Error retrieving financial assistance records' });

export const ADMIN_PATIENT_SEARCH_MIN_LENGTH = 2;

type PatientSearchKey = readonly ['admin-patient-search', string];

/** Patients in every account matching `q` (a POST: names stay out of URLs); nothing below the minimum length. */
export function useAdminPatientSearch(q: string) {
  const trimmed = q.trim();
  const key: PatientSearchKey | null = trimmed.length >= ADMIN_PATIENT_SEARCH_MIN_LENGTH ? ['admin-patient-search', trimmed] : null;
  return useSWR<AdminPatientOption[], ApiError, PatientSearchKey | null>(
    key,
    ([, text]: PatientSearchKey) => searchPatients(text),
    withErrorHeading({ keepPreviousData: true, errorHeading: 'Error retrieving patient details' }),
  );
}

export const useEmailLog = (params: { q?: string; status?: EmailStatus | null; template?: string | null; page: number; pageSize: number }) =>
  useApiPage<EmailLogRow>(adminApiPath(`emails?${query(params)}`), { errorHeading: 'Error retrieving emails' });

export const useCampaigns = (params: { page: number; pageSize: number }) =>
  useApiPage<CampaignRow>(adminApiPath(`email-campaigns?${query(params)}`), { errorHeading: 'Error retrieving email campaigns' });

/**
 * Whether a campaign has nothing more to do: every recipient's email sent or failed, or its job
 * failed with nothing left queued (the recipients it did not reach stay 'Not queued').
 */
export function campaignFinished(c: CampaignProgress): boolean {
  if (c.sent + c.failed >= c.recipientCount) return true;
  return c.jobStatus === 'Failed' && c.queued === 0;
}

const CAMPAIGN_POLL_MS = 1000;

/** A campaign's progress, polled every second until it is finished (the progress bar). */
export function useCampaign(campaignId: number | null) {
  return useSWR<CampaignProgress, ApiError>(campaignId ? adminApiPath(`email-campaigns/${campaignId}`) : null, (p: string) => apiFetch<CampaignProgress>(p), withErrorHeading({
    dedupingInterval: 500,
    refreshInterval: (c: CampaignProgress | undefined) => (!c || !campaignFinished(c) ? CAMPAIGN_POLL_MS : 0),
    errorHeading: 'Error retrieving the email campaign',
  }));
}

export const useCampaignRecipients = (campaignId: number | null, params: { page: number; pageSize: number }) =>
  useApiPage<CampaignRecipientRow>(campaignId ? adminApiPath(`email-campaigns/${campaignId}/recipients?${query(params)}`) : null, {
    errorHeading: 'Error retrieving the campaign recipients',
  });

export const useJobSummary = () => useApiQuery<JobSummary>(adminApiPath('jobs/summary'), { errorHeading: 'Error retrieving jobs' });

export const useJobs = (params: { status?: JobStatus | null; name?: string | null; page: number; pageSize: number }) =>
  useApiPage<JobRow>(adminApiPath(`jobs?${query(params)}`), { errorHeading: 'Error retrieving jobs' });

// ---------------------------------------------------------------------------------------------
// Commands
// ---------------------------------------------------------------------------------------------

const post = <T>(path: string, body?: unknown) => apiFetch<T>(adminApiPath(path), { method: 'POST', body });

export const createAccount = (body: CreateAccountBody) => post<AdminAccountRow>('accounts/create', body);

export const updateAccount = (accountId: number, body: UpdateAccountBody) =>
  apiFetch<AdminAccountDetail>(adminApiPath(`accounts/${accountId}`), { method: 'PUT', body });

export const registerProvider = (body: RegisterProviderBody) => post<ProviderRegistered>('contacts/create', body);

export const approveContact = (contactId: number, accounts: AccountGrant[], npi: string | null = null) =>
  post<ContactDetail>('contacts/update-access', { contactId, decision: 'Approved', accounts, ...(npi ? { npi } : {}) } satisfies Omit<UpdateAccessBody, 'reason'>);

/** Sets or corrects a provider's NPI (null clears it); their physician entries follow. */
export const setContactNpi = (contactId: number, npi: string | null) => post<ContactDetail>(`contacts/${contactId}/npi`, { npi });

export const denyContact = (contactId: number, reason: string) =>
  post<ContactDetail>('contacts/update-access', { contactId, decision: 'Denied', reason } satisfies Omit<UpdateAccessBody, 'accounts'>);

export const addAccountAccess = (body: AccountAccessBody) => post<ContactDetail>('add-account-access', body);

export const removeAccountAccess = (body: ContactInAccountBody) => post<ContactDetail>('remove-account-access', body);

export const addSuperAdmin = (body: ContactInAccountBody) => post<ContactDetail>('add-super-admin', body);

export const activateDeactivate = (body: ActivateDeactivateBody) => post<ContactDetail>('activate-deactivate', body);

export const upsertStaffLinks = (body: StaffLinksBody) => post<SupportStaffRow[]>('provider-staff-relationships/upsert', body);

export const createLabUser = (body: CreateLabUserBody) => post<LabUserCreated>('lab-toolbox/users/create', body);

export const deactivateLabUser = (userId: number) => post<LabUserRow>('lab-toolbox/users/delete', { userId });

/** Lets a deactivated lab user sign in again (409 when they are already active). */
export const reactivateLabUser = (userId: number) => post<LabUserRow>('lab-toolbox/users/reactivate', { userId });

export const createInsurancePlan = (body: InsurancePlanBody) => post<InsurancePlanRow>('insurance-plans/create', body);

export const updateInsurancePlan = (planId: number, body: InsurancePlanBody) => post<InsurancePlanRow>(`insurance-plans/${planId}/update`, body);

export const searchPatients = (q: string) => post<AdminPatientOption[]>('patients/search', { q });

export const createFinancialAid = (body: CreateFinancialAidBody) => post<CreatedFinancialAid>('patients/financial-assistance/create', body);

export const resendEmail = (emailId: number) => post<EmailLogRow>(`emails/${emailId}/resend`);

export const previewCampaign = (campaign: EmailCampaign, audience: CampaignAudience) =>
  post<CampaignPreview>(`send-email/${campaign}`, { audience, preview: true });

export const sendCampaign = (campaign: EmailCampaign, audience: CampaignAudience) =>
  post<CampaignProgress>(`send-email/${campaign}`, { audience, preview: false });

export const retryJob = (jobId: number) => post<JobsRetried>(`jobs/${jobId}/retry`);

export const retryFailedJobs = () => post<JobsRetried>('jobs/retry-failed');
