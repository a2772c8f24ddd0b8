/**
 * DNA extractions (/api/lab-toolbox/dna-extractions…): lab users only. The extraction run itself
 * is uploaded, dry-run, committed and polled through the result-file import endpoints of
 * lab.routes.ts (import-files?kind=dna-extraction, import-files/{fileId}/commit, jobs/{jobId},
 * jobs/{jobId}/errors.csv) and released with approve-tests-dna-extraction; here are the imported
 * extractions and the decision on a flagged one.
 */
import { Router } from 'express';
import { ExtractionView, ExtractionDecisionAnswer, extractionDecisionBody, extractionListQuery, type ExtractionListQuery } from '@platform/domain';
import { requireUser } from '../auth/guards';
import type { AppContext } from '../context';
import { userCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';
import { validateBody, validateQuery } from '../http/validate';
import { answers, answersPage } from '../http/answers';
import { decideExtraction, listExtractions } from '@platform/server';

const BASE = '/lab-toolbox/dna-extractions';

export function extractionRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(BASE, requireUser('lab'));

  router.get(BASE, validateQuery(extractionListQuery), answersPage(ExtractionView), async (req, res) => {
    sendPage(res, await listExtractions(ctx, userCallerOf(req, res), res.locals.query as ExtractionListQuery));
  });
  router.post(`${BASE}/:extractionId/decide`, validateBody(extractionDecisionBody), answers(200, ExtractionDecisionAnswer), async (req, res) => {
    res.json(await decideExtraction(ctx, userCallerOf(req, res), pathId(req.params.extractionId, 'DNA extraction'), req.body));
  });

  return router;
}
