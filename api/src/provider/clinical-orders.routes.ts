/**
 * Complete clinical orders (docs/clinical-orders.md), under /api/provider-clinic/{accountId}: the
 * ICD-10-CM code search of the order form, correcting a patient's details, and cancelling an order
 * before the lab receives its sample. Every route is a clinic member's of the URL's account; the
 * patient and the sample are looked up within that account.
 */
import { Router, type RequestHandler, type Response } from 'express';
import {
  CancelledClinicOrder, CorrectableFieldSpec, DiagnosisSearchAnswer, PatientCorrectionView, cancelPatientOrderBody, correctableFields, shapes, diagnosisSearchQuery, patientCorrectionBody,
  type CancelPatientOrderBody, type DiagnosisSearchQuery, type PatientCorrectionBody,
} from '@platform/domain';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { validateBody, validateQuery } from '../http/validate';
import { accountCallerOf } from '../http/caller';
import { pathId } from '../http/path-id';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { answers } from '../http/answers';
import { cancelClinicOrder, correctPatient, createAddressThrottle, searchDiagnosisCodes } from '@platform/server';

export function clinicalOrdersRouter(ctx: AppContext): Router {
  const router = Router();
  const clinic: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic' })];
  const path = (p: string) => `${CLINIC_API_BASE}/${p}`;
  // The order form searches as the clinic types (debounced): a person types far fewer than 120 a
  // minute; a script walking the list does not get to.
  const searches = createAddressThrottle(ctx.redis, ctx.config.redisPrefix, {
    name: 'diagnosis-search-user', points: 120, windowSeconds: 60, refusal: 'Too many diagnosis code searches',
  });

  router.get(path('diagnosis-codes'), ...clinic, validateQuery(diagnosisSearchQuery), answers(200, DiagnosisSearchAnswer), async (req, res: Response) => {
    await searches.consume(`user:${req.user!.id}`);
    const page = searchDiagnosisCodes(res.locals.query as DiagnosisSearchQuery);
    // The code list is public and changes once a year: a browser may keep an answer a few minutes.
    res.set('x-total-count', String(page.total)).set('Cache-Control', 'private, max-age=300').json(page);
  });

  // The correction form's fields, read from the new-patient schema (the SPA draws the form from them).
  router.get(path('patient-fields'), ...clinic, answers(200, shapes.array(CorrectableFieldSpec)), (_req, res) => {
    res.json(correctableFields());
  });

  router.post(path('patient/:patientId/correct'), ...clinic, validateBody(patientCorrectionBody), answers(200, PatientCorrectionView), async (req, res) => {
    const patientId = pathId(req.params.patientId, 'Patient');
    res.json(await correctPatient(ctx, accountCallerOf(req, res), patientId, req.body as PatientCorrectionBody));
  });

  // The body is a reason, as a patient's own order's cancel takes.
  router.post(path('samples/:sampleId/cancel-order'), ...clinic, validateBody(cancelPatientOrderBody), answers(200, CancelledClinicOrder), async (req, res) => {
    const sampleId = pathId(req.params.sampleId, 'Sample');
    res.json(await cancelClinicOrder(ctx, accountCallerOf(req, res), sampleId, (req.body as CancelPatientOrderBody).reason));
  });

  return router;
}
