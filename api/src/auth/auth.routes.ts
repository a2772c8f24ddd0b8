import { Router, type Request, type RequestHandler } from 'express';
import type { PassportStatic } from 'passport';
import {
  CsrfTokenAnswer, LoginAnswer, Me, MessageAnswer, type SecondFactorChallenge, AccountInvitationPreview, AccountInvitationAccepted,
  accountInvitationTokenBody, changePasswordBody, forgotPasswordBody, loginBody, requestAccessBody, resetPasswordBody, switchAccountBody, wrongPortalMessage, ForgotPasswordAnswer,
  type RequestAccessBody, type SignInPortal,
} from '@platform/domain';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import { validateBody } from '../http/validate';
import { knownDevice, rememberDevice } from './device-cookie';
import { assertMember, changePassword, describeMe, requestPasswordReset, resetPassword, secondStepOf } from '@platform/server/access/sign-in';
import { completeSignIn, logIn, regenerateSession } from './sign-in-completion';
import { rememberedDevice, twoFactorRouter } from './two-factor.routes';
import { requireUser } from './guards';
import { csrfToken } from './session';
import type { SessionUser } from './session-user';
import {
  acceptInvitation, auditActor, callerAs, createEmailRequestThrottle, createLoginThrottle, createPasswordCheckThrottle, previewInvitation, recordAudit,
  REQUEST_ACCESS_ANSWER, requestAccess, type SignInAttempt,
} from '@platform/server';
import { callerOf } from '../http/caller';
import { publicRoute } from '../http/route-policy';
import { answers, answersNothing } from '../http/answers';

const FORGOT_MESSAGE = 'If an account exists for that email, a reset link is on its way.';


/** The signed-in user, or why not: the portal that is theirs when only the portal was wrong. */
function authenticate(passport: PassportStatic, req: Request): Promise<{ user: SessionUser | false; wrongPortal?: SignInPortal }> {
  return new Promise((resolve, reject) => {
    passport.authenticate('local', { session: false }, (err: unknown, user: SessionUser | false, info?: { wrongPortal?: SignInPortal }) =>
      err ? reject(err) : resolve({ user, wrongPortal: info?.wrongPortal }))(req, req.res!, () => undefined);
  });
}


export function authRouter(ctx: AppContext, passport: PassportStatic): Router {
  const router = Router();
  const throttle = createLoginThrottle(ctx.redis, ctx.config.redisPrefix);
  const resetThrottle = createEmailRequestThrottle(ctx.redis, ctx.config.redisPrefix, 'reset');
  const accessRequestThrottle = createEmailRequestThrottle(ctx.redis, ctx.config.redisPrefix, 'request-access');
  const changeThrottle = createPasswordCheckThrottle(ctx.redis, ctx.config.redisPrefix);

  const signIn = publicRoute('signing in, out and back in: the password, a reset link\'s token, or nothing to give');

  router.get('/csrf', signIn, answers(200, CsrfTokenAnswer), (req, res) => {
    res.set('Cache-Control', 'no-store').json({ csrfToken: csrfToken(req, res, ctx.config) });
  });

  // The attempt is counted before anything costs the server (validation, the password hash).
  const reserveAttempt: RequestHandler = async (req, res, next) => {
    const typed: unknown = (req.body as { email?: unknown } | undefined)?.email;
    const email = typeof typed === 'string' ? typed : '';
    const attempt = { email, ip: req.ip ?? 'unknown', device: email ? knownDevice(req, ctx.config, email) : null };
    res.locals.signInAttempt = attempt;
    await throttle.reserve(attempt);
    next();
  };

  router.post('/login', signIn, reserveAttempt, validateBody(loginBody), answers(200, LoginAnswer), async (req, res) => {
    const { email, portal } = req.body as { email: string; portal: SignInPortal };
    const attempt = res.locals.signInAttempt as SignInAttempt;
    const { user, wrongPortal } = await authenticate(passport, req);
    if (!user) {
      await recordAudit(ctx.db, { ...auditActor(callerOf(req, res)), action: 'auth.login_failed', details: { portal, ...(wrongPortal ? { reason: 'wrong portal' } : {}) } });
      if (wrongPortal) throw new AppError(401, 'wrong_portal', wrongPortalMessage(wrongPortal));
      throw new AppError(401, 'invalid_credentials', 'Invalid email or password');
    }
    await throttle.recordSuccess(attempt);
    rememberDevice(req, res, ctx.config, email);
    const secondStep = await secondStepOf(ctx, user);
    if (!secondStep) return res.json(await completeSignIn(ctx, req, res, user, portal));
    if (!secondStep.enrol && (await rememberedDevice(ctx, req, user.id))) {
      return res.json(await completeSignIn(ctx, req, res, user, portal, 'remembered_device'));
    }
    // The password was right; nobody is signed in until the second step (a new session id for it).
    await regenerateSession(req);
    req.session.secondStep = { userId: user.id, portal, startedAt: Date.now(), enrol: secondStep.enrol };
    await recordAudit(ctx.db, {
      ...auditActor(callerAs(callerOf(req, res), user)), action: 'auth.second_step_started', entityKind: 'user', entityId: user.id, details: { portal, enrol: secondStep.enrol },
    });
    res.set('Cache-Control', 'no-store').json({ secondFactor: secondStep } satisfies SecondFactorChallenge);
  });

  router.use(twoFactorRouter(ctx));

  router.post('/logout', signIn, answersNothing(204), async (req, res) => {
    const caller = callerOf(req, res);
    await new Promise<void>((resolve, reject) => req.logout((err) => (err ? reject(err) : resolve())));
    await new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
    if (caller.userId !== null) await recordAudit(ctx.db, { ...auditActor(caller), action: 'auth.logout', entityKind: 'user', entityId: caller.userId });
    res.status(204).end();
  });

  router.get('/me', requireUser(), answers(200, Me), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await describeMe(ctx, req.user!, req.session.currentAccountId));
  });

  router.post('/switch-account', requireUser(), validateBody(switchAccountBody), answers(200, Me), async (req, res) => {
    const me = await describeMe(ctx, req.user!, req.session.currentAccountId);
    assertMember(me, req.body.accountId);
    req.session.currentAccountId = req.body.accountId;
    res.json(await describeMe(ctx, req.user!, req.body.accountId));
  });

  router.post('/forgot-password', signIn, validateBody(forgotPasswordBody), answers(202, ForgotPasswordAnswer), async (req, res) => {
    // The answer goes first and is always the same: neither its words nor its timing tell whether the account exists.
    res.status(202).json({ message: FORGOT_MESSAGE } satisfies ForgotPasswordAnswer);
    const { email, portal } = req.body as { email: string; portal: SignInPortal };
    try {
      if (await resetThrottle.allow(email, req.ip ?? 'unknown')) await requestPasswordReset(ctx, email, portal, callerOf(req, res));
    } catch (err) {
      ctx.logger.error({ requestId: res.locals.requestId, err: (err as Error).name }, 'password reset request failed');
    }
  });

  // Asking for provider access: the answer is the same whether or not the email is known (or throttled).
  router.post('/request-access', signIn, validateBody(requestAccessBody), answers(202, MessageAnswer), async (req, res) => {
    const body = req.body as RequestAccessBody;
    const answer = (await accessRequestThrottle.allow(body.email, req.ip ?? 'unknown'))
      ? await requestAccess(ctx, callerOf(req, res), body)
      : { message: REQUEST_ACCESS_ANSWER };
    res.status(202).json(answer);
  });

  router.post('/reset-password', signIn, validateBody(resetPasswordBody), answersNothing(204), async (req, res) => {
    await resetPassword(ctx, req.body.token, req.body.password, callerOf(req, res));
    res.status(204).end();
  });

  // An account invitation's emailed link: what it is for, and accepting it (the token proves the address, as a reset link's does).
  const invitationLink = publicRoute("an account invitation's emailed single-use token");
  router.post('/account-invitation', invitationLink, validateBody(accountInvitationTokenBody), answers(200, AccountInvitationPreview), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await previewInvitation(ctx, req.body.token));
  });
  router.post('/account-invitation/accept', invitationLink, validateBody(accountInvitationTokenBody), answers(200, AccountInvitationAccepted), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await acceptInvitation(ctx, callerOf(req, res), req.body.token));
  });

  router.post('/change-password', requireUser(), validateBody(changePasswordBody), answersNothing(204), async (req, res) => {
    await changeThrottle.reserve(req.user!.id);
    await changePassword(ctx, callerOf(req, res), req.user!, req.body.currentPassword, req.body.newPassword, req.sessionID);
    await changeThrottle.recordSuccess(req.user!.id);
    // This session goes on under a new id (and a new CSRF token), as after a sign-in.
    const { currentAccountId, signedInAt } = req.session;
    await logIn(req, req.user!);
    Object.assign(req.session, { currentAccountId, signedInAt });
    res.status(204).end();
  });

  return router;
}
