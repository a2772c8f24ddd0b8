/** The auth endpoints: who is signed in, sign in and out, switch account, passwords, asking for access. */
import type {
  AccountInvitationAccepted,
  AccountInvitationPreview,
  AccountSummary,
  ChangePasswordBody,
  ForgotPasswordAnswer,
  ForgotPasswordBody,
  LoginAnswer,
  LoginBody,
  Me,
  RequestAccessBody,
  ResetPasswordBody,
} from '@platform/domain';
import { apiFetch, forgetCsrfToken } from './fetcher';
import { useApiQuery } from './query';

// Declared once in domain/src/auth-views.ts (the API's auth service returns them).
export type { AccountSummary as MeAccount, ForgotPasswordAnswer, Me };

export const ME_PATH = '/auth/me';

/**
 * The signed-in person and their accounts. The session layer keeps the stored user in step with
 * each fresh answer (the shell's SWRConfig `onSuccess` hands ME_PATH answers to it).
 */
export function useMe() {
  return useApiQuery<Me>(ME_PATH, { errorHeading: 'Error retrieving accounts' });
}

/** The signed-in person, or (a second factor to give, or to enrol) the second step: no one is signed in yet. */
export async function signIn(body: LoginBody): Promise<LoginAnswer> {
  const answer = await apiFetch<LoginAnswer>('/auth/login', { method: 'POST', body });
  forgetCsrfToken();
  return answer;
}

export async function signOut(): Promise<void> {
  try {
    await apiFetch<void>('/auth/logout', { method: 'POST' });
  } finally {
    forgetCsrfToken();
  }
}

export function switchAccount(accountId: number): Promise<Me> {
  return apiFetch<Me>('/auth/switch-account', { method: 'POST', body: { accountId } });
}

export function requestPasswordReset(body: ForgotPasswordBody): Promise<ForgotPasswordAnswer> {
  return apiFetch<ForgotPasswordAnswer>('/auth/forgot-password', { method: 'POST', body });
}

export function resetPassword(body: ResetPasswordBody): Promise<void> {
  return apiFetch<void>('/auth/reset-password', { method: 'POST', body });
}

export function changePassword(body: ChangePasswordBody): Promise<void> {
  return apiFetch<void>('/auth/change-password', { method: 'POST', body });
}

/** POST auth/request-access (202): one sentence, the same whether or not the email is known. */
export interface RequestAccessAnswer {
  message: string;
}

/** A provider without an account asks for one (no sign-in); an admin approves or denies it. */
export function requestAccess(body: RequestAccessBody): Promise<RequestAccessAnswer> {
  return apiFetch<RequestAccessAnswer>('/auth/request-access', { method: 'POST', body });
}

/** What an account invitation's emailed link is for (404 / 410 once used, cancelled or expired). */
export function previewAccountInvitation(token: string): Promise<AccountInvitationPreview> {
  return apiFetch<AccountInvitationPreview>('/auth/account-invitation', { method: 'POST', body: { token } });
}

/** Accepts an account invitation: the account joins the person's sign-in, or a new person chooses a password next. */
export function acceptAccountInvitation(token: string): Promise<AccountInvitationAccepted> {
  return apiFetch<AccountInvitationAccepted>('/auth/account-invitation/accept', { method: 'POST', body: { token } });
}
