/**
 * What needs the clinic, and its lists searched (issue 30, part 5; docs/worklists.md), for the
 * providers of the URL's account with clinic access (another account's id answers 404):
 *   GET  /provider-clinic/:accountId/needs         the home page's counts, in one read
 *   POST /provider-clinic/:accountId/tests/search  a result list (pending, completed …) searched by patient name,
 *                                                  barcode or order id: a POST, so a patient's name never goes into a URL
 */
import { Router, type RequestHandler } from 'express';
import { ClinicNeeds, ResultSearchAnswer, resultSearchBody, type ResultSearchBody } from '@platform/domain';
import { clinicNeeds, listResults } from '@platform/server';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { validateBody } from '../http/validate';
import { accountCallerOf } from '../http/caller';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { answers } from '../http/answers';

export function clinicWorklistsRouter(ctx: AppContext): Router {
  const router = Router();
  const clinic: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic' })];
  router.get(`${CLINIC_API_BASE}/needs`, ...clinic, answers(200, ClinicNeeds), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await clinicNeeds(ctx, accountCallerOf(req, res)));
  });
  router.post(`${CLINIC_API_BASE}/tests/search`, ...clinic, validateBody(resultSearchBody), answers(200, ResultSearchAnswer), async (req, res) => {
    const page = await listResults(ctx, accountCallerOf(req, res), req.body as ResultSearchBody);
    // { rows, total } in the body as well as x-total-count: the SPA's POST helper reads no headers.
    res.set('x-total-count', String(page.total)).set('Cache-Control', 'no-store').json(page);
  });
  return router;
}
