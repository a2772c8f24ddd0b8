/**
 * The Lab Toolbox API (/api/lab-toolbox/…): lab users only. Intake, lab-ordered samples, PCR
 * plates and their results, result-file imports (upload, job status, errors CSV, commit),
 * review lists, approval, rejection and correction of results.
 */
import express, { Router, type Response } from 'express';
import {
  IntakeKit, IntakeOutcome, LabSampleCreated, QueuedSample, PlateSummary, PlateView, ImportUploadAccepted, ImportCommitAccepted, ImportJob, ReviewListRow, ReleasedResultRow, ImportReview, ApproveResultsAnswer, RejectResultsAnswer, CorrectedResult,
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
  approveResultsBody,
  reviewListQuery,
  labelPdfQuery,
  sampleLabelsPdfQuery,
  sampleLabelsZplQuery,
  type SampleLabelsQuery,
  type ImportFileQuery,
  type ImportReviewQuery,
  type QueueQuery,
  type ReleasedResultsQuery,
  type ReviewListQuery,
} from '@platform/domain';
import { confirmSigner } from '@platform/server/access/sign-in';
import { requireUser } from '../auth/guards';
import type { AppContext } from '../context';
import { validateBody, validateQuery } from '../http/validate';
import {
  approveResults, commitImportFile, correctResult, createLabSample, createPasswordCheckThrottle, enterPlateResults, getImportJob, getPlate, importErrorsCsv, intakeKit, importReview, listPcrQueue, listPlates, receiveKit, registerPlate, rejectKit, sampleLabels, pcrPlateLabel, rejectResults, releasedToxicityResults, reviewList, uploadImportFile,
} from '@platform/server';
import { userCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';
import { answers, answersFile, answersPage } from '../http/answers';
import { declareRawBody } from '../http/route-policy';
import { answersLabelPdf, answersLabelZpl, pdfOutput, sendLabelFile, ZPL_OUTPUT } from '../http/label-file';

const BASE = '/lab-toolbox';

/**
 * Result files are uploaded here as the raw request body, read (up to IMPORT_MAX_BYTES) only
 * once the caller is known to be a lab user. app.ts lets this path's non-JSON body through.
 */
export const LAB_UPLOAD_ROUTE = `${BASE}/import-files`;

/** The upload's body: the file's bytes as they are (its kind and name are in the query). */
const uploadBody = declareRawBody(express.raw({ type: () => true, limit: IMPORT_MAX_BYTES }), {
  contentType: 'application/octet-stream',
  description: 'The file itself: a CSV (UTF-8) or an Excel workbook (.xlsx)',
});

export function labRouter(ctx: AppContext): Router {
  const router = Router();
  const signatureThrottle = createPasswordCheckThrottle(ctx.redis, ctx.config.redisPrefix, 'signature');
  router.use(BASE, requireUser('lab'));
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  // Intake: the scanned kit as the technician checks it, then received or rejected
  router.get(`${BASE}/intake/kits/:barcode`, answers(200, IntakeKit), async (req, res) => {
    noStore(res).json(await intakeKit(ctx, userCallerOf(req, res), String(req.params.barcode)));
  });
  router.post(`${BASE}/intake/receive`, validateBody(intakeReceiveBody), answers(200, IntakeOutcome), async (req, res) => {
    res.json(await receiveKit(ctx, userCallerOf(req, res), req.body));
  });
  router.post(`${BASE}/intake/reject`, validateBody(intakeRejectBody), answers(200, IntakeOutcome), async (req, res) => {
    res.json(await rejectKit(ctx, userCallerOf(req, res), req.body));
  });

  // Kit and sample labels by kit barcode (intake: a scan's label, the session's labels)
  router.get(`${BASE}/labels/samples/pdf`, validateQuery(sampleLabelsPdfQuery), answersLabelPdf, async (req, res) => {
    sendLabelFile(res, await sampleLabels(ctx, userCallerOf(req, res), res.locals.query as SampleLabelsQuery, pdfOutput(res)));
  });
  router.get(`${BASE}/labels/samples/zpl`, validateQuery(sampleLabelsZplQuery), answersLabelZpl, async (req, res) => {
    sendLabelFile(res, await sampleLabels(ctx, userCallerOf(req, res), res.locals.query as SampleLabelsQuery, ZPL_OUTPUT));
  });

  // Lab-ordered samples (COVID-19 PCR or Rapid)
  router.post(`${BASE}/samples/create`, validateBody(labSampleCreateBody), answers(201, LabSampleCreated), async (req, res) => {
    res.status(201).json(await createLabSample(ctx, userCallerOf(req, res), req.body));
  });

  // PCR register and resulting
  router.get(`${BASE}/pcr/queue`, validateQuery(labQueueQuery), answersPage(QueuedSample), async (_req, res) => {
    const { total, rows } = await listPcrQueue(ctx, res.locals.query as QueueQuery);
    sendPage(res, { total, rows });
  });
  router.get(`${BASE}/pcr/plates`, validateQuery(pcrPlatesQuery), answersPage(PlateSummary), async (_req, res) => {
    const { total, rows } = await listPlates(ctx, res.locals.query as { page: number; pageSize: number; status?: string });
    sendPage(res, { total, rows });
  });
  router.post(`${BASE}/pcr/plates`, validateBody(pcrPlateBody), answers(201, PlateView), async (req, res) => {
    res.status(201).json(await registerPlate(ctx, userCallerOf(req, res), req.body));
  });
  router.get(`${BASE}/pcr/plates/:plateId`, answers(200, PlateView), async (req, res) => {
    noStore(res).json(await getPlate(ctx, userCallerOf(req, res), pathId(req.params.plateId, 'Plate')));
  });
  router.get(`${BASE}/pcr/plates/:plateId/label/pdf`, validateQuery(labelPdfQuery), answersLabelPdf, async (req, res) => {
    sendLabelFile(res, await pcrPlateLabel(ctx, userCallerOf(req, res), pathId(req.params.plateId, 'Plate'), pdfOutput(res)));
  });
  router.get(`${BASE}/pcr/plates/:plateId/label/zpl`, answersLabelZpl, async (req, res) => {
    sendLabelFile(res, await pcrPlateLabel(ctx, userCallerOf(req, res), pathId(req.params.plateId, 'Plate'), ZPL_OUTPUT));
  });
  router.post(`${BASE}/pcr/plates/:plateId/results`, validateBody(pcrResultsBody), answers(200, PlateView), async (req, res) => {
    res.json(await enterPlateResults(ctx, userCallerOf(req, res), pathId(req.params.plateId, 'Plate'), req.body));
  });

  // Result-file imports. The upload's body is the raw file (a Buffer), so it is not validated as JSON.
  router.post(LAB_UPLOAD_ROUTE, uploadBody, validateQuery(importFileQuery), answers(202, ImportUploadAccepted), async (req, res) => {
    res.status(202).json(await uploadImportFile(ctx, userCallerOf(req, res), res.locals.query as ImportFileQuery, req.body));
  });
  router.post(`${BASE}/import-files/:fileId/commit`, answers(202, ImportCommitAccepted), async (req, res) => {
    res.status(202).json(await commitImportFile(ctx, userCallerOf(req, res), pathId(req.params.fileId, 'Import file')));
  });
  router.get(`${BASE}/jobs/:jobId`, answers(200, ImportJob), async (req, res) => {
    noStore(res).json(await getImportJob(ctx, userCallerOf(req, res), pathId(req.params.jobId, 'Import job')));
  });
  router.get(`${BASE}/jobs/:jobId/errors.csv`, answersFile('text/csv'), async (req, res) => {
    const { fileName, csv } = await importErrorsCsv(ctx, userCallerOf(req, res), pathId(req.params.jobId, 'Import job'));
    noStore(res)
      .set('Content-Type', 'text/csv; charset=utf-8')
      .set('Content-Disposition', `attachment; filename="${fileName}"`)
      .send(csv);
  });

  // Review, approval, rejection, correction
  router.get(`${BASE}/get-review-list`, validateQuery(reviewListQuery), answersPage(ReviewListRow), async (req, res) => {
    const { total, rows } = await reviewList(ctx, userCallerOf(req, res), res.locals.query as ReviewListQuery);
    sendPage(res, { total, rows });
  });
  router.get(`${BASE}/get-cancer-toxicity-results`, validateQuery(releasedResultsQuery), answersPage(ReleasedResultRow), async (req, res) => {
    const { total, rows } = await releasedToxicityResults(ctx, userCallerOf(req, res), res.locals.query as ReleasedResultsQuery);
    sendPage(res, { total, rows });
  });
  router.get(`${BASE}/import-tests-review`, validateQuery(importReviewQuery), answers(200, ImportReview), async (req, res) => {
    noStore(res).json(await importReview(ctx, userCallerOf(req, res), (res.locals.query as ImportReviewQuery).jobId));
  });
  for (const group of APPROVAL_GROUPS) {
    router.post(`${BASE}/approve-tests-${group}`, validateBody(approveResultsBody), answers(200, ApproveResultsAnswer), async (req, res) => {
      const caller = userCallerOf(req, res);
      const signer = await confirmSigner(ctx, caller, req.body.password, signatureThrottle);
      res.json(await approveResults(ctx, caller, group, req.body.resultIds, signer));
    });
  }
  router.post(`${BASE}/import-tests-reject`, validateBody(rejectResultsBody), answers(200, RejectResultsAnswer), async (req, res) => {
    res.json(await rejectResults(ctx, userCallerOf(req, res), req.body));
  });
  router.post(`${BASE}/results/correct`, validateBody(correctResultBody), answers(201, CorrectedResult), async (req, res) => {
    const caller = userCallerOf(req, res);
    const signer = await confirmSigner(ctx, caller, req.body.password, signatureThrottle);
    res.status(201).json(await correctResult(ctx, caller, req.body, signer));
  });

  return router;
}
