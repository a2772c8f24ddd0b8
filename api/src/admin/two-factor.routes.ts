/**
 * The lab's admin resets a user's second factors (a lost phone and lost recovery codes): factors,
 * recovery codes and remembered devices go, the user's sessions end, the user is emailed; audited.
 * Mounted under /api/admin (admins only).
 */
import { Router } from 'express';
import { resetTwoFactor } from '@platform/server/access/sign-in';
import type { AppContext } from '../context';
import { userCallerOf } from '../http/caller';
import { pathId } from '../http/path-id';
import { answersNothing } from '../http/answers';

export function adminTwoFactorRouter(ctx: AppContext): Router {
  const router = Router();
  router.post('/users/:userId/two-factor/reset', answersNothing(204), async (req, res) => {
    await resetTwoFactor(ctx, userCallerOf(req, res), pathId(req.params.userId, 'User'));
    res.status(204).end();
  });
  return router;
}
