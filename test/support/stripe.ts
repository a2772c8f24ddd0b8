/**
 * Card payments in tests, started the way `npm start` starts them: the local Stripe stand-in
 * (scripts/stripe-stand-in.ts) on 127.0.0.1, stripe-node pointed at it through STRIPE_API_URL,
 * and the real API listening on a port of its own so the stand-in's signed webhooks reach it;
 * for browser tests, a browser suite whose API does the same.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { PAYMENT_WEBHOOK_PATH } from '@platform/domain';
import { startStripeStandIn, type StripeStandIn } from '../../scripts/stripe-stand-in';
import { browserSuite, type BrowserSuite, type BrowserSuiteOptions } from './browser';
import { buildTestApp, listenOnLoopback, type TestApp } from './http';

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
  const { baseUrl, close } = await listenOnLoopback(t.app);
  standIn.setWebhookUrl(`${baseUrl}/api/webhooks${PAYMENT_WEBHOOK_PATH}`);
  return {
    t, standIn, baseUrl, env, webhookSecret,
    async close() {
      await standIn.close();
      await close();
      await t.close();
    },
  };
}

/** The calls stripe-node made to the stand-in for payment intents (creating or reading one). */
export const paymentIntentCalls = (standIn: StripeStandIn) => standIn.calls.filter((c) => c.path.startsWith('/v1/payment_intents'));

/** A port nothing listens on now (the API's, so its public URL, which Stripe returns to, is known before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * A browser suite (browserSuite) whose API takes card payments through the stand-in. Called
 * inside describe(): the stand-in runs before the API starts, so the API is configured with where
 * "Stripe" is, and the API listens on a known port so that its public URL (where the card page
 * returns to) is right; the stand-in's webhooks go to that API.
 */
export function paymentBrowserSuite(options: Omit<BrowserSuiteOptions, 'serverEnv'> = {}): { suite: BrowserSuite; standIn: () => StripeStandIn } {
  const webhookSecret = `whsec_testonly${randomBytes(12).toString('hex')}`;
  let standIn: StripeStandIn | undefined;
  let apiPort = 0;
  before(async () => {
    apiPort = await freePort();
    standIn = await startStripeStandIn({ webhookSecret });
  });
  after(async () => {
    await standIn?.close();
  });
  const suite = browserSuite({
    ...options,
    serverEnv: () => ({
      PORT: String(apiPort),
      PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
      STRIPE_API_URL: standIn!.url,
      STRIPE_SECRET_KEY: `sk_test_testonly${randomBytes(8).toString('hex')}`,
      STRIPE_PUBLISHABLE_KEY: `pk_test_testonly${randomBytes(8).toString('hex')}`,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
    }),
  });
  before(() => {
    standIn!.setWebhookUrl(`${suite.baseUrl}/api/webhooks${PAYMENT_WEBHOOK_PATH}`);
  });
  return {
    suite,
    standIn: () => {
      if (!standIn) throw new Error('the Stripe stand-in is not running (use it inside tests and hooks)');
      return standIn;
    },
  };
}
