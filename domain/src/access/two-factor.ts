/**
 * Two-factor sign-in (issue 29, part 1): the factors (an authenticator app's TOTP code, a passkey or
 * security key), single-use recovery codes, remembered devices, and who must use a second factor.
 * Plain values and answer shapes (the SPA imports these); the request schemas are in two-factor-schemas.ts.
 */
import * as s from '../shared/shapes';
import { valuesOf } from '../shared/values';
import { Me } from './views';
import { UserKind } from './access';

export const TwoFactorKind = { Totp: 'totp', Passkey: 'passkey' } as const;
export type TwoFactorKind = (typeof TwoFactorKind)[keyof typeof TwoFactorKind];
export const TWO_FACTOR_KINDS = valuesOf(TwoFactorKind);

/** How a second step is answered: a factor, or one of the recovery codes. */
export const SecondFactorMethod = { Totp: 'totp', Passkey: 'passkey', Recovery: 'recovery' } as const;
export type SecondFactorMethod = (typeof SecondFactorMethod)[keyof typeof SecondFactorMethod];
export const SECOND_FACTOR_METHODS = valuesOf(SecondFactorMethod);

/**
 * The kinds of user who must sign in with a second factor (they enrol at their next sign-in).
 * A provider must when any account they are a member of requires it (accounts.require_two_factor).
 */
export const TWO_FACTOR_REQUIRED_KINDS: readonly UserKind[] = [UserKind.Admin, UserKind.Lab];

/** Whether a user of this kind, member of accounts of which `accountRequires` say whether they require it, must use a second factor. */
export function mustUseSecondFactor(kind: UserKind, accountRequires: readonly boolean[]): boolean {
  return TWO_FACTOR_REQUIRED_KINDS.includes(kind) || (kind === UserKind.Provider && accountRequires.some(Boolean));
}

/** The cookie that remembers a device (its token; the hash is a row of remembered_devices), sent on /api/auth only. */
export const REMEMBERED_DEVICE_COOKIE = 'platform.remembered';
export const REMEMBERED_DEVICE_COOKIE_PATH = '/api/auth';

/** RFC 6238 as authenticator apps do it: 6 digits, a 30-second step, one step of drift either way. */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DRIFT_STEPS = 1;
/** A password checked, the second step pending: this long to answer it. */
export const SECOND_STEP_MINUTES = 10;
/** "Remember this device": the second step is skipped on this browser for this long. */
export const REMEMBER_DEVICE_DAYS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** A recovery code: 10 characters of Crockford's base32 shown as two groups of five (xxxxx-xxxxx). */
export const RECOVERY_CODE_PATTERN = /^[0-9a-hjkmnp-tv-z]{5}-?[0-9a-hjkmnp-tv-z]{5}$/i;
/** Wrong second-step answers allowed per user per window (LOGIN_THROTTLE_WINDOW_SECONDS). */
export const SECOND_STEP_FAILURES_PER_USER = 5;

/** The answer to a right password when a second step follows (POST auth/login): no session yet. */
export const SecondFactorChallenge = s.object({
  secondFactor: s.object({
    required: s.literal(true),
    /** No factor yet and one is required: the enrolment screen comes first. */
    enrol: s.boolean,
    methods: s.array(s.oneOf(SECOND_FACTOR_METHODS)),
  }),
});
export type SecondFactorChallenge = s.Infer<typeof SecondFactorChallenge>;

/** POST auth/login: the signed-in person, or the second step to answer. */
export const LoginAnswer = s.union(Me, SecondFactorChallenge);
export type LoginAnswer = s.Infer<typeof LoginAnswer>;

export const isSecondFactorChallenge = (answer: LoginAnswer): answer is SecondFactorChallenge => 'secondFactor' in answer;

/** A TOTP factor being set up: the secret (to type), its otpauth URI and the URI as a QR code (an SVG document). */
export const TotpSetup = s.object({ secret: s.string, uri: s.string, qrSvg: s.string });
export type TotpSetup = s.Infer<typeof TotpSetup>;

/** A factor enrolled: the recovery codes when new ones were made (shown once), and the person when this finished a sign-in. */
export const FactorEnrolled = s.object({
  recoveryCodes: s.nullable(s.array(s.string)),
  me: s.nullable(Me),
});
export type FactorEnrolled = s.Infer<typeof FactorEnrolled>;

export const RecoveryCodes = s.object({ recoveryCodes: s.array(s.string) });
export type RecoveryCodes = s.Infer<typeof RecoveryCodes>;

export const TwoFactorFactorView = s.object({
  id: s.integer,
  kind: s.oneOf(TWO_FACTOR_KINDS),
  label: s.string,
  createdAt: s.string,
  lastUsedAt: s.nullable(s.string),
});
export type TwoFactorFactorView = s.Infer<typeof TwoFactorFactorView>;

/** GET auth/two-factor: the signed-in person's factors. */
export const TwoFactorStatus = s.object({
  required: s.boolean,
  factors: s.array(TwoFactorFactorView),
  recoveryCodesLeft: s.integer,
  rememberedDevices: s.integer,
});
export type TwoFactorStatus = s.Infer<typeof TwoFactorStatus>;

/** A WebAuthn ceremony's options as @simplewebauthn/server makes them (passed to the browser's startRegistration / startAuthentication). */
export const PasskeyOptions = s.object({ options: s.unknown });
export type PasskeyOptions = s.Infer<typeof PasskeyOptions>;

/** An account's "Require two-factor sign-in" (its Super Admin's setting). */
export const TwoFactorRequirement = s.object({ required: s.boolean });
export type TwoFactorRequirement = s.Infer<typeof TwoFactorRequirement>;
