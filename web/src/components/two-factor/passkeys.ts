/** The browser's side of WebAuthn (@simplewebauthn/browser): create a passkey, or sign in with one. */
import type { startAuthentication as StartAuthentication, startRegistration as StartRegistration } from '@simplewebauthn/browser';
import type { Me } from '@platform/domain';
import { answerSecondFactor, passkeyRegistrationOptions, passkeySignInOptions, registerPasskey, type EnrolDuring, type FactorEnrolled } from '../../api/two-factor';

export const passkeysSupported = () => typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';

export async function enrolPasskey(during: EnrolDuring, label: string | null, rememberDevice: boolean): Promise<FactorEnrolled> {
  const { options } = await passkeyRegistrationOptions(during);
  // Loaded when used: the sign-in page's JavaScript stays small for those who type a code.
  const { startRegistration } = await import('@simplewebauthn/browser');
  const response = await startRegistration({ optionsJSON: options as Parameters<typeof StartRegistration>[0]['optionsJSON'] });
  return registerPasskey(during, { response, label, rememberDevice });
}

export async function signInWithPasskey(rememberDevice: boolean): Promise<Me> {
  const { options } = await passkeySignInOptions();
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const response = await startAuthentication({ optionsJSON: options as Parameters<typeof StartAuthentication>[0]['optionsJSON'] });
  return answerSecondFactor({ method: 'passkey', response: response as unknown as Record<string, unknown>, rememberDevice });
}

/** What to tell the person when the browser's ceremony failed (cancelled, timed out, not allowed). */
export function passkeyProblem(error: unknown): string {
  const name = (error as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey was not used (cancelled or timed out). Please try again.';
  if (error instanceof Error && 'status' in error) return error.message;
  return 'The passkey could not be used. Please try again or use another way.';
}
