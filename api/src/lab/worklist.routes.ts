/**
 * The lab's worklist (issue 30, part 5; docs/worklists.md), lab users only:
 *   GET /lab-toolbox/worklist?page=&pageSize=&test=&status=  the open tests, oldest receipt first, past-target ones marked
 *   GET /lab-toolbox/worklist/tests                           each test with samples waiting, its target and how many are past it
 */
import { Router } from 'express';
import { LabWorklistRow, LabWorklistTests, labWorklistQuery, type LabWorklistQuery } from '@platform/domain';
import { labWorklist, labWorklistTests } from '@platform/server';
import { requireUser } from '../auth/guards';
import type { AppContext } from '../context';
import { validateQuery } from '../http/validate';
import { userCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { answers, answersPage } from '../http/answers';

const BASE = '/lab-toolbox/worklist';

export function labWorklistRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(BASE, requireUser('lab'));
  router.get(BASE, validateQuery(labWorklistQuery), answersPage(LabWorklistRow), async (req, res) => {
    sendPage(res, await labWorklist(ctx, userCallerOf(req, res), res.locals.query as LabWorklistQuery));
  });
  router.get(`${BASE}/tests`, answers(200, LabWorklistTests), async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await labWorklistTests(ctx));
  });
  return router;
}
