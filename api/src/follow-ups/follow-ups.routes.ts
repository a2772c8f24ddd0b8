/**
 * Follow-up routes (mounted at /api; docs/registry-and-follow-ups.md):
 * - the patient, through the emailed single-use link (no sign-in; the token is the credential):
 *   GET  /registry/study/prostox/:sampleId/follow-up-survey?token=…   greeting and interval
 *   POST /registry/study/prostox/:sampleId/follow-up-survey           { token, answers, details? }
 *   GET  /sample-follow-up/:id?token=…                                the question
 *   POST /sample-follow-up/:id/response                                { token, answer, comment? }
 * - the clinic (its account's samples only):
 *   POST /provider-clinic/:accountId/sample-follow-up                  { sampleId, question }
 *   GET  /provider-clinic/:accountId/sample-follow-up/:id
 *   GET  /provider-clinic/:accountId/patient/:patientId/follow-ups
 * - the lab (every sample):
 *   POST /lab-toolbox/sample-follow-up                                 { sampleId, question }
 *   GET  /lab-toolbox/sample-follow-up/:id
 *   GET  /lab-toolbox/sample/:sampleId/follow-ups                      the sample's follow-ups, newest first
 */
import { Router, type Request, type RequestHandler } from 'express';
import {
  RegistrySurveyView, FollowUpAnswered, SampleFollowUpPatientView, FollowUpView, shapes,
  newSampleFollowUpBody, registrySurveyBody, REGISTRY_STUDY, sampleFollowUpResponseBody,
  type NewSampleFollowUpBody, type RegistrySurveyBody, type SampleFollowUpResponseBody,
} from '@platform/domain';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { validateBody } from '../http/validate';
import { accountCallerOf, callerOf, userCallerOf } from '../http/caller';
import { pathId } from '../http/path-id';
import {
  answerRegistrySurvey, answerSampleQuestion, askAboutSample, getFollowUp, listPatientFollowUps, listSampleFollowUps, openRegistrySurvey, openSampleQuestion,
} from '@platform/server';
import { publicRoute } from '../http/route-policy';
import { answers } from '../http/answers';

const SURVEY_PATH = `/registry/study/${REGISTRY_STUDY}/:sampleId/follow-up-survey`;

export function followUpsRouter(ctx: AppContext): Router {
  const router = Router();
  const clinic: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic' })];
  const sampleIdOf = (req: Request) => pathId(req.params.sampleId, 'Survey');

  // ---- The patient (the link's token is the credential) ----

  const byLink = publicRoute('a single-use link emailed to the patient: its token');

  router.get(SURVEY_PATH, byLink, answers(200, RegistrySurveyView), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await openRegistrySurvey(ctx, sampleIdOf(req), req.query.token, callerOf(req, res)));
  });

  router.post(SURVEY_PATH, byLink, validateBody(registrySurveyBody), answers(201, FollowUpAnswered), async (req, res) => {
    res.status(201).json(await answerRegistrySurvey(ctx, sampleIdOf(req), req.body as RegistrySurveyBody, callerOf(req, res)));
  });

  router.get('/sample-follow-up/:followUpId', byLink, answers(200, SampleFollowUpPatientView), async (req, res) => {
    const id = pathId(req.params.followUpId, 'Follow-up');
    res.set('Cache-Control', 'no-store').json(await openSampleQuestion(ctx, id, req.query.token, callerOf(req, res)));
  });

  router.post('/sample-follow-up/:followUpId/response', byLink, validateBody(sampleFollowUpResponseBody), answers(201, FollowUpAnswered), async (req, res) => {
    const id = pathId(req.params.followUpId, 'Follow-up');
    res.status(201).json(await answerSampleQuestion(ctx, id, req.body as SampleFollowUpResponseBody, callerOf(req, res)));
  });

  // ---- The clinic ----

  router.post('/provider-clinic/:accountId/sample-follow-up', ...clinic, validateBody(newSampleFollowUpBody), answers(201, FollowUpView), async (req, res) => {
    const caller = accountCallerOf(req, res);
    res.status(201).json(await askAboutSample(ctx, caller, { accountId: caller.accountId }, req.body as NewSampleFollowUpBody));
  });

  router.get('/provider-clinic/:accountId/sample-follow-up/:followUpId', ...clinic, answers(200, FollowUpView), async (req, res) => {
    const caller = accountCallerOf(req, res);
    res.set('Cache-Control', 'no-store').json(await getFollowUp(ctx, caller, { accountId: caller.accountId }, pathId(req.params.followUpId, 'Follow-up')));
  });

  router.get('/provider-clinic/:accountId/patient/:patientId/follow-ups', ...clinic, answers(200, shapes.array(FollowUpView)), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await listPatientFollowUps(ctx, accountCallerOf(req, res), pathId(req.params.patientId, 'Patient')));
  });

  // ---- The lab ----

  router.post('/lab-toolbox/sample-follow-up', requireUser('lab'), validateBody(newSampleFollowUpBody), answers(201, FollowUpView), async (req, res) => {
    res.status(201).json(await askAboutSample(ctx, userCallerOf(req, res), 'lab', req.body as NewSampleFollowUpBody));
  });

  router.get('/lab-toolbox/sample-follow-up/:followUpId', requireUser('lab'), answers(200, FollowUpView), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await getFollowUp(ctx, userCallerOf(req, res), 'lab', pathId(req.params.followUpId, 'Follow-up')));
  });

  router.get('/lab-toolbox/sample/:sampleId/follow-ups', requireUser('lab'), answers(200, shapes.array(FollowUpView)), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await listSampleFollowUps(ctx, userCallerOf(req, res), 'lab', pathId(req.params.sampleId, 'Sample')));
  });

  return router;
}
