/**
 * Result routes (mounted at /api):
 * - the patient's result link (no sign-in; the emailed token plus the date of birth):
 *   GET  /reports/patient-result/:barcode?token=…            greeting, or the result once verified
 *   POST /reports/patient-result/verify-patient               { barcode, token, dateOfBirth }
 *   POST /reports/patient-result/log-view-result              { barcode, token }
 *   POST /reports/patient-result/update-demographic-info      { barcode, token, email?, phone?, … }
 *   POST /reports/patient-result/set-language                 { barcode, token, language: 'en' | 'es' }
 *   POST /reports/patient-result/set-text-messages            { barcode, token, mobilePhone, smsConsent } (docs/sms.md)
 *   GET  /reports/patient-result/:barcode/report.pdf?token=…  the current lab report
 * - the provider:
 *   GET  /metabase/samples/:sampleId/reports/download         the current lab report, audited
 *   POST /provider-clinic/:accountId/patient/send-result-email        { sampleId }
 *   POST /provider-clinic/:accountId/patient/send-cancer-result-email { sampleId }
 *   POST /provider-clinic/:accountId/samples/:sampleId/mark-reviewed  the clinic reviewed a result held from the patient
 */
import { Router, type Request, type Response } from 'express';
import {
  ClinicReviewAnswer, PatientResultGreeting, DemographicInfoAnswer, LanguageAnswer, ResultEmailSent, SmsContact,
  logViewResultBody, sendResultEmailBody, setLanguageBody, setTextMessagesBody, updateDemographicInfoBody, verifyPatientBody,
  type ResultLinkBody, type SendResultEmailBody, type SetLanguageBody, type SetTextMessagesBody, type UpdateDemographicInfoBody, type VerifyPatientBody,
} from '@platform/domain';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { accountsOf } from '@platform/server/access/sign-in';
import { validateBody } from '../http/validate';
import {
  type LabReportFile, LINK_NOT_FOUND_MESSAGE, logResultView, markSampleReviewed, notFound, openResultLink, patientReportPdf, providerReportDownload, resendResultEmail, setPreferredLanguage, setTextMessages, updateDemographicInfo, verifyPatient,
  createAddressThrottle,
} from '@platform/server';
import './report-session';
import { pathId } from '../http/path-id';
import { accountCallerOf, callerOf } from '../http/caller';
import { publicRoute } from '../http/route-policy';
import { answers, answersFile, answersNothing } from '../http/answers';


/** The link's token from the query string; anything but one string is a link that does not exist. */
function tokenOf(req: Request): string {
  const token = req.query.token;
  if (typeof token !== 'string') throw notFound(LINK_NOT_FOUND_MESSAGE);
  return token;
}

function sendPdf(res: Response, file: LabReportFile & { fileName: string }): void {
  res
    .status(200)
    .set({
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'no-store',
    })
    .send(file.content);
}

export function reportsRouter(ctx: AppContext): Router {
  const router = Router();
  // Every date-of-birth attempt from one address counts (on top of each link's lockout): one address cannot walk through many links.
  const verifyThrottle = createAddressThrottle(ctx.redis, ctx.config.redisPrefix, {
    name: 'result-verify-address', points: 30, windowSeconds: 15 * 60, refusal: 'Too many attempts from your network',
  });

  // ---- Patient result (the token is the credential) ----

  const resultLink = publicRoute('the result link\'s token, then the patient\'s date of birth');

  router.get('/reports/patient-result/:barcode', resultLink, answers(200, PatientResultGreeting), async (req, res) => {
    const greeting = await openResultLink(ctx, String(req.params.barcode), tokenOf(req), req.session, callerOf(req, res));
    res.set('Cache-Control', 'no-store').json(greeting);
  });

  router.post('/reports/patient-result/verify-patient', resultLink, validateBody(verifyPatientBody), answers(200, PatientResultGreeting), async (req, res) => {
    await verifyThrottle.consume(req.ip ?? 'unknown');
    const view = await verifyPatient(ctx, req.body as VerifyPatientBody, req.session, callerOf(req, res));
    res.set('Cache-Control', 'no-store').json(view);
  });

  router.post('/reports/patient-result/log-view-result', resultLink, validateBody(logViewResultBody), answersNothing(204), async (req, res) => {
    const { barcode, token } = req.body as ResultLinkBody;
    await logResultView(ctx, barcode, token, req.session, callerOf(req, res));
    res.status(204).end();
  });

  router.post('/reports/patient-result/update-demographic-info', resultLink, validateBody(updateDemographicInfoBody), answers(200, DemographicInfoAnswer), async (req, res) => {
    res.json(await updateDemographicInfo(ctx, req.body as UpdateDemographicInfoBody, req.session, callerOf(req, res)));
  });

  router.post('/reports/patient-result/set-text-messages', resultLink, validateBody(setTextMessagesBody), answers(200, SmsContact), async (req, res) => {
    res.json(await setTextMessages(ctx, req.body as SetTextMessagesBody, req.session, callerOf(req, res)));
  });

  router.post('/reports/patient-result/set-language', resultLink, validateBody(setLanguageBody), answers(200, LanguageAnswer), async (req, res) => {
    res.json(await setPreferredLanguage(ctx, req.body as SetLanguageBody, req.session, callerOf(req, res)));
  });

  router.get('/reports/patient-result/:barcode/report.pdf', resultLink, answersFile('application/pdf'), async (req, res) => {
    sendPdf(res, await patientReportPdf(ctx, String(req.params.barcode), tokenOf(req), req.session, callerOf(req, res)));
  });

  // ---- Provider result ----

  router.get('/metabase/samples/:sampleId/reports/download', requireUser('provider'), answersFile('application/pdf'), async (req, res) => {
    const sampleId = pathId(req.params.sampleId, 'Sample');
    sendPdf(res, await providerReportDownload(ctx, await accountsOf(ctx, req.user!), sampleId, callerOf(req, res)));
  });

  const resend = async (req: Request, res: Response) => {
    const { sampleId } = req.body as SendResultEmailBody;
    const sent = await resendResultEmail(ctx, Number(req.params.accountId), sampleId, callerOf(req, res));
    res.status(202).json({ message: 'The result link was emailed to the patient.', sentTo: sent.sentTo } satisfies ResultEmailSent);
  };
  for (const path of ['/provider-clinic/:accountId/patient/send-result-email', '/provider-clinic/:accountId/patient/send-cancer-result-email']) {
    router.post(path, requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic' }), validateBody(sendResultEmailBody), answers(202, ResultEmailSent), resend);
  }

  // A result held from the patient until the clinic's review (patient release policy "To the clinic first"): it goes to the patient now.
  router.post('/provider-clinic/:accountId/samples/:sampleId/mark-reviewed', requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic' }), answers(200, ClinicReviewAnswer), async (req, res) => {
    res.json(await markSampleReviewed(ctx, accountCallerOf(req, res), pathId(req.params.sampleId, 'Sample')));
  });

  return router;
}
