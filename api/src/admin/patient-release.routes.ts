/**
 * The lab's admin sets, per test, when a released result reaches the patient (issue 29, part 5):
 * at once, or to the clinic first (mounted at /api/admin by admin.routes.ts, behind requireUser('admin')).
 *   GET /patient-release/policies   every test whose results go to patients, with its policy
 *   PUT /patient-release/policies   { testName, policy, holdDays }: one test's policy (audited with old and new values)
 */
import { Router } from 'express';
import { patientReleasePolicyBody, PatientReleasePolicyView, shapes } from '@platform/domain';
import { listPatientReleasePolicies, putPatientReleasePolicy } from '@platform/server';
import type { AppContext } from '../context';
import { validateBody } from '../http/validate';
import { answers } from '../http/answers';
import { userCallerOf } from '../http/caller';

export function adminPatientReleaseRouter(ctx: AppContext): Router {
  const router = Router();
  const path = '/patient-release/policies';
  router.get(path, answers(200, shapes.array(PatientReleasePolicyView)), async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await listPatientReleasePolicies(ctx));
  });
  router.put(path, validateBody(patientReleasePolicyBody), answers(200, PatientReleasePolicyView), async (req, res) => {
    res.json(await putPatientReleasePolicy(ctx, userCallerOf(req, res), req.body));
  });
  return router;
}
