/**
 * A patient's text messages on the clinic's patient page (docs/sms.md): the number and consent the
 * patient gave, whether the number replied STOP, the latest texts' status; and the clinic recording
 * the number and consent the patient gave it. Only the account's own patients (404 otherwise).
 *   GET /provider-clinic/:accountId/patient/:patientId/text-messages
 *   PUT /provider-clinic/:accountId/patient/:patientId/text-messages   { mobilePhone, smsConsent }
 */
import { Router, type RequestHandler } from 'express';
import { ClinicPatientTexts, patientTextsBody, type PatientTextsBody } from '@platform/domain';
import { clinicPatientTexts, setClinicPatientTexts } from '@platform/server';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { validateBody } from '../http/validate';
import { accountCallerOf } from '../http/caller';
import { pathId } from '../http/path-id';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { answers } from '../http/answers';

export function clinicPatientTextsRouter(ctx: AppContext): Router {
  const router = Router();
  const clinic: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic' })];
  const path = `${CLINIC_API_BASE}/patient/:patientId/text-messages`;
  router.get(path, ...clinic, answers(200, ClinicPatientTexts), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await clinicPatientTexts(ctx, accountCallerOf(req, res), pathId(req.params.patientId, 'Patient')));
  });
  router.put(path, ...clinic, validateBody(patientTextsBody), answers(200, ClinicPatientTexts), async (req, res) => {
    res.json(await setClinicPatientTexts(ctx, accountCallerOf(req, res), pathId(req.params.patientId, 'Patient'), req.body as PatientTextsBody));
  });
  return router;
}
