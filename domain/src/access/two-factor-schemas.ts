/** Request schemas of two-factor sign-in (the answers and rules are in two-factor.ts). */
import Joi from 'joi';
import { PASSWORD_MAX_LENGTH } from './passwords';
import { RECOVERY_CODE_PATTERN, SECOND_FACTOR_METHODS, TOTP_DIGITS, type SecondFactorMethod } from './two-factor';

const STRICT_KEYS = { allowUnknown: false } as const;

const totpCode = Joi.string().trim().pattern(/^\d+$/).length(TOTP_DIGITS).label('Code')
  .messages({ 'string.pattern.base': `{#label} must be the ${TOTP_DIGITS} digits your authenticator app shows`, 'string.length': `{#label} must be the ${TOTP_DIGITS} digits your authenticator app shows` });
const recoveryCode = Joi.string().trim().pattern(RECOVERY_CODE_PATTERN).label('Recovery code')
  .messages({ 'string.pattern.base': '{#label} must be one of your ten recovery codes (xxxxx-xxxxx)' });
/** A WebAuthn response as the browser's @simplewebauthn/browser returns it: checked by @simplewebauthn/server. */
const webauthnResponse = Joi.object({ id: Joi.string().max(1024).required(), rawId: Joi.string().max(1024).required(), type: Joi.string().valid('public-key').required() })
  .unknown(true).label('Passkey response');

export interface SecondFactorBody { method: SecondFactorMethod; code?: string; response?: Record<string, unknown>; rememberDevice: boolean }
/** POST auth/second-factor: the second step of a sign-in. */
export const secondFactorBody = Joi.object<SecondFactorBody>({
  method: Joi.string().valid(...SECOND_FACTOR_METHODS).required().label('Method'),
  code: Joi.when('method', { switch: [{ is: 'totp', then: totpCode.required() }, { is: 'recovery', then: recoveryCode.required() }], otherwise: Joi.forbidden() }),
  response: Joi.when('method', { is: 'passkey', then: webauthnResponse.required(), otherwise: Joi.forbidden() }),
  rememberDevice: Joi.boolean().default(false).label('Remember this device'),
}).options(STRICT_KEYS).label('Request body');

export interface TotpConfirmBody { code: string; rememberDevice: boolean }
/** POST auth/two-factor/totp/confirm: the first code of the app just set up. */
export const totpConfirmBody = Joi.object<TotpConfirmBody>({
  code: totpCode.required(),
  rememberDevice: Joi.boolean().default(false).label('Remember this device'),
}).options(STRICT_KEYS).label('Request body');

export interface PasskeyRegisterBody { response: Record<string, unknown>; label: string | null; rememberDevice: boolean }
/** POST auth/two-factor/passkey: the browser's answer to the registration options. */
export const passkeyRegisterBody = Joi.object<PasskeyRegisterBody>({
  response: webauthnResponse.required(),
  label: Joi.string().trim().max(60).allow('', null).empty(['', null]).default(null).label('Name'),
  rememberDevice: Joi.boolean().default(false).label('Remember this device'),
}).options(STRICT_KEYS).label('Request body');

export interface PasswordConfirmBody { password: string }
/** Removing a factor or making new recovery codes: the password again. */
export const passwordConfirmBody = Joi.object<PasswordConfirmBody>({
  password: Joi.string().min(1).max(PASSWORD_MAX_LENGTH).label('Password').required(),
}).options(STRICT_KEYS).label('Request body');

export interface TwoFactorRequirementBody { required: boolean }
/** PUT the account's "Require two-factor sign-in". */
export const twoFactorRequirementBody = Joi.object<TwoFactorRequirementBody>({
  required: Joi.boolean().strict().label('Require two-factor sign-in').required(),
}).options(STRICT_KEYS).label('Request body');
