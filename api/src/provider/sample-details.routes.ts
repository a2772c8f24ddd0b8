/**
 * The clinic's calls on a sample it ordered (mounted at /api; docs/registry-and-follow-ups.md):
 *   POST /provider-clinic/:accountId/sample/patient-register-cancer   CancerDiagnosisBody
 *   GET  /provider-clinic/:accountId/patient/:patientId/cancer-diagnoses
 *   POST /provider-clinic/:accountId/sample/:sampleId/add-cfrt-test   (no body)
 */
import { Router, type RequestHandler } from 'express';
import { CancerDiagnosisView, AddedCfrtTest, shapes, addCfrtTestBody, cancerDiagnosisBody, type AccountSummary, type CancerDiagnosisBody } from '@platform/domain';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { validateBody } from '../http/validate';
import { accountCallerOf } from '../http/caller';
import { pathId } from '../http/path-id';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { answers } from '../http/answers';
import { addCfrtTest, listCancerDiagnoses, registerCancer } from '@platform/server';

export function sampleDetailsRouter(ctx: AppContext): Router {
  const router = Router();
  const clinic: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic' })];
  const path = (p: string) => `${CLINIC_API_BASE}/sample/${p}`;

  router.post(path('patient-register-cancer'), ...clinic, validateBody(cancerDiagnosisBody), answers(201, CancerDiagnosisView), async (req, res) => {
    res.status(201).json(await registerCancer(ctx, accountCallerOf(req, res), req.body as CancerDiagnosisBody));
  });

  router.get(`${CLINIC_API_BASE}/patient/:patientId/cancer-diagnoses`, ...clinic, answers(200, shapes.array(CancerDiagnosisView)), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await listCancerDiagnoses(ctx, accountCallerOf(req, res), pathId(req.params.patientId, 'Patient')));
  });

  router.post(path(':sampleId/add-cfrt-test'), ...clinic, validateBody(addCfrtTestBody), answers(201, AddedCfrtTest), async (req, res) => {
    const role = (res.locals.account as AccountSummary).role;
    res.status(201).json(await addCfrtTest(ctx, accountCallerOf(req, res), role, pathId(req.params.sampleId, 'Sample')));
  });

  return router;
}
