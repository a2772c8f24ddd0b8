/**
 * Kit shipments in tests, started the way `npm start` starts them: the local shipping stand-in
 * (scripts/shipping-stand-in.ts) on 127.0.0.1, the product's shipping client pointed at it through
 * SHIPPING_API_URL and SHIPPING_API_KEY, and the real API listening on a port of its own so the
 * stand-in's signed webhooks reach it; for browser tests, a browser suite whose API does the same.
 * Parcels move only when a test calls standIn.advance().
 */
import { randomBytes } from 'node:crypto';
import { startShippingStandIn, type ShippingStandIn } from '../../scripts/shipping-stand-in';
import { browserSuite, type BrowserSuite, type BrowserSuiteOptions } from './browser';
import { buildTestApp, listenOnLoopback, type TestApp } from './http';

const WEBHOOKS = '/api/webhooks/shipping-service';

function shippingEnv(standIn: ShippingStandIn, webhookSecret: string): Record<string, string> {
  return { SHIPPING_API_URL: standIn.url, SHIPPING_API_KEY: standIn.apiKey, SHIPPING_WEBHOOK_SECRET: webhookSecret };
}

async function newStandIn(): Promise<{ standIn: ShippingStandIn; webhookSecret: string }> {
  const webhookSecret = `shipping-test-secret-${randomBytes(12).toString('hex')}`;
  const standIn = await startShippingStandIn({ webhookSecret, apiKey: `test-shipping-key-${randomBytes(8).toString('hex')}` });
  return { standIn, webhookSecret };
}

export interface ShippingStack {
  t: TestApp;
  standIn: ShippingStandIn;
  webhookSecret: string;
  close(): Promise<void>;
}

export async function startShippingStack(overrides: Record<string, string> = {}): Promise<ShippingStack> {
  const { standIn, webhookSecret } = await newStandIn();
  const t = await buildTestApp({ ...shippingEnv(standIn, webhookSecret), ...overrides });
  const { baseUrl, close } = await listenOnLoopback(t.app);
  standIn.setWebhookBase(`${baseUrl}${WEBHOOKS}`);
  return {
    t, standIn, webhookSecret,
    async close() {
      await standIn.close();
      await close();
      await t.close();
    },
  };
}

/** A browser suite (browserSuite) whose API buys labels from the stand-in and takes its webhooks. Called inside describe(). */
export function shippingBrowserSuite(options: Omit<BrowserSuiteOptions, 'serverEnv'> = {}): { suite: BrowserSuite; standIn: () => ShippingStandIn } {
  let stack: { standIn: ShippingStandIn; webhookSecret: string } | undefined;
  before(async () => {
    stack = await newStandIn();
  });
  after(async () => {
    await stack?.standIn.close();
  });
  const suite = browserSuite({ ...options, serverEnv: () => shippingEnv(stack!.standIn, stack!.webhookSecret) });
  before(() => {
    stack!.standIn.setWebhookBase(`${suite.baseUrl}${WEBHOOKS}`);
  });
  return {
    suite,
    standIn: () => {
      if (!stack) throw new Error('the shipping stand-in is not running (use it inside tests and hooks)');
      return stack.standIn;
    },
  };
}
