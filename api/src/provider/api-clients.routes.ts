/**
 * The clinic's API clients page (issue 27): the account's Super Admin creates, lists and revokes
 * the credentials its EHR or practice system uses for the FHIR API and webhooks, and reads each
 * client's webhook deliveries (redelivering one on request).
 */
import { Router, type RequestHandler, type Response } from 'express';
import { AccountRole, ApiClientView, CreatedApiClient, createApiClientBody, shapes, WebhookDeliveryView } from '@platform/domain';
import { createApiClient, listApiClients, listWebhookDeliveries, redeliverWebhook, revokeApiClient } from '@platform/server';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { validateBody } from '../http/validate';
import { answers } from '../http/answers';
import { accountCallerOf } from '../http/caller';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { pathId, textParams } from '../http/path-id';

export function clinicApiClientsRouter(ctx: AppContext): Router {
  const router = Router();
  const superAdmin: RequestHandler[] = [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic', roles: [AccountRole.SuperAdmin] })];
  const path = `${CLINIC_API_BASE}/api-clients`;
  const accountIdOf = (res: Response) => (res.locals.account as { id: number }).id;

  router.get(path, ...superAdmin, answers(200, shapes.array(ApiClientView)), async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await listApiClients(ctx, accountIdOf(res)));
  });
  router.post(path, ...superAdmin, validateBody(createApiClientBody), answers(201, CreatedApiClient), async (req, res) => {
    res.status(201).set('Cache-Control', 'no-store').json(await createApiClient(ctx, accountCallerOf(req, res), accountIdOf(res), req.body));
  });
  router.delete(`${path}/:clientId`, ...superAdmin, textParams('clientId'), answers(200, ApiClientView), async (req, res) => {
    res.json(await revokeApiClient(ctx, accountCallerOf(req, res), accountIdOf(res), String(req.params.clientId)));
  });
  router.get(`${path}/:clientId/deliveries`, ...superAdmin, textParams('clientId'), answers(200, shapes.array(WebhookDeliveryView)), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await listWebhookDeliveries(ctx, accountIdOf(res), String(req.params.clientId)));
  });
  router.post(`${path}/:clientId/deliveries/:deliveryId/redeliver`, ...superAdmin, textParams('clientId'), answers(200, WebhookDeliveryView), async (req, res) => {
    res.json(await redeliverWebhook(ctx, accountCallerOf(req, res), accountIdOf(res), String(req.params.clientId), pathId(req.params.deliveryId, 'Delivery')));
  });
  return router;
}
