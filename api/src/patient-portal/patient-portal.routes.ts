/**
 * The Patient Portal's public API, mounted at /api (docs/patient-ordering-api.md): no sign-in,
 * except the clinic's MiraKind path of order/create. Names and dates of birth travel only in
 * POST bodies, never in URLs; the anonymous CSRF double-submit cookie protects every POST.
 */
import { Router, type Request, type Response } from 'express';
import {
  EligibilityAnswer, PrpAccountOption, InsurancePlanOption, CreatedPatientOrder, PatientOrderSummary, InvitationPrefill, FinancialAssistanceExistsAnswer, PaymentIntentAnswer, shapes,
  createPatientOrderBody, eligibilityInquiryBody, financialAssistanceExistsBody, invitationLookupBody, patientOrderKeyBody, setPaymentBody,
  setReferralSourceBody, type CreatePatientOrderBody, type EligibilityInquiryBody, type FinancialAssistanceExistsBody, type InvitationLookupBody,
  type PatientOrderKey, type SetPaymentBody, type SetReferralSourceBody,
} from '@platform/domain';
import {
  activeInsurancePlans, type Caller, createPatientOrder, createPaymentIntent, eligibilityInquiry, financialAssistanceExists, invitationPrefill, notFound, orderSummary, prpAccounts, setPayment, setReferralSource,
  createAddressThrottle,
} from '@platform/server';
import type { AppContext } from '../context';
import { validateBody } from '../http/validate';
import { callerOf } from '../http/caller';
import { unauthorized } from '../http/errors';
import { accountsOf } from '@platform/server/access/sign-in';
import { publicRoute } from '../http/route-policy';
import { answers } from '../http/answers';

/** A public call's caller: the patient (no user) or, on the MiraKind path, the signed-in provider. */
function patientCallerOf(req: Request, res: Response): Caller {
  const caller = callerOf(req, res);
  return req.user ? caller : { ...caller, kind: 'patient' };
}

export function patientPortalRouter(ctx: AppContext): Router {
  const router = Router();
  // Anyone may ask whether a named person exists, so one address may ask only a few times.
  const aidChecks = createAddressThrottle(ctx.redis, ctx.config.redisPrefix, {
    name: 'aid-check-address', points: 10, windowSeconds: 15 * 60, refusal: 'Too many checks from your network',
  });
  const noStore = (res: Response) => res.set('Cache-Control', 'no-store');

  const open = publicRoute('the patient order pages, before any order exists: nothing to check but the input');
  const byOrderToken = publicRoute('an order the caller created: its order number and the order token only that browser holds');

  router.post('/order/eligibility-inquiry', open, validateBody(eligibilityInquiryBody), answers(200, EligibilityAnswer), (req, res) => {
    noStore(res).json(eligibilityInquiry(req.body as EligibilityInquiryBody));
  });

  router.get('/order/prostox/get-prp-accounts', open, answers(200, shapes.array(PrpAccountOption)), async (_req, res) => {
    res.json(await prpAccounts(ctx));
  });

  router.get('/insurance-plans', open, answers(200, shapes.array(InsurancePlanOption)), async (_req, res) => {
    res.json(await activeInsurancePlans(ctx));
  });

  router.post('/order/create', open, validateBody(createPatientOrderBody), answers(201, CreatedPatientOrder), async (req, res) => {
    const body = req.body as CreatePatientOrderBody;
    let caller = patientCallerOf(req, res);
    if (body.mirakind) {
      // The clinic's {product}-through-mirakind page: a provider with clinic access to the account.
      if (!req.user) throw unauthorized();
      const account = (await accountsOf(ctx, req.user)).find((a) => a.id === body.accountId && a.clinicAccess);
      if (!account) throw notFound('Treating provider not found');
      caller = { ...caller, accountId: account.id };
    }
    noStore(res).status(201).json(await createPatientOrder(ctx, caller, body));
  });

  router.post('/order/set-referral-source', byOrderToken, validateBody(setReferralSourceBody), answers(200, PatientOrderSummary), async (req, res) => {
    noStore(res).json(await setReferralSource(ctx, patientCallerOf(req, res), req.body as SetReferralSourceBody));
  });

  router.post('/order/set-payment', byOrderToken, validateBody(setPaymentBody), answers(200, PatientOrderSummary), async (req, res) => {
    noStore(res).json(await setPayment(ctx, patientCallerOf(req, res), req.body as SetPaymentBody));
  });

  router.post('/order/summary', byOrderToken, validateBody(patientOrderKeyBody), answers(200, PatientOrderSummary), async (req, res) => {
    noStore(res).json(await orderSummary(ctx, patientCallerOf(req, res), req.body as PatientOrderKey));
  });

  router.post('/order/invitation', publicRoute('an invitation link: its single-use token'), validateBody(invitationLookupBody), answers(200, InvitationPrefill), async (req, res) => {
    noStore(res).json(await invitationPrefill(ctx, patientCallerOf(req, res), (req.body as InvitationLookupBody).invitationToken));
  });

  // The caller's own order (its key) and the assistance code emailed with the grant: no answer about a bare name. Throttled per address.
  router.post('/patient/financial-assistance-patient-exists', byOrderToken, validateBody(financialAssistanceExistsBody), answers(200, FinancialAssistanceExistsAnswer), async (req, res) => {
    await aidChecks.consume(req.ip ?? 'unknown');
    noStore(res).json(await financialAssistanceExists(ctx, patientCallerOf(req, res), req.body as FinancialAssistanceExistsBody));
  });

  router.post('/stripe/create-payment-intent', byOrderToken, validateBody(patientOrderKeyBody), answers(200, PaymentIntentAnswer), async (req, res) => {
    noStore(res).json(await createPaymentIntent(ctx, patientCallerOf(req, res), req.body as PatientOrderKey));
  });

  return router;
}
