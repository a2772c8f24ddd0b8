/**
 * An account's users, managed by the account's Super Admin (/api/provider-clinic/{accountId}/…,
 * docs/admin-api.md): the users list and one user, adding a user, their role and access in this
 * account, and the physicians a support staff member works for. Anyone else is refused (403).
 */
import useSWR from 'swr';
import type {
  AccountAccessBody, AccountInvitationRow, AccountUserInvited, ActivateDeactivateBody, ContactDetail, ContactInAccountBody, ContactRow, RegisterProviderBody,
  StaffLinksBody, SupportStaffRow,
} from '@platform/domain';
import { MAX_PAGE_SIZE } from '@platform/domain';
import { type ApiError, apiFetch, apiFetchPage, queryString, type Page } from './fetcher';
import { ME_PATH } from './auth';
import { clinicApiPath } from './clinic';
import { useApiQuery, useRefreshApi, withErrorHeading } from './query';

// Declared once in domain/src/admin-views.ts (the API's services return them).
export type { AccountInvitationRow, AccountUserInvited, ContactDetail, ContactRow, SupportStaffRow };


/** What the add-user form sends: a new provider user with a role in this account only. */
export type NewAccountUserInput = Omit<RegisterProviderBody, 'accounts'> & { role: RegisterProviderBody['accounts'][number]['role'] };

export interface AccountUsersParams {
  q: string;
  page: number;
  pageSize: number;
}

const usersPath = (accountId: number, params: AccountUsersParams) => clinicApiPath(accountId, `contacts?${queryString({ ...params })}`);

/** A refusal the page explains itself (not a super admin of the account): no error modal. */
const QUIET = [403] as const;

/** One page of the account's users (a search on name or email), with the total from x-total-count. */
export function useAccountUsers(accountId: number, params: AccountUsersParams) {
  return useSWR<Page<ContactRow>, ApiError>(
    ['page', usersPath(accountId, params)],
    ([, p]: [string, string]) => apiFetchPage<ContactRow>(p),
    withErrorHeading({ keepPreviousData: true, errorHeading: 'Error retrieving users', quietStatuses: QUIET }),
  );
}

/**
 * The account's users with the Physician role (contact ids: what support staff are linked to),
 * read as one page of the largest size.
 */
export function useAccountPhysicianContacts(accountId: number) {
  return useSWR<Page<ContactRow>, ApiError>(
    ['page', usersPath(accountId, { q: '', page: 1, pageSize: MAX_PAGE_SIZE })],
    ([, p]: [string, string]) => apiFetchPage<ContactRow>(p),
    withErrorHeading({ errorHeading: 'Error retrieving physicians', quietStatuses: QUIET }),
  );
}

/**
 * One user of the account, with the physicians they work for. A 404 (not, or no longer, a user of
 * this account: after a removal, say) is the page's to say.
 */
export const useAccountUser = (accountId: number, contactId: number | null) =>
  useSWR<ContactDetail, ApiError>(
    contactId ? clinicApiPath(accountId, `contacts/${contactId}`) : null,
    (p: string) => apiFetch<ContactDetail>(p),
    withErrorHeading({ errorHeading: 'Error retrieving contact details', quietStatuses: [404, 403] }),
  );

/** The account's invitations awaiting acceptance (a Super Admin's "Add user" sends one). */
export const useAccountInvitations = (accountId: number) =>
  useApiQuery<AccountInvitationRow[]>(clinicApiPath(accountId, 'invitations'), { errorHeading: 'Error retrieving invitations' });

/** The account's support staff and the physicians each works for. */
export const useSupportStaff = (accountId: number) =>
  useApiQuery<SupportStaffRow[]>(clinicApiPath(accountId, `provider-staff-relationships/get-support-staff?${queryString({ accountId })}`), {
    errorHeading: 'Error retrieving support staff',
  });

/**
 * After a change to a user: every cached read of the account's clinic data is stale (its users,
 * staff links and the physicians one may order for), and who is signed in may have changed too
 * (one's own role or access).
 */
export function useRefreshAccountUsers(accountId: number) {
  const refreshClinic = useRefreshApi(clinicApiPath(accountId, ''));
  const refreshMe = useRefreshApi(ME_PATH);
  return () => Promise.all([refreshClinic(), refreshMe()]);
}

// ---------------------------------------------------------------------------------------------
// Commands (each answers the user as they now are)
// ---------------------------------------------------------------------------------------------

/** "Add user": an invitation, emailed; the person joins when they accept it. */
export const createAccountUser = (accountId: number, { role, ...person }: NewAccountUserInput) =>
  apiFetch<AccountUserInvited>(clinicApiPath(accountId, 'contacts/create'), {
    method: 'POST',
    body: { ...person, accounts: [{ accountId, role }] } satisfies RegisterProviderBody,
  });

/** Cancels an invitation (its link stops working); answers the invitations still waiting. */
export const cancelAccountInvitation = (accountId: number, invitationId: number) =>
  apiFetch<AccountInvitationRow[]>(clinicApiPath(accountId, `invitations/${invitationId}/cancel`), { method: 'POST' });

/** Gives the user this role in the account (a role change, or access again after a removal). */
export const addAccountAccess = (accountId: number, body: Omit<AccountAccessBody, 'accountId'>) =>
  apiFetch<ContactDetail>(clinicApiPath(accountId, 'add-account-access'), { method: 'POST', body: { ...body, accountId } satisfies AccountAccessBody });

export const removeAccountAccess = (accountId: number, contactId: number) =>
  apiFetch<ContactDetail>(clinicApiPath(accountId, 'remove-account-access'), { method: 'POST', body: { contactId, accountId } satisfies ContactInAccountBody });

export const addSuperAdmin = (accountId: number, contactId: number) =>
  apiFetch<ContactDetail>(clinicApiPath(accountId, 'add-super-admin'), { method: 'POST', body: { contactId, accountId } satisfies ContactInAccountBody });

/** Activates or deactivates the user's access to this account (not the user elsewhere). */
export const setAccountUserActive = (accountId: number, contactId: number, active: boolean) =>
  apiFetch<ContactDetail>(clinicApiPath(accountId, 'activate-deactivate'), {
    method: 'POST',
    body: { contactId, accountId, active } satisfies ActivateDeactivateBody,
  });

/** Replaces the physicians a support staff member works for in this account. */
export const upsertStaffLinks = (accountId: number, staffContactId: number, physicianContactIds: number[]) =>
  apiFetch<SupportStaffRow[]>(clinicApiPath(accountId, 'provider-staff-relationships/upsert'), {
    method: 'POST',
    body: { accountId, staffContactId, physicianContactIds } satisfies StaffLinksBody,
  });
