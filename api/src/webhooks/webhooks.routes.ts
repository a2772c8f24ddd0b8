/**
 * Webhooks, mounted at /api/webhooks before JSON parsing, sessions and CSRF: each verifies its
 * sender's signature on the raw body, then validates and applies the event once.
 */
import express, { Router, type Request, type RequestHandler } from 'express';
import { OrderEventAnswer, RatesAnswer, SHIPPING_SIGNATURE_HEADER, shippingOrderEvent, shippingRatesEvent, validate, type ShippingOrderEvent, type ShippingRatesEvent } from '@platform/domain';
import type Joi from 'joi';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import { declarePolicy, declareRawBody } from '../http/route-policy';
import { answers } from '../http/answers';
import { handleShippingOrderEvent, handleShippingRates, validationFailed, verifyShippingSignature } from '@platform/server';

/** Webhook bodies are small; anything bigger is refused before it is read. */
const WEBHOOK_BODY_LIMIT = '256kb';

const SIGNATURE_MESSAGES = {
  missing: 'The request has no x-shipping-signature header',
  malformed: 'The x-shipping-signature header is malformed',
  stale: 'The signature timestamp is more than 5 minutes away from now',
  mismatch: 'The signature does not match the request body',
} as const;

const rawBodyOf = (req: Request): Buffer => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));

/** Refuses a request whose signature does not verify with the shared secret. */
function shippingSignature(ctx: AppContext): RequestHandler {
  return declarePolicy((req, _res, next) => {
    const check = verifyShippingSignature(ctx.config.shippingWebhookSecret, req.get(SHIPPING_SIGNATURE_HEADER), rawBodyOf(req));
    if (!check.ok) return next(new AppError(401, 'bad_signature', SIGNATURE_MESSAGES[check.reason]));
    next();
  }, { type: 'public', because: 'the shipping service signs each call with the shared secret' });
}

/** Parses the (verified) raw body as JSON and validates it. */
function parseEvent<T>(req: Request, schema: Joi.Schema<T>): T {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBodyOf(req).toString('utf8'));
  } catch {
    throw new AppError(400, 'malformed_json', 'The request body is not valid JSON');
  }
  const result = validate(schema, parsed);
  if ('fields' in result) throw validationFailed(result.fields);
  return result.value;
}

export function webhooksRouter(ctx: AppContext): Router {
  const router = Router();
  // The raw body (its signature is over the bytes), declared with the event schema it is then checked against.
  const signedEvent = (schema: Joi.Schema) => declareRawBody(express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), {
    contentType: 'application/json',
    description: `A shipping-service event, signed in the ${SHIPPING_SIGNATURE_HEADER} header over the raw body`,
    schema,
  });
  const requestId = (req: Request) => (req.res?.locals.requestId as string | undefined) ?? null;

  router.post('/shipping-service/get-shipping-rates', signedEvent(shippingRatesEvent), shippingSignature(ctx), answers(200, RatesAnswer), async (req, res) => {
    const event = parseEvent<ShippingRatesEvent>(req, shippingRatesEvent);
    res.json(await handleShippingRates(ctx, event, { requestId: requestId(req) }));
  });

  router.post('/shipping-service/orders', signedEvent(shippingOrderEvent), shippingSignature(ctx), answers(200, OrderEventAnswer), async (req, res) => {
    const event = parseEvent<ShippingOrderEvent>(req, shippingOrderEvent);
    res.json(await handleShippingOrderEvent(ctx, event, { requestId: requestId(req) }));
  });

  return router;
}
