/**
 * The lab's admin manages any account's API clients (issue 27): the clinic's commands, for the URL's
 * account (mounted at /api/admin by admin.routes.ts, behind requireUser('admin')).
 */
import { Router } from 'express';
import { ApiClientView, CreatedApiClient, createApiClientBody, shapes, WebhookDeliveryView } from '@platform/domain';
import { createApiClient, listApiClients, listWebhookDeliveries, redeliverWebhook, revokeApiClient } from '@platform/server';
import type { AppContext } from '../context';
import { validateBody } from '../http/validate';
import { answers } from '../http/answers';
import { userCallerOf } from '../http/caller';
import { pathId, textParams } from '../http/path-id';

export function adminApiClientsRouter(ctx: AppContext): Router {
  const router = Router();
  const path = '/accounts/:accountId/api-clients';

  router.get(path, answers(200, shapes.array(ApiClientView)), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await listApiClients(ctx, pathId(req.params.accountId, 'Account')));
  });
  router.post(path, validateBody(createApiClientBody), answers(201, CreatedApiClient), async (req, res) => {
    res.status(201).set('Cache-Control', 'no-store').json(await createApiClient(ctx, userCallerOf(req, res), pathId(req.params.accountId, 'Account'), req.body));
  });
  router.delete(`${path}/:clientId`, textParams('clientId'), answers(200, ApiClientView), async (req, res) => {
    res.json(await revokeApiClient(ctx, userCallerOf(req, res), pathId(req.params.accountId, 'Account'), String(req.params.clientId)));
  });
  router.get(`${path}/:clientId/deliveries`, textParams('clientId'), answers(200, shapes.array(WebhookDeliveryView)), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await listWebhookDeliveries(ctx, pathId(req.params.accountId, 'Account'), String(req.params.clientId)));
  });
  router.post(`${path}/:clientId/deliveries/:deliveryId/redeliver`, textParams('clientId'), answers(200, WebhookDeliveryView), async (req, res) => {
    const accountId = pathId(req.params.accountId, 'Account');
    res.json(await redeliverWebhook(ctx, userCallerOf(req, res), accountId, String(req.params.clientId), pathId(req.params.deliveryId, 'Delivery')));
  });
  return router;
}
