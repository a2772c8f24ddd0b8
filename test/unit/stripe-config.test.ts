/** Stripe in configuration: obviously-dev defaults for the local stand-in, production refusing them. */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { DEV_STRIPE, loadConfig } from '@platform/server';

const hex = () => randomBytes(8).toString('hex');
const PRODUCTION = {
  NODE_ENV: 'production',
  SESSION_SECRET: `test-only-${hex()}${hex()}`,
  SECURE_COOKIES: 'true',
  SHIPPING_WEBHOOK_SECRET: `test-only-${hex()}${hex()}`,
  SHIPPING_API_KEY: `test-only-${hex()}${hex()}`,
  TWILIO_ACCOUNT_SID: `AC${hex()}${hex()}`,
  TWILIO_AUTH_TOKEN: `test-only-${hex()}${hex()}`,
  TWILIO_FROM: '+14155550199',
  MFA_SECRET_KEY: `test-only-${hex()}${hex()}${hex()}`,
  LAB_NAME: 'Harbor Genomics Laboratory', LAB_ADDRESS: '400 Pier Road, Bayport, CA 94000', LAB_CLIA_NUMBER: '05D2345678', LAB_DIRECTOR: 'Ines Okafor, MD',
  LAB_PHONE: '+1 (415) 555-0142', LAB_EMAIL: 'results@harbor-genomics.example', LAB_TIME_ZONE: 'America/Los_Angeles',
};
const KEYS = { STRIPE_SECRET_KEY: `sk_test_testonly${hex()}`, STRIPE_PUBLISHABLE_KEY: `pk_test_testonly${hex()}`, STRIPE_WEBHOOK_SECRET: `whsec_testonly${hex()}` };

describe('configuration: Stripe', () => {
  it('defaults to dev-only keys and no API URL (stripe-node talks to Stripe unless STRIPE_API_URL says otherwise)', () => {
    const { stripe } = loadConfig({ NODE_ENV: 'development' });
    expect(stripe).to.deep.equal({ ...DEV_STRIPE, apiUrl: null });
    expect(stripe.secretKey).to.match(/dev_only/);
    expect(loadConfig({ NODE_ENV: 'development', STRIPE_API_URL: 'http://127.0.0.1:12111' }).stripe.apiUrl).to.equal('http://127.0.0.1:12111');
  });

  it('refuses keys of the wrong kind, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'development', STRIPE_SECRET_KEY: 'pk_test_abc' })).to.throw(/STRIPE_SECRET_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'development', STRIPE_WEBHOOK_SECRET: 'secret' })).to.throw(/STRIPE_WEBHOOK_SECRET/);
  });

  it('in production refuses every dev key left, naming each', () => {
    expect(() => loadConfig(PRODUCTION)).to.throw('Invalid configuration: STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET must be set in production');
    expect(() => loadConfig({ ...PRODUCTION, ...KEYS, STRIPE_WEBHOOK_SECRET: DEV_STRIPE.webhookSecret })).to.throw(/^Invalid configuration: STRIPE_WEBHOOK_SECRET must be set/);
    expect(loadConfig({ ...PRODUCTION, ...KEYS }).stripe.secretKey).to.equal(KEYS.STRIPE_SECRET_KEY);
  });
});
