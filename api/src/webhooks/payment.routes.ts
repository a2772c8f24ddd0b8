/**
 * The payment provider's webhook (Stripe), mounted at /api/webhooks before JSON parsing, sessions
 * and CSRF: the Stripe-Signature header is verified on the raw body with stripe-node's own
 * constructEvent (300 s tolerance) before anything is read; a missing or bad signature is a 400
 * and changes nothing.
 */
import express, { Router, type Request } from 'express';
import { PAYMENT_SIGNATURE_TOLERANCE_SECONDS, PAYMENT_WEBHOOK_PATH, PaymentEventAnswer } from '@platform/domain';
import { handlePaymentEvent, type StripeEvent, verifyPaymentEvent } from '@platform/server';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import { declareRawBody, publicRoute } from '../http/route-policy';
import { answers } from '../http/answers';

const WEBHOOK_BODY_LIMIT = '256kb';

export function paymentWebhookRouter(ctx: AppContext): Router {
  const router = Router();
  const raw = declareRawBody(express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), {
    contentType: 'application/json',
    description: "A payment provider's (Stripe's) event, signed in the Stripe-Signature header over the raw body",
  });

  router.post(PAYMENT_WEBHOOK_PATH, publicRoute('the payment provider: the Stripe-Signature on the raw body'), raw, answers(200, PaymentEventAnswer), async (req: Request, res) => {
    const signature = req.get('stripe-signature');
    if (!signature) throw new AppError(400, 'bad_signature', 'The request has no Stripe-Signature header');
    let event: StripeEvent;
    try {
      event = verifyPaymentEvent(ctx.config, Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0), signature, PAYMENT_SIGNATURE_TOLERANCE_SECONDS);
    } catch {
      throw new AppError(400, 'bad_signature', 'The Stripe-Signature does not verify for this body');
    }
    if (typeof event?.id !== 'string' || typeof event.type !== 'string' || !event.data?.object) {
      throw new AppError(400, 'malformed_event', 'The body is not a payment-provider event');
    }
    res.json(await handlePaymentEvent(ctx, event, { requestId: (res.locals.requestId as string | undefined) ?? null }));
  });

  return router;
}
