/**
 * The clinic's side of patient ordering (docs/patient-ordering-api.md), under
 * /api/provider-clinic/{accountId}: the patients' own orders not paid yet, signing off and
 * cancelling patients' own orders, and patient invitations. Mounted before the provider router (its patient/:patientId must not take
 * patient/invitations).
 */
import { Router, type Request, type RequestHandler, type Response } from 'express';
import {
  UnpaidPatientOrderRow, SignOffContext, PatientListOrder, PatientInvitationRow,
  AccountRole, cancelPatientOrderBody, PATIENT_ORDER_CANCEL_ROLES, createInvitationBody, paginationQuery, signOffPatientOrderBody, unpaidPatientOrdersQuery, updateInvitationBody,
  type CancelPatientOrderBody, type CreateInvitationBody, type PaginationQuery, type SignOffPatientOrderBody, type UnpaidPatientOrdersQuery,
  type UpdateInvitationBody,
} from '@platform/domain';
import type { AppContext } from '../context';
import { requireAccountAccess, requireUser } from '../auth/guards';
import { validateBody, validateQuery } from '../http/validate';
import { accountCallerOf } from '../http/caller';
import { sendPage } from '../http/paging';
import { pathId } from '../http/path-id';
import { CLINIC_API_BASE } from '../http/portal-bases';
import { answers, answersPage } from '../http/answers';
import {
  cancelPatientOrder, createInvitation, listInvitations, listUnpaidPatientOrders, signOffContext, signOffPatientOrder, updateInvitation,
} from '@platform/server';

export function clinicPatientOrdersRouter(ctx: AppContext): Router {
  const router = Router();
  const clinic = (roles?: AccountRole[]): RequestHandler[] => [requireUser('provider'), requireAccountAccess(ctx, { portal: 'clinic', roles })];
  const path = (p: string) => `${CLINIC_API_BASE}/${p}`;
  const orderId = (req: Request) => pathId(req.params.orderId, 'Order');

  // Orders not paid yet have no sample, so the Patient-ordered list (tests?category=PATIENT_ORDERED) does not hold them.
  router.get(path('patient-orders/unpaid'), ...clinic(), validateQuery(unpaidPatientOrdersQuery), answersPage(UnpaidPatientOrderRow), async (req: Request, res: Response) => {
    sendPage(res, await listUnpaidPatientOrders(ctx, accountCallerOf(req, res), res.locals.query as UnpaidPatientOrdersQuery));
  });

  router.get(path('patient-orders/:orderId/sign-off'), ...clinic([AccountRole.Physician]), answers(200, SignOffContext), async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await signOffContext(ctx, accountCallerOf(req, res), orderId(req)));
  });

  router.post(path('patient-orders/:orderId/sign-off'), ...clinic([AccountRole.Physician]), validateBody(signOffPatientOrderBody), answers(200, PatientListOrder), async (req, res) => {
    res.json(await signOffPatientOrder(ctx, accountCallerOf(req, res), orderId(req), req.body as SignOffPatientOrderBody));
  });

  router.post(path('patient-orders/:orderId/cancel'), ...clinic([...PATIENT_ORDER_CANCEL_ROLES]), validateBody(cancelPatientOrderBody), answers(200, PatientListOrder), async (req, res) => {
    res.json(await cancelPatientOrder(ctx, accountCallerOf(req, res), orderId(req), (req.body as CancelPatientOrderBody).reason));
  });

  router.get(path('patient/invitations'), ...clinic(), validateQuery(paginationQuery), answersPage(PatientInvitationRow), async (req: Request, res: Response) => {
    sendPage(res, await listInvitations(ctx, accountCallerOf(req, res), res.locals.query as PaginationQuery));
  });

  router.post(path('patient/invitations/create'), ...clinic(), validateBody(createInvitationBody), answers(201, PatientInvitationRow), async (req, res) => {
    res.status(201).json(await createInvitation(ctx, accountCallerOf(req, res), req.body as CreateInvitationBody));
  });

  router.post(path('patient/invitations/update'), ...clinic(), validateBody(updateInvitationBody), answers(200, PatientInvitationRow), async (req, res) => {
    res.json(await updateInvitation(ctx, accountCallerOf(req, res), req.body as UpdateInvitationBody));
  });

  return router;
}
