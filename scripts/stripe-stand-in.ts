/**
 * The local Stripe stand-in of `npm start` and the tests (no internet here): an HTTP server on
 * 127.0.0.1 that answers the calls stripe-node makes for the product (form-encoded
 * POST /v1/payment_intents with Idempotency-Key, GET /v1/payment_intents/:id,
 * POST /v1/payment_intents/:id/cancel, POST /v1/refunds) with Stripe-shaped JSON, and serves a
 * phone-friendly test card page in place of Stripe's Payment Element (GET /pay/:id). Paying there
 * sends the webhook Stripe would send (payment_intent.succeeded or payment_intent.payment_failed),
 * signed with stripe-node's own generateTestHeaderString, to the API, then redirects (303) to the
 * return URL; a refund sends charge.refunded; a cancel sends payment_intent.canceled. As at Stripe,
 * a cancelled intent can no longer be paid (its card page says so and takes no card) and only an
 * intent not yet succeeded or cancelled can be cancelled (else 400 payment_intent_unexpected_state).
 * Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.
 * It keeps everything in memory and never talks to Stripe. For fault tests, setOutage(true) makes
 * every API call answer 500 (api_error) as Stripe does when it is down (the card page still
 * works), and retryWebhooks() sends again the events the API did not take, as Stripe retries them.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { signPaymentEvent } from '@platform/server';

export const STAND_IN_API_VERSION = '2026-10-28.endive';
export const SUCCEEDING_CARD = '4242424242424242';
export const DECLINED_CARD = '4000000000000002';

export interface StandInCall {
  method: string;
  path: string;
  idempotencyKey: string | null;
  /** The HTTP status answered (null while the call is being answered). */
  status: number | null;
}

export interface StandInDelivery {
  eventId: string;
  type: string;
  status: number | null;
  error?: string;
}

export interface StripeStandIn {
  url: string;
  port: number;
  /** Every API call stripe-node made (not the card page), oldest first. */
  calls: StandInCall[];
  /** Every webhook sent, with the API's answer. */
  deliveries: StandInDelivery[];
  setWebhookUrl(url: string): void;
  /** While true, every API call answers 500 (api_error), as Stripe does in an outage. */
  setOutage(down: boolean): void;
  /** Resolves once every webhook sent so far has been answered (a refund's comes after the refund's answer). */
  settled(): Promise<void>;
  /** Sends again, in order, every event whose delivery got no 2xx (as Stripe retries them); resolves once they are answered. */
  retryWebhooks(): Promise<void>;
  close(): Promise<void>;
}

export interface StandInOptions {
  webhookSecret: string;
  /** Where webhooks go (the API's /api/webhooks/payment-provider/payment-intent); can be set later with setWebhookUrl. */
  webhookUrl?: string | null;
  port?: number;
  host?: string;
}

interface Intent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled';
  client_secret: string;
  canceled_at: number | null;
  cancellation_reason: string | null;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
  latest_charge: string | null;
  last_payment_error: { code: string; decline_code: string; message: string } | null;
}

interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  status: 'succeeded';
  created: number;
  metadata: Record<string, string>;
}

const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding: a=1&metadata[orderId]=7 → { a: '1', metadata: { orderId: '7' } } (one level is all the product sends). */
function parseForm(body: string): Record<string, string | Record<string, string>> {
  const out: Record<string, string | Record<string, string>> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const nested = /^(\w+)\[(\w+)\]$/.exec(key);
    if (nested) {
      const inner = (typeof out[nested[1]] === 'object' ? out[nested[1]] : {}) as Record<string, string>;
      inner[nested[2]] = value;
      out[nested[1]] = inner;
    } else out[key] = value;
  }
  return out;
}

function stripeError(res: http.ServerResponse, status: number, message: string, code?: string, param?: string, type = 'invalid_request_error'): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } }));
}

function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': rid('req'), ...headers });
  res.end(JSON.stringify(body));
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Only a web address may be a return URL (no javascript: and the like). */
function safeReturnUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/** The reasons Stripe accepts when an intent is cancelled. */
const CANCELLATION_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'];
/** The statuses from which Stripe lets an intent be cancelled. */
const CANCELABLE = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing'];

function cardPage(intent: Intent, returnUrl: string | null, error: string | null): string {
  const paid = intent.status === 'succeeded';
  const canceled = intent.status === 'canceled';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Test payment</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 0; padding: 16px; background: #f6f8fa; color: #1a1a1a; }
  main { max-width: 420px; margin: 0 auto; background: #fff; border-radius: 8px; padding: 20px; box-shadow: 0 1px 3px rgba(0,0,0,.15); }
  label { display: block; font-weight: 600; margin: 14px 0 4px; }
  input { width: 100%; box-sizing: border-box; font-size: 18px; padding: 10px; border: 1px solid #6b7280; border-radius: 6px; }
  .row { display: flex; gap: 12px; } .row > div { flex: 1; }
  button { width: 100%; margin-top: 20px; font-size: 18px; padding: 12px; border: 0; border-radius: 6px; background: #1d4ed8; color: #fff; }
  .note { font-size: 14px; color: #374151; } .error { color: #b91c1c; font-weight: 600; }
</style></head>
<body><main>
<h1>Test payment</h1>
<p class="note">Local Stripe stand-in: no real card is charged. Use 4242 4242 4242 4242 to pay, or 4000 0000 0000 0002 for a declined card.</p>
<p>Amount due: <strong>${dollars(intent.amount)}</strong></p>
${paid ? '<p role="status">This payment is complete.</p>' : canceled ? `<p role="alert">This payment was cancelled and can no longer be paid. No card was charged.</p>
${returnUrl ? `<p><a href="${escapeHtml(returnUrl)}">Back to your order</a></p>` : ''}` : `
${error ? `<p class="error" role="alert" id="card-error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/pay/${encodeURIComponent(intent.id)}">
  <input type="hidden" name="return_url" value="${escapeHtml(returnUrl ?? '')}">
  <label for="card-number">Card number</label>
  <input id="card-number" name="card_number" inputmode="numeric" autocomplete="cc-number" required ${error ? 'aria-describedby="card-error" aria-invalid="true"' : ''}>
  <div class="row">
    <div><label for="card-expiry">Expiry (MM/YY)</label><input id="card-expiry" name="expiry" autocomplete="cc-exp" placeholder="12/34" required></div>
    <div><label for="card-cvc">CVC</label><input id="card-cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required></div>
  </div>
  <label for="card-zip">ZIP code</label>
  <input id="card-zip" name="postal_code" inputmode="numeric" autocomplete="postal-code" required>
  <button type="submit">Pay ${dollars(intent.amount)}</button>
</form>`}
</main></body></html>`;
}

export async function startStripeStandIn(options: StandInOptions): Promise<StripeStandIn> {
  const intents = new Map<string, Intent>();
  const refunds = new Map<string, Refund>();
  /** Idempotency-Key → the answer first given (Stripe answers a repeated key with the same response). */
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const calls: StandInCall[] = [];
  const deliveries: StandInDelivery[] = [];
  /** Each event's body as first sent (a retried delivery sends the same event). */
  const payloads = new Map<string, string>();
  let webhookUrl = options.webhookUrl ?? null;
  let outage = false;
  const pending = new Set<Promise<void>>();

  async function sendEvent(type: string, object: unknown): Promise<void> {
    const event = { id: rid('evt'), object: 'event', api_version: STAND_IN_API_VERSION, created: now(), livemode: false, pending_webhooks: 1, type, data: { object } };
    const delivery: StandInDelivery = { eventId: event.id, type, status: null };
    deliveries.push(delivery);
    payloads.set(event.id, JSON.stringify(event));
    await deliver(delivery);
  }

  /** One attempt at a delivery, signed afresh (as each of Stripe's attempts is). */
  async function deliver(delivery: StandInDelivery): Promise<void> {
    delete delivery.error;
    delivery.status = null;
    if (!webhookUrl) {
      delivery.error = 'no webhook URL set';
      return;
    }
    const payload = payloads.get(delivery.eventId)!;
    try {
      const res = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signPaymentEvent(options.webhookSecret, payload) },
        body: payload,
      });
      delivery.status = res.status;
      await res.arrayBuffer();
    } catch (err) {
      delivery.error = (err as Error).message;
    }
  }

  /** Sends in the background (a refund's webhook comes after its answer, as Stripe's does); close() waits for it. */
  function sendLater(type: string, object: unknown): void {
    const p = sendEvent(type, object).finally(() => pending.delete(p));
    pending.add(p);
  }

  async function readBody(req: http.IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > 64 * 1024) throw new Error('body too large');
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  function createIntent(form: Record<string, string | Record<string, string>>): { status: number; body: unknown } {
    const amount = Number(form.amount);
    if (!Number.isInteger(amount) || amount < 50) return { status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_invalid_integer', param: 'amount', message: 'Amount must be at least $0.50 usd' } } };
    if (typeof form.currency !== 'string' || !form.currency) return { status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_missing', param: 'currency', message: 'Missing required param: currency.' } } };
    const id = rid('pi');
    const intent: Intent = {
      id, object: 'payment_intent', amount, amount_received: 0, currency: form.currency.toLowerCase(), status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`, canceled_at: null, cancellation_reason: null,
      metadata: (typeof form.metadata === 'object' ? form.metadata : {}), created: now(), livemode: false, latest_charge: null, last_payment_error: null,
    };
    intents.set(id, intent);
    return { status: 200, body: intent };
  }

  /** POST /v1/payment_intents/:id/cancel: as Stripe, only an intent not yet succeeded or cancelled; sends payment_intent.canceled after the answer. */
  function cancelIntent(id: string, form: Record<string, string | Record<string, string>>): { status: number; body: unknown } {
    const intent = intents.get(id);
    if (!intent) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'intent', message: `No such payment_intent: '${id}'` } } };
    const reason = typeof form.cancellation_reason === 'string' ? form.cancellation_reason : null;
    if (reason !== null && !CANCELLATION_REASONS.includes(reason)) {
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_invalid_string', param: 'cancellation_reason', message: `Invalid cancellation_reason: must be one of ${CANCELLATION_REASONS.join(', ')}` } } };
    }
    if (!CANCELABLE.includes(intent.status)) {
      return {
        status: 400,
        body: {
          error: {
            type: 'invalid_request_error', code: 'payment_intent_unexpected_state', payment_intent: { ...intent },
            message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
          },
        },
      };
    }
    Object.assign(intent, { status: 'canceled', canceled_at: now(), cancellation_reason: reason });
    sendLater('payment_intent.canceled', { ...intent });
    return { status: 200, body: intent };
  }

  function createRefund(form: Record<string, string | Record<string, string>>): { status: number; body: unknown } {
    const intent = typeof form.payment_intent === 'string' ? intents.get(form.payment_intent) : undefined;
    if (!intent) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_intent', message: `No such payment_intent: '${String(form.payment_intent)}'` } } };
    if (intent.status !== 'succeeded' || !intent.latest_charge) {
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_not_found', message: 'This PaymentIntent does not have a successful charge to refund.' } } };
    }
    if ([...refunds.values()].some((r) => r.payment_intent === intent.id)) {
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge ${intent.latest_charge} has already been refunded.` } } };
    }
    const refund: Refund = {
      id: rid('re'), object: 'refund', amount: intent.amount, charge: intent.latest_charge, payment_intent: intent.id, currency: intent.currency,
      status: 'succeeded', created: now(), metadata: (typeof form.metadata === 'object' ? form.metadata : {}),
    };
    refunds.set(refund.id, refund);
    sendLater('charge.refunded', {
      id: intent.latest_charge, object: 'charge', amount: intent.amount, amount_refunded: intent.amount, currency: intent.currency,
      payment_intent: intent.id, refunded: true, status: 'succeeded', metadata: intent.metadata,
    });
    return { status: 200, body: refund };
  }

  async function api(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    const idempotencyKey = req.headers['idempotency-key'] ? String(req.headers['idempotency-key']) : null;
    const call: StandInCall = { method: req.method ?? '', path, idempotencyKey, status: null };
    calls.push(call);
    res.once('finish', () => {
      call.status = res.statusCode;
    });
    if (outage) return stripeError(res, 500, 'An unexpected error occurred (the local stand-in is in an outage).', undefined, undefined, 'api_error');
    if (!/^Bearer (sk|rk)_test_\w+$/.test(String(req.headers.authorization ?? ''))) {
      return stripeError(res, 401, 'Invalid API Key provided (the local stand-in accepts test keys only).');
    }
    const form = req.method === 'POST' ? parseForm(await readBody(req)) : {};
    const cacheKey = idempotencyKey ? `${path} ${idempotencyKey}` : null;
    const remembered = cacheKey ? idempotent.get(cacheKey) : undefined;
    if (remembered) return json(res, remembered.status, remembered.body, { 'Idempotent-Replayed': 'true' });

    let answer: { status: number; body: unknown };
    const intentPath = /^\/v1\/payment_intents\/([\w]+)$/.exec(path);
    const cancelPath = /^\/v1\/payment_intents\/([\w]+)\/cancel$/.exec(path);
    if (req.method === 'POST' && path === '/v1/payment_intents') answer = createIntent(form);
    else if (req.method === 'POST' && cancelPath) answer = cancelIntent(cancelPath[1], form);
    else if (req.method === 'GET' && intentPath) {
      const intent = intents.get(intentPath[1]);
      answer = intent ? { status: 200, body: intent } : { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such payment_intent: '${intentPath[1]}'` } } };
    } else if (req.method === 'POST' && path === '/v1/refunds') answer = createRefund(form);
    else answer = { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}). The local stand-in answers only the calls the product makes.` } } };
    if (cacheKey && req.method === 'POST') idempotent.set(cacheKey, answer);
    json(res, answer.status, answer.body);
  }

  async function payPage(req: http.IncomingMessage, res: http.ServerResponse, url: URL, id: string): Promise<void> {
    const intent = intents.get(id);
    const html = (status: number, body: string) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(body);
    };
    if (!intent) return html(404, '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><main><h1>No such payment</h1></main></body></html>');
    if (req.method === 'GET') return html(200, cardPage(intent, safeReturnUrl(url.searchParams.get('return_url')), null));

    const form = new URLSearchParams(await readBody(req));
    const returnUrl = safeReturnUrl(form.get('return_url'));
    const card = (form.get('card_number') ?? '').replace(/[\s-]/g, '');
    // Stripe refuses to confirm an intent that succeeded or was cancelled: no charge, no webhook.
    if (intent.status === 'succeeded' || intent.status === 'canceled') return html(409, cardPage(intent, returnUrl, null));
    if (card !== SUCCEEDING_CARD && card !== DECLINED_CARD) {
      return html(422, cardPage(intent, returnUrl, 'Use a test card: 4242 4242 4242 4242 (pays) or 4000 0000 0000 0002 (declined).'));
    }
    const succeeded = card === SUCCEEDING_CARD;
    if (succeeded) {
      Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: rid('ch'), last_payment_error: null });
      await sendEvent('payment_intent.succeeded', { ...intent });
    } else {
      Object.assign(intent, { status: 'requires_payment_method', last_payment_error: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' } });
      await sendEvent('payment_intent.payment_failed', { ...intent });
    }
    if (!returnUrl) return html(200, cardPage(intent, null, succeeded ? null : 'Your card was declined.'));
    const back = new URL(returnUrl);
    back.searchParams.set('payment_intent', intent.id);
    back.searchParams.set('redirect_status', succeeded ? 'succeeded' : 'failed');
    res.writeHead(303, { Location: back.toString() });
    res.end();
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const pay = /^\/pay\/([\w]+)$/.exec(url.pathname);
    const work = url.pathname.startsWith('/v1/') ? api(req, res, url.pathname)
      : pay && (req.method === 'GET' || req.method === 'POST') ? payPage(req, res, url, pay[1])
      : Promise.resolve(stripeError(res, 404, 'Not found'));
    work.catch((err) => {
      if (!res.headersSent) stripeError(res, 400, (err as Error).message);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port ?? 0;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    calls,
    deliveries,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    setOutage(down) {
      outage = down;
    },
    async settled() {
      await Promise.allSettled([...pending]);
    },
    async retryWebhooks() {
      await Promise.allSettled([...pending]);
      for (const delivery of deliveries) {
        if (delivery.status === null || delivery.status < 200 || delivery.status >= 300) await deliver(delivery);
      }
    },
    async close() {
      await Promise.allSettled([...pending]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
