/**
 * The one stripe-node client of a configuration. With STRIPE_API_URL set (the local stand-in of
 * `npm start` and the tests) its calls go there instead of api.stripe.com; the code path is the
 * same either way.
 */
import Stripe from 'stripe';
import type { StripeConfig } from '../config';

export type StripeEvent = Stripe.Event;
export type StripePaymentIntent = Stripe.PaymentIntent;

const clients = new WeakMap<StripeConfig, Stripe>();

/** Built once per configuration and kept (stripe-node keeps its own connection pool). */
export function stripeClient(config: { stripe: StripeConfig }): Stripe {
  const existing = clients.get(config.stripe);
  if (existing) return existing;
  const options: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'platform' } };
  if (config.stripe.apiUrl) {
    const url = new URL(config.stripe.apiUrl);
    Object.assign(options, {
      host: url.hostname,
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      protocol: url.protocol.replace(':', '') as 'http' | 'https',
    });
  }
  const client = new Stripe(config.stripe.secretKey, options);
  clients.set(config.stripe, client);
  return client;
}

/** Verifies a webhook's Stripe-Signature on the raw body (throws on a bad or stale signature). */
export function verifyPaymentEvent(config: { stripe: StripeConfig }, rawBody: Buffer, signature: string, toleranceSeconds: number, now = Date.now()): Stripe.Event {
  const event = Stripe.webhooks.constructEvent(rawBody, signature, config.stripe.webhookSecret, toleranceSeconds);
  // Stripe's own check refuses only signatures too old: one stamped later than the tolerance ahead of
  // now is refused too (a signature made in advance must not outlive its window).
  const stamped = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
  if (!(stamped * 1000 <= now + toleranceSeconds * 1000)) throw new Error('The signature timestamp is in the future');
  return event;
}

/** Signs a payload as Stripe does (the stand-in's webhooks and the tests' forged or replayed ones). */
export function signPaymentEvent(secret: string, payload: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
}
