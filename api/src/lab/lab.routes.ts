/**
 * The Lab Toolbox API (/api/lab-toolbox/…): lab users only. Intake, lab-ordered samples, PCR
 * plates and their results, result-file imports (upload, job status, errors CSV, commit),
 * review lists, approval, rejection and correction of results.
 */
import express, { Router, type Response } from 'express';
import {
  IMPORT_MAX_BYTES,
  APPROVAL_GROUPS,
  correctResultBody,
  importFileQuery,
  importReviewQuery,
  intakeReceiveBody,
  intakeRejectBody,
  labQueueQuery,
  labSampleCreateBody,
  pcrPlateBody,
  pcrPlatesQuery,
  pcrResultsBody,
  rejectResultsBody,
  releasedResultsQuery,
  resultIdsBody,
  reviewListQuery,
  type ImportFileQuery,
  type ImportReviewQuery,
  type QueueQuery,
  type ReleasedResultsQuery,
  type ReviewListQuery,
} from '@platform/domain';
import { requireUser } from '../auth/guards';
import type { AppContext } from '../context';
import { validateBody, validateQuery } from '../http/validate';
import {
  approveResults, commitImportFile, correctResult, createLabSample, enterPlateResults, getImportJob, getPlate, importErrorsCsv, importReview, listPcrQueue, listPlates, receiveKit, registerPlate, rejectKit, rejectResults, releasedToxicityResults, reviewList, uploadImportFile,
} from '@platform/server';
import { userCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';

const BASE = '/lab-toolbox';

/**
 * Result files are uploaded here as the raw request body, read (up to IMPORT_MAX_BYTES) only
 * once the caller is known to be a lab user. app.ts lets this path's non-JSON body through.
 */
export const LAB_UPLOAD_ROUTE = `${BASE}/import-files`;

export function labRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(BASE, requireUser('lab'));
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  // Intake
  router.post(`${BASE}/intake/receive`, validateBody(intakeReceiveBody), async (req, res) => {
    res.json(await receiveKit(ctx, userCallerOf(req, res), req.body));
  });
  router.post(`${BASE}/intake/reject`, validateBody(intakeRejectBody), async (req, res) => {
    res.json(await rejectKit(ctx, userCallerOf(req, res), req.body));
  });

  // Lab-ordered samples (COVID-19 PCR or Rapid)
  router.post(`${BASE}/samples/create`, validateBody(labSampleCreateBody), async (req, res) => {
    res.status(201).json(await createLabSample(ctx, userCallerOf(req, res), req.body));
  });

  // PCR register and resulting
  router.get(`${BASE}/pcr/queue`, validateQuery(labQueueQuery), async (_req, res) => {
    const { total, rows } = await listPcrQueue(ctx, res.locals.query as QueueQuery);
    sendPage(res, { total, rows });
  });
  router.get(`${BASE}/pcr/plates`, validateQuery(pcrPlatesQuery), async (_req, res) => {
    const { total, rows } = await listPlates(ctx, res.locals.query as { page: number; pageSize: number; status?: string });
    sendPage(res, { total, rows });
  });
  router.post(`${BASE}/pcr/plates`, validateBody(pcrPlateBody), async (req, res) => {
    res.status(201).json(await registerPlate(ctx, userCallerOf(req, res), req.body));
  });
  router.get(`${BASE}/pcr/plates/:plateId`, async (req, res) => {
    noStore(res).json(await getPlate(ctx, userCallerOf(req, res), pathId(req.params.plateId, 'Plate')));
  });
  router.post(`${BASE}/pcr/plates/:plateId/results`, validateBody(pcrResultsBody), async (req, res) => {
    res.json(await enterPlateResults(ctx, userCallerOf(req, res), pathId(req.params.plateId, 'Plate'), req.body));
  });

  // Result-file imports. The upload's body is the raw file (a Buffer), so it is not validated as JSON.
  router.post(LAB_UPLOAD_ROUTE, express.raw({ type: () => true, limit: IMPORT_MAX_BYTES }), validateQuery(importFileQuery), async (req, res) => {
    res.status(202).json(await uploadImportFile(ctx, userCallerOf(req, res), res.locals.query as ImportFileQuery, req.body));
  });
  router.post(`${BASE}/import-files/:fileId/commit`, async (req, res) => {
    res.status(202).json(await commitImportFile(ctx, userCallerOf(req, res), pathId(req.params.fileId, 'Import file')));
  });
  router.get(`${BASE}/jobs/:jobId`, async (req, res) => {
    noStore(res).json(await getImportJob(ctx, userCallerOf(req, res), pathId(req.params.jobId, 'Import job')));
  });
  router.get(`${BASE}/jobs/:jobId/errors.csv`, async (req, res) => {
    const { fileName, csv } = await importErrorsCsv(ctx, userCallerOf(req, res), pathId(req.params.jobId, 'Import job'));
    noStore(res)
      .set('Content-Type', 'text/csv; charset=utf-8')
      .set('Content-Disposition', `attachment; filename="${fileName}"`)
      .send(csv);
  });

  // Review, approval, rejection, correction
  router.get(`${BASE}/get-review-list`, validateQuery(reviewListQuery), async (req, res) => {
    const { total, rows } = await reviewList(ctx, userCallerOf(req, res), res.locals.query as ReviewListQuery);
    sendPage(res, { total, rows });
  });
  router.get(`${BASE}/get-cancer-toxicity-results`, validateQuery(releasedResultsQuery), async (req, res) => {
    const { total, rows } = await releasedToxicityResults(ctx, userCallerOf(req, res), res.locals.query as ReleasedResultsQuery);
    sendPage(res, { total, rows });
  });
  router.get(`${BASE}/import-tests-review`, validateQuery(importReviewQuery), async (req, res) => {
    noStore(res).json(await importReview(ctx, userCallerOf(req, res), (res.locals.query as ImportReviewQuery).jobId));
  });
  for (const group of APPROVAL_GROUPS) {
    router.post(`${BASE}/approve-tests-${group}`, validateBody(resultIdsBody), async (req, res) => {
      res.json(await approveResults(ctx, userCallerOf(req, res), group, req.body.resultIds));
    });
  }
  router.post(`${BASE}/import-tests-reject`, validateBody(rejectResultsBody), async (req, res) => {
    res.json(await rejectResults(ctx, userCallerOf(req, res), req.body));
  });
  router.post(`${BASE}/results/correct`, validateBody(correctResultBody), async (req, res) => {
    res.status(201).json(await correctResult(ctx, userCallerOf(req, res), req.body));
  });

  return router;
}
