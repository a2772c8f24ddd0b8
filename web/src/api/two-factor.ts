/** Two-factor sign-in: the second step, enrolment (at sign-in or from the user's menu), the factors, an admin's reset, an account's requirement. */
import type { FactorEnrolled, Me, PasskeyOptions, RecoveryCodes, SecondFactorBody, TotpSetup, TwoFactorRequirement, TwoFactorStatus } from '@platform/domain';
import { apiFetch, forgetCsrfToken } from './fetcher';
import { useApiQuery } from './query';

export type { FactorEnrolled, TotpSetup, TwoFactorStatus };

/** Where enrolment happens: during a sign-in that must enrol, or signed in from the menu. */
export type EnrolDuring = 'sign-in' | 'menu';
const enrolBase = (during: EnrolDuring) => (during === 'sign-in' ? '/auth/second-factor/enrol' : '/auth/two-factor');

export const TWO_FACTOR_PATH = '/auth/two-factor';

export function useTwoFactorStatus(enabled = true) {
  return useApiQuery<TwoFactorStatus>(enabled ? TWO_FACTOR_PATH : null, { errorHeading: 'Error retrieving your two-factor sign-in' });
}

export async function answerSecondFactor(body: SecondFactorBody): Promise<Me> {
  const me = await apiFetch<Me>('/auth/second-factor', { method: 'POST', body });
  forgetCsrfToken();
  return me;
}

export async function passkeySignInOptions(): Promise<PasskeyOptions> {
  return apiFetch<PasskeyOptions>('/auth/second-factor/passkey-options', { method: 'POST' });
}

export function startTotpSetup(during: EnrolDuring): Promise<TotpSetup> {
  return apiFetch<TotpSetup>(`${enrolBase(during)}/totp`, { method: 'POST' });
}

export async function confirmTotp(during: EnrolDuring, body: { code: string; rememberDevice: boolean }): Promise<FactorEnrolled> {
  const answer = await apiFetch<FactorEnrolled>(`${enrolBase(during)}/totp/confirm`, { method: 'POST', body });
  if (answer.me) forgetCsrfToken();
  return answer;
}

export function passkeyRegistrationOptions(during: EnrolDuring): Promise<PasskeyOptions> {
  return apiFetch<PasskeyOptions>(`${enrolBase(during)}/passkey/options`, { method: 'POST' });
}

export async function registerPasskey(during: EnrolDuring, body: { response: unknown; label: string | null; rememberDevice: boolean }): Promise<FactorEnrolled> {
  const answer = await apiFetch<FactorEnrolled>(`${enrolBase(during)}/passkey`, { method: 'POST', body });
  if (answer.me) forgetCsrfToken();
  return answer;
}

export function removeFactor(factorId: number, password: string): Promise<void> {
  return apiFetch<void>(`/auth/two-factor/factors/${factorId}/remove`, { method: 'POST', body: { password } });
}

export function newRecoveryCodes(password: string): Promise<RecoveryCodes> {
  return apiFetch<RecoveryCodes>('/auth/two-factor/recovery-codes', { method: 'POST', body: { password } });
}

/** The lab's admin: resets a user's factors (the user is emailed). */
export function resetUserTwoFactor(userId: number): Promise<void> {
  return apiFetch<void>(`/admin/users/${userId}/two-factor/reset`, { method: 'POST' });
}

const requirementPath = (accountId: number) => `/provider-clinic/${accountId}/two-factor-requirement`;

export function useTwoFactorRequirement(accountId: number | null) {
  return useApiQuery<TwoFactorRequirement>(accountId ? requirementPath(accountId) : null, { errorHeading: 'Error retrieving the account settings' });
}

export function setTwoFactorRequirement(accountId: number, required: boolean): Promise<TwoFactorRequirement> {
  return apiFetch<TwoFactorRequirement>(requirementPath(accountId), { method: 'PUT', body: { required } });
}
