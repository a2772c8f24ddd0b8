/** The laboratory's identity in configuration: obviously-dev defaults, a CLIA number's form, and production refusing the placeholders. */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { DEV_LAB, loadConfig } from '@platform/server';

const PRODUCTION = {
  NODE_ENV: 'production',
  SESSION_SECRET: `test-only-${randomBytes(16).toString('hex')}`,
  SECURE_COOKIES: 'true',
  SHIPPING_WEBHOOK_SECRET: `test-only-${randomBytes(16).toString('hex')}`,
  SHIPPING_API_KEY: `test-only-${randomBytes(16).toString('hex')}`,
  TWILIO_ACCOUNT_SID: `AC${randomBytes(16).toString('hex')}`,
  TWILIO_AUTH_TOKEN: `test-only-${randomBytes(16).toString('hex')}`,
  TWILIO_FROM: '+14155550199',
  MFA_SECRET_KEY: `test-only-${randomBytes(24).toString('hex')}`,
  STRIPE_SECRET_KEY: `sk_test_testonly${randomBytes(8).toString('hex')}`,
  STRIPE_PUBLISHABLE_KEY: `pk_test_testonly${randomBytes(8).toString('hex')}`,
  STRIPE_WEBHOOK_SECRET: `whsec_testonly${randomBytes(8).toString('hex')}`,
  LAB_TIME_ZONE: 'America/Chicago',
};
const REAL_LAB = { LAB_NAME: 'Harbor Genomics Laboratory', LAB_ADDRESS: '400 Pier Road, Bayport, CA 94000', LAB_CLIA_NUMBER: '05D2345678', LAB_DIRECTOR: 'Ines Okafor, MD', LAB_PHONE: '+1 (415) 555-0142', LAB_EMAIL: 'results@harbor-genomics.example' };

describe('configuration: the performing laboratory', () => {
  it('defaults to placeholders no one would take for a real laboratory', () => {
    const { lab } = loadConfig({ NODE_ENV: 'development' });
    expect(lab).to.deep.equal(DEV_LAB);
    expect(lab.name).to.match(/not for clinical use/);
    expect(lab.cliaNumber).to.equal('00D0000000');
  });

  it('reads LAB_NAME, LAB_ADDRESS, LAB_CLIA_NUMBER, LAB_DIRECTOR, LAB_PHONE and LAB_EMAIL', () => {
    expect(loadConfig({ NODE_ENV: 'development', ...REAL_LAB }).lab).to.deep.equal({
      name: REAL_LAB.LAB_NAME, address: REAL_LAB.LAB_ADDRESS, cliaNumber: REAL_LAB.LAB_CLIA_NUMBER, director: REAL_LAB.LAB_DIRECTOR,
      phone: REAL_LAB.LAB_PHONE, email: REAL_LAB.LAB_EMAIL,
    });
  });

  it('refuses a lab telephone or email address that is not one, naming the variable', () => {
    expect(() => loadConfig({ NODE_ENV: 'development', LAB_PHONE: 'call us' })).to.throw(/LAB_PHONE.*telephone number/);
    expect(() => loadConfig({ NODE_ENV: 'development', LAB_EMAIL: 'lab at example' })).to.throw(/LAB_EMAIL.*valid email/);
  });

  it('refuses a CLIA number that is not two digits, D, seven digits, naming the variable', () => {
    for (const bad of ['05-2345678', '5D2345678', '05d2345678', '05D23456789']) {
      expect(() => loadConfig({ NODE_ENV: 'development', LAB_CLIA_NUMBER: bad }), bad).to.throw(/LAB_CLIA_NUMBER.*two digits, D, seven digits/);
    }
  });

  it('in production refuses to start with any placeholder, naming each one left', () => {
    expect(() => loadConfig({ ...PRODUCTION })).to.throw('LAB_NAME, LAB_ADDRESS, LAB_CLIA_NUMBER, LAB_DIRECTOR, LAB_PHONE, LAB_EMAIL must be set in production');
    expect(() => loadConfig({ ...PRODUCTION, ...REAL_LAB, LAB_DIRECTOR: DEV_LAB.director })).to.throw(/^Invalid configuration: LAB_DIRECTOR must be set/);
    expect(loadConfig({ ...PRODUCTION, ...REAL_LAB }).lab.cliaNumber).to.equal('05D2345678');
  });
});
