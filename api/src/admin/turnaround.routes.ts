/**
 * The lab's admin sets the turnaround target per test (issue 30, part 4; mounted at /api/admin by
 * admin.routes.ts, behind requireUser('admin')):
 *   GET /turnaround/targets   every test turnaround is measured for, with its target (null: none)
 *   PUT /turnaround/targets   { testName, amount, unit }: one test's target (audited with old and new values)
 */
import { Router } from 'express';
import { shapes, turnaroundTargetBody, TurnaroundTargetView } from '@platform/domain';
import { listTurnaroundTargets, putTurnaroundTarget } from '@platform/server';
import type { AppContext } from '../context';
import { validateBody } from '../http/validate';
import { answers } from '../http/answers';
import { userCallerOf } from '../http/caller';

export function adminTurnaroundRouter(ctx: AppContext): Router {
  const router = Router();
  const path = '/turnaround/targets';
  router.get(path, answers(200, shapes.array(TurnaroundTargetView)), async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await listTurnaroundTargets(ctx));
  });
  router.put(path, validateBody(turnaroundTargetBody), answers(200, TurnaroundTargetView), async (req, res) => {
    res.json(await putTurnaroundTarget(ctx, userCallerOf(req, res), req.body));
  });
  return router;
}
