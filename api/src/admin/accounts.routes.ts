/**
 * One account as the admin runs it (issue 31, part 2; mounted at /api/admin by admin.routes.ts,
 * behind requireUser('admin')). The list is GET /accounts in admin.routes.ts.
 *   GET /accounts/{accountId}   everything the account page edits
 *   PUT /accounts/{accountId}   the account as edited (audited with the old and new value of each changed field)
 */
import { Router } from 'express';
import { AdminAccountDetail, updateAccountBody } from '@platform/domain';
import { accountDetail, updateAccount } from '@platform/server';
import type { AppContext } from '../context';
import { validateBody } from '../http/validate';
import { answers } from '../http/answers';
import { userCallerOf } from '../http/caller';
import { pathId } from '../http/path-id';

export function adminAccountsRouter(ctx: AppContext): Router {
  const router = Router();
  router.get('/accounts/:accountId', answers(200, AdminAccountDetail), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await accountDetail(ctx, pathId(req.params.accountId, 'Account')));
  });
  router.put('/accounts/:accountId', validateBody(updateAccountBody), answers(200, AdminAccountDetail), async (req, res) => {
    res.json(await updateAccount(ctx, userCallerOf(req, res), pathId(req.params.accountId, 'Account'), req.body));
  });
  return router;
}
