/**
 * The LIMS API (SPEC §7 lims/…, mounted at /api): the lab's own data for lab users only
 * (anonymous 401; providers and admins 403). And sfpatient/search, the cross-account patient
 * search, for lab users and admins (SPEC-NOTES.md): a POST with a JSON body, so no name or date
 * of birth ends up in a URL.
 */
import { Router, type Response } from 'express';
import {
  CrossAccountPatientSearchAnswer, LimsAccountRow, LimsDepartment, LimsPhysician, LimsTechnician, LimsSampleUpdated, LimsKitAuth, LimsSampleView, shapes,
  limsAccountsQuery, limsSampleUpdateBody, patientSearchBody, type LimsAccountsQuery, type LimsSampleUpdateBody, type PatientSearchBody,
} from '@platform/domain';
import type { AppContext } from '../context';
import { requireUser } from '../auth/guards';
import { validateBody, validateQuery } from '../http/validate';
import { userCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';
import { answers, answersPage } from '../http/answers';
import {
  authenticateKit, getLimsSample, limsAccounts, limsDepartments, limsPhysicians, limsTechnicians, searchPatientsEverywhere, updateLimsSample,
} from '@platform/server';

const BASE = '/lims';

export function limsRouter(ctx: AppContext): Router {
  const router = Router();
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  router.post('/sfpatient/search', requireUser('lab', 'admin'), validateBody(patientSearchBody), answers(200, CrossAccountPatientSearchAnswer), async (req, res) => {
    const page = await searchPatientsEverywhere(ctx, userCallerOf(req, res), req.body as PatientSearchBody);
    // { rows, total } in the body as well as x-total-count, as the clinic's patient/search answers.
    noStore(res).set('x-total-count', String(page.total)).json(page);
  });

  router.use(BASE, requireUser('lab'));

  router.get(`${BASE}/accounts`, validateQuery(limsAccountsQuery), answersPage(LimsAccountRow), async (_req, res) => {
    sendPage(res, await limsAccounts(ctx, res.locals.query as LimsAccountsQuery));
  });
  router.get(`${BASE}/accounts/:accountId/departments`, answers(200, shapes.array(LimsDepartment)), async (req, res) => {
    noStore(res).json(await limsDepartments(ctx, pathId(req.params.accountId, 'Account')));
  });
  router.get(`${BASE}/accounts/:accountId/physicians`, answers(200, shapes.array(LimsPhysician)), async (req, res) => {
    noStore(res).json(await limsPhysicians(ctx, pathId(req.params.accountId, 'Account')));
  });
  router.get(`${BASE}/contact/technicians`, answers(200, shapes.array(LimsTechnician)), async (_req, res) => {
    noStore(res).json(await limsTechnicians(ctx));
  });

  router.post(`${BASE}/sample/update`, validateBody(limsSampleUpdateBody), answers(200, LimsSampleUpdated), async (req, res) => {
    res.json(await updateLimsSample(ctx, userCallerOf(req, res), req.body as LimsSampleUpdateBody));
  });
  router.get(`${BASE}/sample/auth/:barcode`, answers(200, LimsKitAuth), async (req, res) => {
    noStore(res).json(await authenticateKit(ctx, userCallerOf(req, res), String(req.params.barcode)));
  });
  router.get(`${BASE}/sample/:sampleRef`, answers(200, LimsSampleView), async (req, res) => {
    noStore(res).json(await getLimsSample(ctx, userCallerOf(req, res), String(req.params.sampleRef)));
  });

  return router;
}
