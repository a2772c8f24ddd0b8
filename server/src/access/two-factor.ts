/**
 * Two-factor sign-in (issue 29, part 1; docs/two-factor.md): who must use a second factor, the
 * factors (TOTP: RFC 6238 through otplib, the secret encrypted with AES-256-GCM under
 * MFA_SECRET_KEY, a code's time step never accepted twice; passkeys and security keys: WebAuthn
 * through @simplewebauthn/server, RP ID the host of PUBLIC_URL), ten single-use recovery codes
 * (kept as hashes), remembered devices (a random token, kept as its hash), removing factors (the
 * password again), the admin's reset and an account's requirement. Loaded through the sign-in
 * entry (`@platform/server/access/sign-in`): it checks passwords, and the worker never loads argon2.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import { generateSecret, generateURI, verifySync } from 'otplib';
import QRCode from 'qrcode';
import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  mustUseSecondFactor, RECOVERY_CODE_COUNT, REMEMBER_DEVICE_DAYS, SecondFactorMethod, TOTP_DIGITS, TOTP_DRIFT_STEPS, TOTP_PERIOD_SECONDS, TwoFactorKind,
  type SecondFactorChallenge, type SessionUser, type TotpSetup, type TwoFactorFactorView, type TwoFactorStatus, type UserKind,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, type Caller, recordAudit } from '../audit';
import { hashToken } from '../auth/tokens';
import { verifyPassword } from '../auth/passwords';
import { conflict, Invalid, notFound } from '../errors';
import { queueEmail } from '../email/queue-email';
import { twoFactorResetEmail } from '../email/templates';
import { endSessionsOf } from './password-links';

type Ctx = Pick<ServerContext, 'db' | 'relay' | 'config'>;

// ---------------------------------------------------------------------------------------------
// The TOTP secret at rest: AES-256-GCM under MFA_SECRET_KEY (the key is its SHA-256).
// ---------------------------------------------------------------------------------------------

const keyOf = (config: Ctx['config']) => createHash('sha256').update(`mfa:${config.mfaSecretKey}`).digest();

export function encryptSecret(config: Ctx['config'], secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(config), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function decryptSecret(config: Ctx['config'], stored: string): string {
  const [version, iv, tag, body] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || !body) throw new Error('Unknown two-factor secret format');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(config), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}

// ---------------------------------------------------------------------------------------------
// Who must, and what a sign-in asks
// ---------------------------------------------------------------------------------------------

/** Whether this user must sign in with a second factor: by their kind, or (a provider) by an account they are a member of. */
export async function secondFactorRequired(ctx: Ctx, user: { id: number; kind: UserKind }): Promise<boolean> {
  const rows = await ctx.db.sequelize.query<{ required: boolean }>(
    `SELECT a.require_two_factor AS required
       FROM contacts c
       JOIN account_memberships m ON m.contact_id = c.id AND m.is_active
       JOIN accounts a ON a.id = m.account_id AND a.is_active
      WHERE c.user_id = :userId AND a.require_two_factor`,
    { replacements: { userId: user.id }, type: QueryTypes.SELECT },
  );
  return mustUseSecondFactor(user.kind, rows.map((r) => r.required));
}

interface FactorRow {
  id: number;
  kind: TwoFactorKind;
  label: string;
  credentialId: string | null;
  publicKey: string | null;
  signCount: number;
  transports: string[];
  totpSecret: string | null;
  lastTimeStep: number | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const FACTOR_COLUMNS = `id, kind, label, credential_id AS "credentialId", public_key AS "publicKey", sign_count AS "signCount", transports,
  totp_secret_encrypted AS "totpSecret", totp_last_time_step AS "lastTimeStep", created_at AS "createdAt", last_used_at AS "lastUsedAt"`;

async function confirmedFactors(ctx: Ctx, userId: number, transaction?: Transaction): Promise<FactorRow[]> {
  const rows = await ctx.db.sequelize.query<FactorRow>(
    `SELECT ${FACTOR_COLUMNS} FROM two_factor_factors WHERE user_id = :userId AND confirmed_at IS NOT NULL ORDER BY id`,
    { replacements: { userId }, type: QueryTypes.SELECT, transaction },
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), signCount: Number(r.signCount), lastTimeStep: r.lastTimeStep === null ? null : Number(r.lastTimeStep) }));
}

async function unusedRecoveryCodes(ctx: Ctx, userId: number, transaction?: Transaction): Promise<number> {
  const [row] = await ctx.db.sequelize.query<{ n: string }>(
    'SELECT count(*) AS n FROM two_factor_recovery_codes WHERE user_id = :userId AND used_at IS NULL',
    { replacements: { userId }, type: QueryTypes.SELECT, transaction },
  );
  return Number(row.n);
}

/**
 * What signing in asks of this user after the right password: nothing (null), the second step
 * with their methods, or enrolment (no factor yet, and one is required).
 */
export async function secondStepOf(ctx: Ctx, user: SessionUser): Promise<SecondFactorChallenge['secondFactor'] | null> {
  const factors = await confirmedFactors(ctx, user.id);
  if (factors.length) {
    const methods: SecondFactorMethod[] = [];
    if (factors.some((f) => f.kind === TwoFactorKind.Totp)) methods.push(SecondFactorMethod.Totp);
    if (factors.some((f) => f.kind === TwoFactorKind.Passkey)) methods.push(SecondFactorMethod.Passkey);
    if ((await unusedRecoveryCodes(ctx, user.id)) > 0) methods.push(SecondFactorMethod.Recovery);
    return { required: true, enrol: false, methods };
  }
  return (await secondFactorRequired(ctx, user)) ? { required: true, enrol: true, methods: [] } : null;
}

/** Whether the user has a confirmed factor (enrolment during a sign-in is for those who have none). */
export async function hasSecondFactor(ctx: Ctx, userId: number): Promise<boolean> {
  return (await confirmedFactors(ctx, userId)).length > 0;
}

export async function twoFactorStatus(ctx: Ctx, user: SessionUser): Promise<TwoFactorStatus> {
  const factors = await confirmedFactors(ctx, user.id);
  const [devices] = await ctx.db.sequelize.query<{ n: string }>(
    'SELECT count(*) AS n FROM remembered_devices WHERE user_id = :userId AND expires_at > now()',
    { replacements: { userId: user.id }, type: QueryTypes.SELECT },
  );
  return {
    required: await secondFactorRequired(ctx, user),
    factors: factors.map((f): TwoFactorFactorView => ({
      id: f.id, kind: f.kind, label: f.label, createdAt: new Date(f.createdAt).toISOString(), lastUsedAt: f.lastUsedAt ? new Date(f.lastUsedAt).toISOString() : null,
    })),
    recoveryCodesLeft: await unusedRecoveryCodes(ctx, user.id),
    rememberedDevices: Number(devices.n),
  };
}

// ---------------------------------------------------------------------------------------------
// Recovery codes
// ---------------------------------------------------------------------------------------------

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => CROCKFORD[b % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** The one form a typed recovery code is hashed in: lower case, no dash, I/L read as 1 and O as 0 (Crockford). */
const normaliseRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/-/g, '').replace(/[il]/g, '1').replace(/o/g, '0');

/** Replaces the user's recovery codes with ten new ones; answers them (the only time they are shown). */
async function replaceRecoveryCodes(ctx: Ctx, userId: number, transaction: Transaction): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await ctx.db.sequelize.query('DELETE FROM two_factor_recovery_codes WHERE user_id = :userId', { replacements: { userId }, transaction });
  await ctx.db.sequelize.query(
    'INSERT INTO two_factor_recovery_codes (user_id, code_hash) SELECT :userId, unnest(ARRAY[:hashes]::text[])',
    { replacements: { userId, hashes: codes.map((c) => hashToken(normaliseRecoveryCode(c))) }, transaction },
  );
  return codes;
}

/** New recovery codes for a signed-in user with a factor (the password again): the old ones stop working. */
export async function regenerateRecoveryCodes(ctx: Ctx, caller: Caller & { userId: number }, password: string): Promise<string[]> {
  await checkPassword(ctx, caller.userId, password);
  if (!(await hasSecondFactor(ctx, caller.userId))) throw conflict('Set up an authenticator app or a passkey first: recovery codes go with a second factor');
  return ctx.db.sequelize.transaction(async (transaction) => {
    const codes = await replaceRecoveryCodes(ctx, caller.userId, transaction);
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'auth.two_factor_recovery_codes_regenerated', entityKind: 'user', entityId: caller.userId }, transaction);
    return codes;
  });
}

// ---------------------------------------------------------------------------------------------
// TOTP
// ---------------------------------------------------------------------------------------------

const totpOptions = { digits: TOTP_DIGITS as 6, period: TOTP_PERIOD_SECONDS };

/**
 * Starts setting up an authenticator app: a new secret (kept encrypted, unconfirmed until a code
 * from the app is entered), its otpauth URI and a QR code of it. One app per user.
 */
export async function startTotpSetup(ctx: Ctx, user: SessionUser): Promise<TotpSetup> {
  const factors = await confirmedFactors(ctx, user.id);
  if (factors.some((f) => f.kind === TwoFactorKind.Totp)) throw conflict('An authenticator app is already set up: remove it first to set up another');
  const secret = generateSecret();
  const uri = generateURI({ issuer: `${ctx.config.brand} Platform`, label: user.email, secret, ...totpOptions });
  await ctx.db.sequelize.transaction(async (transaction) => {
    await ctx.db.sequelize.query("DELETE FROM two_factor_factors WHERE user_id = :userId AND kind = 'totp' AND confirmed_at IS NULL", { replacements: { userId: user.id }, transaction });
    await ctx.db.sequelize.query(
      "INSERT INTO two_factor_factors (user_id, kind, label, totp_secret_encrypted) VALUES (:userId, 'totp', 'Authenticator app', :secret)",
      { replacements: { userId: user.id, secret: encryptSecret(ctx.config, secret) }, transaction },
    );
  });
  const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, uri, qrSvg };
}

/** The time step a code matches (±TOTP_DRIFT_STEPS), later than the last one accepted; null when it does not. */
function matchTotp(secret: string, code: string, lastTimeStep: number | null, now: number): number | null {
  const result = verifySync({
    secret, token: code, ...totpOptions, epoch: Math.floor(now / 1000), epochTolerance: TOTP_DRIFT_STEPS * TOTP_PERIOD_SECONDS,
    ...(lastTimeStep !== null ? { afterTimeStep: lastTimeStep } : {}),
  });
  return result.valid ? (result as { timeStep: number }).timeStep : null;
}

const wrongCode = () => new Invalid('That code is not correct', [{ field: 'code', message: 'That code is not correct' }], 'invalid_code');

/**
 * Confirms the app being set up with a code from it; answers the ten recovery codes when the user
 * had none (the first factor), otherwise null.
 */
export async function confirmTotp(ctx: Ctx, caller: Caller & { userId: number }, code: string, now = Date.now()): Promise<string[] | null> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const [row] = await ctx.db.sequelize.query<{ id: number; secret: string }>(
      `SELECT id, totp_secret_encrypted AS secret FROM two_factor_factors
        WHERE user_id = :userId AND kind = 'totp' AND confirmed_at IS NULL ORDER BY id DESC LIMIT 1 FOR UPDATE`,
      { replacements: { userId: caller.userId }, type: QueryTypes.SELECT, transaction },
    );
    if (!row) throw conflict('Start setting up the authenticator app first');
    const step = matchTotp(decryptSecret(ctx.config, row.secret), code, null, now);
    if (step === null) throw wrongCode();
    await ctx.db.sequelize.query(
      'UPDATE two_factor_factors SET confirmed_at = now(), totp_last_time_step = :step WHERE id = :id',
      { replacements: { id: row.id, step }, transaction },
    );
    const codes = (await unusedRecoveryCodes(ctx, caller.userId, transaction)) ? null : await replaceRecoveryCodes(ctx, caller.userId, transaction);
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'auth.two_factor_enrolled', entityKind: 'user', entityId: caller.userId, details: { method: 'totp' } }, transaction);
    return codes;
  });
}

// ---------------------------------------------------------------------------------------------
// Passkeys (WebAuthn)
// ---------------------------------------------------------------------------------------------

const rpOf = (config: Ctx['config']) => ({ rpID: new URL(config.publicUrl).hostname, origin: config.publicUrl });

/** Registration options for a new passkey or security key (the challenge is kept by the caller's session). */
export async function passkeyRegistrationOptions(ctx: Ctx, user: SessionUser) {
  const existing = (await confirmedFactors(ctx, user.id)).filter((f) => f.kind === TwoFactorKind.Passkey);
  return generateRegistrationOptions({
    rpName: `${ctx.config.brand} Platform`,
    rpID: rpOf(ctx.config).rpID,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim(),
    userID: new TextEncoder().encode(`user-${user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((f) => ({ id: f.credentialId!, transports: f.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

const passkeyRefused = () => new Invalid('The passkey could not be verified', [{ field: 'response', message: 'The passkey could not be verified' }], 'invalid_passkey');

/** Verifies the browser's registration and keeps the credential; answers the recovery codes when this is the first factor. */
export async function registerPasskey(
  ctx: Ctx, caller: Caller & { userId: number }, response: unknown, expectedChallenge: string | undefined, label: string | null,
): Promise<string[] | null> {
  if (!expectedChallenge) throw passkeyRefused();
  const { rpID, origin } = rpOf(ctx.config);
  let verified;
  try {
    verified = await verifyRegistrationResponse({ response: response as RegistrationResponseJSON, expectedChallenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false });
  } catch {
    throw passkeyRefused();
  }
  if (!verified.verified) throw passkeyRefused();
  const { credential } = verified.registrationInfo;
  return ctx.db.sequelize.transaction(async (transaction) => {
    await ctx.db.sequelize.query(
      `INSERT INTO two_factor_factors (user_id, kind, label, credential_id, public_key, sign_count, transports, confirmed_at)
       VALUES (:userId, 'passkey', :label, :credentialId, :publicKey, :counter, ARRAY[:transports]::text[], now())`,
      {
        replacements: {
          userId: caller.userId, label: label ?? 'Passkey', credentialId: credential.id, publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter, transports: credential.transports?.length ? credential.transports : [null],
        },
        transaction,
      },
    ).catch((err: Error) => {
      if (err.name === 'SequelizeUniqueConstraintError') throw conflict('This passkey is already registered');
      throw err;
    });
    await ctx.db.sequelize.query("UPDATE two_factor_factors SET transports = array_remove(transports, NULL) WHERE credential_id = :id", { replacements: { id: credential.id }, transaction });
    const codes = (await unusedRecoveryCodes(ctx, caller.userId, transaction)) ? null : await replaceRecoveryCodes(ctx, caller.userId, transaction);
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'auth.two_factor_enrolled', entityKind: 'user', entityId: caller.userId, details: { method: 'passkey' } }, transaction);
    return codes;
  });
}

/** Options for signing in with one of the user's passkeys (the challenge is kept by the pending session). */
export async function passkeyAuthenticationOptions(ctx: Ctx, userId: number) {
  const passkeys = (await confirmedFactors(ctx, userId)).filter((f) => f.kind === TwoFactorKind.Passkey);
  if (!passkeys.length) throw conflict('No passkey is registered for this sign-in');
  return generateAuthenticationOptions({
    rpID: rpOf(ctx.config).rpID,
    allowCredentials: passkeys.map((f) => ({ id: f.credentialId!, transports: f.transports })),
    userVerification: 'preferred',
  });
}

// ---------------------------------------------------------------------------------------------
// The second step
// ---------------------------------------------------------------------------------------------

export type SecondStepAnswer =
  | { method: 'totp' | 'recovery'; code: string }
  | { method: 'passkey'; response: unknown; expectedChallenge: string | undefined };

/**
 * Checks a second-step answer for the user. True when it is right (the TOTP's time step, the
 * recovery code's use or the passkey's counter is recorded); false when not. A TOTP code of a step
 * already accepted is refused (replay).
 */
export async function checkSecondStep(ctx: Ctx, userId: number, answer: SecondStepAnswer, now = Date.now()): Promise<boolean> {
  if (answer.method === 'recovery') {
    const used = await ctx.db.sequelize.query(
      `WITH used AS (UPDATE two_factor_recovery_codes SET used_at = now() WHERE user_id = :userId AND code_hash = :hash AND used_at IS NULL RETURNING id)
       SELECT id FROM used`,
      { replacements: { userId, hash: hashToken(normaliseRecoveryCode(answer.code)) }, type: QueryTypes.SELECT },
    );
    return used.length > 0;
  }
  if (answer.method !== 'passkey') {
    return ctx.db.sequelize.transaction(async (transaction) => {
      const [row] = await ctx.db.sequelize.query<{ id: number; secret: string; lastTimeStep: string | null }>(
        `SELECT id, totp_secret_encrypted AS secret, totp_last_time_step AS "lastTimeStep" FROM two_factor_factors
          WHERE user_id = :userId AND kind = 'totp' AND confirmed_at IS NOT NULL ORDER BY id LIMIT 1 FOR UPDATE`,
        { replacements: { userId }, type: QueryTypes.SELECT, transaction },
      );
      if (!row) return false;
      const step = matchTotp(decryptSecret(ctx.config, row.secret), answer.code, row.lastTimeStep === null ? null : Number(row.lastTimeStep), now);
      if (step === null) return false;
      await ctx.db.sequelize.query(
        'UPDATE two_factor_factors SET totp_last_time_step = :step, last_used_at = now() WHERE id = :id',
        { replacements: { id: row.id, step }, transaction },
      );
      return true;
    });
  }
  if (!answer.expectedChallenge) return false;
  const response = answer.response as AuthenticationResponseJSON;
  const factor = (await confirmedFactors(ctx, userId)).find((f) => f.kind === TwoFactorKind.Passkey && f.credentialId === response?.id);
  if (!factor) return false;
  const { rpID, origin } = rpOf(ctx.config);
  try {
    const verified = await verifyAuthenticationResponse({
      response, expectedChallenge: answer.expectedChallenge, expectedOrigin: origin, expectedRPID: rpID, requireUserVerification: false,
      credential: { id: factor.credentialId!, publicKey: new Uint8Array(Buffer.from(factor.publicKey!, 'base64url')), counter: factor.signCount, transports: factor.transports },
    });
    if (!verified.verified) return false;
    await ctx.db.sequelize.query(
      'UPDATE two_factor_factors SET sign_count = :counter, last_used_at = now() WHERE id = :id',
      { replacements: { id: factor.id, counter: verified.authenticationInfo.newCounter } },
    );
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Remembered devices
// ---------------------------------------------------------------------------------------------

/** Remembers this browser for the user for REMEMBER_DEVICE_DAYS: answers the token its cookie carries. */
export async function rememberDeviceFor(ctx: Ctx, userId: number, userAgent: string | null): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + REMEMBER_DEVICE_DAYS * 86_400_000);
  await ctx.db.sequelize.query(
    'INSERT INTO remembered_devices (user_id, token_hash, user_agent, expires_at) VALUES (:userId, :hash, :userAgent, :expiresAt)',
    { replacements: { userId, hash: hashToken(token), userAgent: userAgent?.slice(0, 300) ?? null, expiresAt } },
  );
  return { token, expiresAt };
}

/** Whether the token is a remembered device of this user that has not expired. */
export async function isRememberedDevice(ctx: Ctx, userId: number, token: string | undefined): Promise<boolean> {
  if (!token || token.length > 100) return false;
  const rows = await ctx.db.sequelize.query(
    'SELECT 1 FROM remembered_devices WHERE user_id = :userId AND token_hash = :hash AND expires_at > now()',
    { replacements: { userId, hash: hashToken(token) }, type: QueryTypes.SELECT },
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// Removing factors, the admin's reset, an account's requirement
// ---------------------------------------------------------------------------------------------

async function checkPassword(ctx: Ctx, userId: number, password: string): Promise<void> {
  const row = await ctx.db.models.User.findByPk(userId);
  if (!row || !row.isActive || !(await verifyPassword(row.passwordHash, password))) {
    throw new Invalid('The password is not correct', [{ field: 'password', message: 'The password is not correct' }], 'validation_failed');
  }
}

/** Ends every remembered device of the user (a factor removed, a reset). */
async function forgetDevices(ctx: Ctx, userId: number, transaction: Transaction) {
  await ctx.db.sequelize.query('DELETE FROM remembered_devices WHERE user_id = :userId', { replacements: { userId }, transaction });
}

/**
 * Removes one of the signed-in user's factors (the password again). Remembered devices end; with
 * the last factor gone the recovery codes go too.
 */
export async function removeFactor(ctx: Ctx, caller: Caller & { userId: number }, factorId: number, password: string): Promise<void> {
  await checkPassword(ctx, caller.userId, password);
  await ctx.db.sequelize.transaction(async (transaction) => {
    const rows = await ctx.db.sequelize.query<{ kind: string }>(
      'WITH gone AS (DELETE FROM two_factor_factors WHERE id = :id AND user_id = :userId AND confirmed_at IS NOT NULL RETURNING kind) SELECT kind FROM gone',
      { replacements: { id: factorId, userId: caller.userId }, type: QueryTypes.SELECT, transaction },
    );
    if (!rows.length) throw notFound('Factor not found');
    await forgetDevices(ctx, caller.userId, transaction);
    if (!(await confirmedFactors(ctx, caller.userId, transaction)).length) {
      await ctx.db.sequelize.query('DELETE FROM two_factor_recovery_codes WHERE user_id = :userId', { replacements: { userId: caller.userId }, transaction });
    }
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'auth.two_factor_removed', entityKind: 'user', entityId: caller.userId, details: { method: rows[0].kind, factorId } }, transaction);
  });
}

/**
 * The lab's admin resets a user's second factors (a lost phone and lost codes): factors, recovery
 * codes and remembered devices go, the user's sessions end, and the user is emailed. Audited.
 */
export async function resetTwoFactor(ctx: Ctx, caller: Caller & { userId: number }, userId: number): Promise<void> {
  const user = await ctx.db.models.User.findByPk(userId);
  if (!user) throw notFound('User not found');
  await ctx.db.sequelize.transaction(async (transaction) => {
    await ctx.db.sequelize.query('DELETE FROM two_factor_factors WHERE user_id = :userId', { replacements: { userId }, transaction });
    await ctx.db.sequelize.query('DELETE FROM two_factor_recovery_codes WHERE user_id = :userId', { replacements: { userId }, transaction });
    await forgetDevices(ctx, userId, transaction);
    await endSessionsOf(ctx, userId, transaction);
    await queueEmail(ctx, transaction, {
      to: user.email,
      ...twoFactorResetEmail({ brand: ctx.config.brand, firstName: user.firstName, required: await secondFactorRequired(ctx, { id: user.id, kind: user.kind as UserKind }) }),
      createdByUserId: caller.userId,
    });
    await recordAudit(ctx.db, { ...auditActor(caller), action: 'auth.two_factor_reset', entityKind: 'user', entityId: userId }, transaction);
  });
}

export async function accountTwoFactorRequirement(ctx: Ctx, accountId: number): Promise<boolean> {
  const [row] = await ctx.db.sequelize.query<{ required: boolean }>(
    'SELECT require_two_factor AS required FROM accounts WHERE id = :accountId', { replacements: { accountId }, type: QueryTypes.SELECT },
  );
  if (!row) throw notFound('Account not found');
  return row.required;
}

/** The account's Super Admin sets "Require two-factor sign-in": its members without a factor enrol at their next sign-in. Audited. */
export async function setAccountTwoFactorRequirement(ctx: Ctx, caller: Caller & { userId: number; accountId: number }, required: boolean): Promise<boolean> {
  await ctx.db.sequelize.transaction(async (transaction) => {
    const before = await accountTwoFactorRequirement(ctx, caller.accountId);
    await ctx.db.sequelize.query('UPDATE accounts SET require_two_factor = :required WHERE id = :accountId', { replacements: { required, accountId: caller.accountId }, transaction });
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'account.two_factor_requirement_set', entityKind: 'account', entityId: caller.accountId, details: { old: before, new: required },
    }, transaction);
  });
  return required;
}

/** A failed second step (a wrong code, a refused passkey, an expired step): audited, never with the code. */
export async function recordSecondStepFailure(ctx: Ctx, caller: Caller, userId: number, method: string, reason: string): Promise<void> {
  await recordAudit(ctx.db, { ...auditActor(caller), action: 'auth.second_factor_failed', entityKind: 'user', entityId: userId, details: { method, reason } });
}
