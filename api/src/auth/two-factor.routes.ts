/**
 * Two-factor sign-in over HTTP (docs/two-factor.md): the second step of a pending sign-in, the
 * enrolment of a factor (during a pending sign-in of a user who must enrol, or signed in from the
 * user's menu), the factors' list, removal and new recovery codes, and the remembered-device cookie.
 * The rules live in server/src/access/two-factor.ts.
 */
import { Router, type Request, type Response } from 'express';
import {
  FactorEnrolled, Me, PasskeyOptions, RecoveryCodes, REMEMBER_DEVICE_DAYS, REMEMBERED_DEVICE_COOKIE, REMEMBERED_DEVICE_COOKIE_PATH, SECOND_STEP_MINUTES, TotpSetup, TwoFactorStatus,
  passkeyRegisterBody, passwordConfirmBody, secondFactorBody, totpConfirmBody,
  type FactorEnrolled as FactorEnrolledT, type PasskeyRegisterBody, type SecondFactorBody, type SessionUser, type TotpConfirmBody,
} from '@platform/domain';
import {
  checkSecondStep, confirmTotp, hasSecondFactor, isRememberedDevice, loadSessionUser, passkeyAuthenticationOptions, passkeyRegistrationOptions,
  recordSecondStepFailure, regenerateRecoveryCodes, registerPasskey, rememberDeviceFor, removeFactor, startTotpSetup, twoFactorStatus,
} from '@platform/server/access/sign-in';
import { callerAs, createSecondStepThrottle, type Caller } from '@platform/server';
import type { AppContext } from '../context';
import { AppError, unauthorized } from '../http/errors';
import { validateBody } from '../http/validate';
import { callerOf, userCallerOf } from '../http/caller';
import { publicRoute } from '../http/route-policy';
import { answers, answersNothing } from '../http/answers';
import { pathId } from '../http/path-id';
import { requireUser } from './guards';
import { cookieOf } from './session';
import { completeSignIn } from './sign-in-completion';

export function rememberedDeviceToken(req: Request): string | undefined {
  return cookieOf(req, REMEMBERED_DEVICE_COOKIE);
}

async function setRememberedDevice(ctx: AppContext, req: Request, res: Response, userId: number): Promise<void> {
  const { token } = await rememberDeviceFor(ctx, userId, req.get('user-agent') ?? null);
  res.cookie(REMEMBERED_DEVICE_COOKIE, token, {
    httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies, path: REMEMBERED_DEVICE_COOKIE_PATH, maxAge: REMEMBER_DEVICE_DAYS * 86_400_000,
  });
}

const stepExpired = () => new AppError(401, 'second_step_expired', 'Your sign-in has expired: please enter your password again');

export function twoFactorRouter(ctx: AppContext): Router {
  const router = Router();
  const throttle = createSecondStepThrottle(ctx.redis, ctx.config.redisPrefix);
  const pendingRoute = publicRoute('the second step of a sign-in whose password was right (the session holds it, for ten minutes)');
  const enrolRoute = publicRoute('enrolling the first factor during a sign-in whose password was right, of a user who must enrol (the session holds it)');

  /** The pending second step of this session, or 401 (none, or past its ten minutes: audited). */
  async function pendingOf(req: Request, res: Response) {
    const pending = req.session.secondStep;
    if (!pending) throw stepExpired();
    if (Date.now() - pending.startedAt > SECOND_STEP_MINUTES * 60_000) {
      delete req.session.secondStep;
      await recordSecondStepFailure(ctx, callerOf(req, res), pending.userId, 'any', 'expired');
      throw stepExpired();
    }
    return pending;
  }

  /** Who is enrolling: the signed-in user (from the menu), or the user of a pending sign-in that must enrol and still has no factor. */
  async function enrolleeOf(req: Request, res: Response, during: 'menu' | 'sign-in'): Promise<{ user: SessionUser; caller: Caller & { userId: number }; pending: boolean }> {
    if (during === 'menu') return { user: req.user!, caller: userCallerOf(req, res), pending: false };
    const step = await pendingOf(req, res);
    if (!step.enrol) throw unauthorized();
    const user = await loadSessionUser(ctx, step.userId);
    if (!user || (await hasSecondFactor(ctx, user.id))) throw stepExpired();
    return { user, caller: callerAs(callerOf(req, res), user) as Caller & { userId: number }, pending: true };
  }

  /** After a factor is enrolled: a pending sign-in is finished (the device remembered when asked). */
  async function enrolled(req: Request, res: Response, who: { user: SessionUser; pending: boolean }, recoveryCodes: string[] | null, remember: boolean, method: string): Promise<FactorEnrolledT> {
    if (!who.pending) return { recoveryCodes, me: null };
    const { portal } = req.session.secondStep!;
    if (remember) await setRememberedDevice(ctx, req, res, who.user.id);
    const me = await completeSignIn(ctx, req, res, who.user, portal, method);
    return { recoveryCodes, me };
  }

  // The second step of a sign-in.
  router.post('/second-factor/passkey-options', pendingRoute, answers(200, PasskeyOptions), async (req, res) => {
    const pending = await pendingOf(req, res);
    const options = await passkeyAuthenticationOptions(ctx, pending.userId);
    req.session.webauthnChallenge = options.challenge;
    res.set('Cache-Control', 'no-store').json({ options });
  });

  router.post('/second-factor', pendingRoute, validateBody(secondFactorBody), answers(200, Me), async (req, res) => {
    const pending = await pendingOf(req, res);
    const body = req.body as SecondFactorBody;
    await throttle.reserve(pending.userId);
    const expectedChallenge = req.session.webauthnChallenge;
    delete req.session.webauthnChallenge;
    const right = await checkSecondStep(ctx, pending.userId, body.method === 'passkey'
      ? { method: 'passkey', response: body.response, expectedChallenge }
      : { method: body.method, code: body.code! });
    if (!right) {
      await recordSecondStepFailure(ctx, callerOf(req, res), pending.userId, body.method, 'wrong answer');
      const field = body.method === 'passkey' ? 'response' : 'code';
      const message = body.method === 'passkey' ? 'The passkey could not be verified' : body.method === 'recovery' ? 'That recovery code is not correct or was used already' : 'That code is not correct';
      throw new AppError(401, 'invalid_second_factor', message, [{ field, message }]);
    }
    await throttle.recordSuccess(pending.userId);
    const user = await loadSessionUser(ctx, pending.userId);
    if (!user) throw stepExpired();
    if (body.rememberDevice) await setRememberedDevice(ctx, req, res, user.id);
    res.json(await completeSignIn(ctx, req, res, user, pending.portal, body.method));
  });

  // Enrolment: from the user's menu (signed in), or during a sign-in of a user who must enrol (the same steps, other paths).
  for (const [during, base, policy] of [['menu', '/two-factor', requireUser()], ['sign-in', '/second-factor/enrol', enrolRoute]] as const) {
    // Enrolment: TOTP.
    router.post(`${base}/totp`, policy, answers(200, TotpSetup), async (req, res) => {
      const { user } = await enrolleeOf(req, res, during);
      res.set('Cache-Control', 'no-store').json(await startTotpSetup(ctx, user));
    });

    router.post(`${base}/totp/confirm`, policy, validateBody(totpConfirmBody), answers(200, FactorEnrolled), async (req, res) => {
      const who = await enrolleeOf(req, res, during);
      const body = req.body as TotpConfirmBody;
      await throttle.reserve(who.user.id);
      let codes: string[] | null;
      try {
        codes = await confirmTotp(ctx, who.caller, body.code);
      } catch (err) {
        if ((err as { code?: string }).code === 'invalid_code') await recordSecondStepFailure(ctx, who.caller, who.user.id, 'totp', 'wrong code at enrolment');
        throw err;
      }
      await throttle.recordSuccess(who.user.id);
      res.set('Cache-Control', 'no-store').json(await enrolled(req, res, who, codes, body.rememberDevice, 'totp'));
    });

    // Enrolment: a passkey or security key.
    router.post(`${base}/passkey/options`, policy, answers(200, PasskeyOptions), async (req, res) => {
      const { user } = await enrolleeOf(req, res, during);
      const options = await passkeyRegistrationOptions(ctx, user);
      req.session.webauthnChallenge = options.challenge;
      res.set('Cache-Control', 'no-store').json({ options });
    });

    router.post(`${base}/passkey`, policy, validateBody(passkeyRegisterBody), answers(200, FactorEnrolled), async (req, res) => {
      const who = await enrolleeOf(req, res, during);
      const body = req.body as PasskeyRegisterBody;
      const expectedChallenge = req.session.webauthnChallenge;
      delete req.session.webauthnChallenge;
      const codes = await registerPasskey(ctx, who.caller, body.response, expectedChallenge, body.label);
      res.set('Cache-Control', 'no-store').json(await enrolled(req, res, who, codes, body.rememberDevice, 'passkey'));
    });
  }

  // The signed-in user's factors.
  router.get('/two-factor', requireUser(), answers(200, TwoFactorStatus), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await twoFactorStatus(ctx, req.user!));
  });

  router.post('/two-factor/factors/:factorId/remove', requireUser(), validateBody(passwordConfirmBody), answersNothing(204), async (req, res) => {
    await removeFactor(ctx, userCallerOf(req, res), pathId(req.params.factorId, 'Factor'), req.body.password);
    res.clearCookie(REMEMBERED_DEVICE_COOKIE, { path: REMEMBERED_DEVICE_COOKIE_PATH });
    res.status(204).end();
  });

  router.post('/two-factor/recovery-codes', requireUser(), validateBody(passwordConfirmBody), answers(200, RecoveryCodes), async (req, res) => {
    res.set('Cache-Control', 'no-store').json({ recoveryCodes: await regenerateRecoveryCodes(ctx, userCallerOf(req, res), req.body.password) });
  });

  return router;
}

/** Whether this request carries a remembered device of the user (the second step is skipped). */
export async function rememberedDevice(ctx: AppContext, req: Request, userId: number): Promise<boolean> {
  return isRememberedDevice(ctx, userId, rememberedDeviceToken(req));
}
