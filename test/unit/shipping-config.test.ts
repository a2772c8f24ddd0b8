/** The shipping service in configuration: a dev key for the local stand-in, ShipStation's URL, the lab's address read for labels, production refusing the dev key. */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { DEV_SHIPPING_API_KEY, SHIPSTATION_API_URL, loadConfig } from '@platform/server';
import { parseLabAddress } from '@platform/domain';

const hex = () => randomBytes(8).toString('hex');
const PRODUCTION = {
  NODE_ENV: 'production',
  SESSION_SECRET: `test-only-${hex()}${hex()}`,
  SECURE_COOKIES: 'true',
  SHIPPING_WEBHOOK_SECRET: `test-only-${hex()}${hex()}`,
  MFA_SECRET_KEY: `test-only-${hex()}${hex()}${hex()}`,
  LAB_NAME: 'Harbor Genomics Laboratory', LAB_ADDRESS: '400 Pier Road, Bayport, CA 94000', LAB_CLIA_NUMBER: '05D2345678', LAB_DIRECTOR: 'Ines Okafor, MD',
  LAB_PHONE: '+1 (415) 555-0142', LAB_EMAIL: 'results@harbor-genomics.example', LAB_TIME_ZONE: 'America/Los_Angeles',
  STRIPE_SECRET_KEY: `sk_test_testonly${hex()}`, STRIPE_PUBLISHABLE_KEY: `pk_test_testonly${hex()}`, STRIPE_WEBHOOK_SECRET: `whsec_testonly${hex()}`,
  TWILIO_ACCOUNT_SID: `AC${hex()}${hex()}`, TWILIO_AUTH_TOKEN: `test-only-${hex()}${hex()}`, TWILIO_FROM: '+14155550100',
};

describe('configuration: the shipping service', () => {
  it('defaults to a dev-only key and ShipStation\'s API, and reads the lab\'s address for the labels', () => {
    const { shipping } = loadConfig({ NODE_ENV: 'development' });
    expect(shipping).to.deep.equal({
      apiKey: DEV_SHIPPING_API_KEY, apiUrl: SHIPSTATION_API_URL, carrierIds: [],
      labAddress: { addressLine1: '123 Example Street', addressLine2: null, city: 'Testville', state: 'ZZ', postalCode: '00000', country: 'US' },
    });
    const local = loadConfig({ NODE_ENV: 'development', SHIPPING_API_URL: 'http://127.0.0.1:12113/', SHIPPING_CARRIER_IDS: 'se-123, se-456' }).shipping;
    expect(local).to.include({ apiUrl: 'http://127.0.0.1:12113' });
    expect(local.carrierIds).to.deep.equal(['se-123', 'se-456']);
  });

  it('reads LAB_ADDRESS as "street[, suite], city, ST 12345", and nothing else', () => {
    expect(parseLabAddress('400 Pier Road, Suite 9, Bayport, CA 94000-1234')).to.deep.equal({
      addressLine1: '400 Pier Road', addressLine2: 'Suite 9', city: 'Bayport', state: 'CA', postalCode: '94000-1234', country: 'US',
    });
    for (const bad of ['400 Pier Road Bayport CA 94000', '400 Pier Road, Bayport, California 94000', '400 Pier Road, Bayport, CA', 'a, b, c, d, CA 94000']) {
      expect(parseLabAddress(bad), bad).to.equal(null);
    }
  });

  it('in production refuses the dev key, and a LAB_ADDRESS no label can be addressed to', () => {
    expect(() => loadConfig({ ...PRODUCTION })).to.throw('Invalid configuration: SHIPPING_API_KEY must be set in production');
    const key = { SHIPPING_API_KEY: `test-only-${hex()}` };
    expect(() => loadConfig({ ...PRODUCTION, ...key, LAB_ADDRESS: '400 Pier Road in Bayport' })).to.throw('LAB_ADDRESS must read "street, city, ST 12345"');
    expect(loadConfig({ ...PRODUCTION, ...key }).shipping.labAddress).to.include({ city: 'Bayport', state: 'CA' });
  });
});
