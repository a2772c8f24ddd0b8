/**
 * Storage plates of the Lab Toolbox (/api/lab-toolbox/storage/… and
 * /api/lab-toolbox/import-samples-storage-plates): lab users only. Plates and their maps, scanning
 * into a well, taking out, discarding, finding a sample, and the plate file import.
 */
import { Router, type Response } from 'express';
import {
  StoragePlateSummary, StoragePlateView, StoragePlacement, StorageTakeOut, StorageDiscarded, StorageSampleLocation, StorageImportCheck, StorageImportCommitted, shapes,
  storageDiscardBody,
  storageFindQuery,
  storageImportBody,
  storagePlacementBody,
  storagePlateCreateBody,
  storagePlatesQuery,
  labelPdfQuery,
  type StorageFindQuery,
  type StoragePlatesQuery,
} from '@platform/domain';
import { requireUser } from '../auth/guards';
import type { AppContext } from '../context';
import { userCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';
import { validateBody, validateQuery } from '../http/validate';
import { answers, answersPage } from '../http/answers';
import { answersLabelPdf, answersLabelZpl, pdfOutput, sendLabelFile, ZPL_OUTPUT } from '../http/label-file';
import {
  createStoragePlate, discardSample, findStoredSample, getStoragePlate, importStoragePlates, listStoragePlates, placeSample, storagePlateLabel, takeOut,
} from '@platform/server';

const BASE = '/lab-toolbox/storage';
export const STORAGE_IMPORT_ROUTE = '/lab-toolbox/import-samples-storage-plates';

export function storageRouter(ctx: AppContext): Router {
  const router = Router();
  router.use([BASE, STORAGE_IMPORT_ROUTE], requireUser('lab'));
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');
  const plateId = (value: unknown) => pathId(value, 'Plate');

  router.get(`${BASE}/plates`, validateQuery(storagePlatesQuery), answersPage(StoragePlateSummary), async (_req, res) => {
    sendPage(res, await listStoragePlates(ctx, res.locals.query as StoragePlatesQuery));
  });
  router.post(`${BASE}/plates`, validateBody(storagePlateCreateBody), answers(201, StoragePlateView), async (req, res) => {
    res.status(201).json(await createStoragePlate(ctx, userCallerOf(req, res), req.body));
  });
  router.get(`${BASE}/plates/:plateId`, answers(200, StoragePlateView), async (req, res) => {
    noStore(res).json(await getStoragePlate(ctx, userCallerOf(req, res), plateId(req.params.plateId)));
  });
  router.get(`${BASE}/plates/:plateId/label/pdf`, validateQuery(labelPdfQuery), answersLabelPdf, async (req, res) => {
    sendLabelFile(res, await storagePlateLabel(ctx, userCallerOf(req, res), plateId(req.params.plateId), pdfOutput(res)));
  });
  router.get(`${BASE}/plates/:plateId/label/zpl`, answersLabelZpl, async (req, res) => {
    sendLabelFile(res, await storagePlateLabel(ctx, userCallerOf(req, res), plateId(req.params.plateId), ZPL_OUTPUT));
  });
  router.post(`${BASE}/plates/:plateId/wells`, validateBody(storagePlacementBody), answers(201, StoragePlacement), async (req, res) => {
    res.status(201).json(await placeSample(ctx, userCallerOf(req, res), plateId(req.params.plateId), req.body));
  });
  router.post(`${BASE}/plates/:plateId/wells/:well/take-out`, answers(200, StorageTakeOut), async (req, res) => {
    res.json(await takeOut(ctx, userCallerOf(req, res), plateId(req.params.plateId), String(req.params.well)));
  });
  router.post(`${BASE}/discard`, validateBody(storageDiscardBody), answers(200, StorageDiscarded), async (req, res) => {
    res.json(await discardSample(ctx, userCallerOf(req, res), req.body));
  });
  router.get(`${BASE}/find`, validateQuery(storageFindQuery), answers(200, StorageSampleLocation), async (req, res) => {
    noStore(res).json(await findStoredSample(ctx, userCallerOf(req, res), res.locals.query as StorageFindQuery));
  });
  router.post(STORAGE_IMPORT_ROUTE, validateBody(storageImportBody), answers(200, shapes.union(StorageImportCheck, StorageImportCommitted)), async (req, res) => {
    res.json(await importStoragePlates(ctx, userCallerOf(req, res), req.body));
  });
  return router;
}
