/**
 * Card payments in tests, started the way `npm start` starts them: the local Stripe stand-in
 * (scripts/stripe-stand-in.ts) on 127.0.0.1, stripe-node pointed at it through STRIPE_API_URL,
 * and the real API listening on a port of its own so the stand-in's signed webhooks reach it.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { PAYMENT_WEBHOOK_PATH } from '@platform/domain';
import { startStripeStandIn, type StripeStandIn } from '../../scripts/stripe-stand-in';
import { buildTestApp, type TestApp } from './http';

export interface PaymentStack {
  t: TestApp;
  standIn: StripeStandIn;
  /** The API's own address (the webhooks go there). */
  baseUrl: string;
  /** What the API got; give the same to a test worker (the refund job calls Stripe too). */
  env: Record<string, string>;
  webhookSecret: string;
  close(): Promise<void>;
}

export async function startPaymentStack(overrides: Record<string, string> = {}): Promise<PaymentStack> {
  const webhookSecret = `whsec_testonly${randomBytes(12).toString('hex')}`;
  const standIn = await startStripeStandIn({ webhookSecret });
  const env = {
    STRIPE_SECRET_KEY: `sk_test_testonly${randomBytes(8).toString('hex')}`,
    STRIPE_PUBLISHABLE_KEY: `pk_test_testonly${randomBytes(8).toString('hex')}`,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: standIn.url,
    ...overrides,
  };
  const t = await buildTestApp(env);
  const server = await new Promise<Server>((resolve) => {
    const s = t.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const address = server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  standIn.setWebhookUrl(`${baseUrl}/api/webhooks${PAYMENT_WEBHOOK_PATH}`);
  return {
    t, standIn, baseUrl, env, webhookSecret,
    async close() {
      await standIn.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await t.close();
    },
  };
}

/** The calls stripe-node made to the stand-in for payment intents (creating or reading one). */
export const paymentIntentCalls = (standIn: StripeStandIn) => standIn.calls.filter((c) => c.path.startsWith('/v1/payment_intents'));
