/**
 * Every setting, read and validated once at start. Dev defaults are obviously dev; production
 * must set SESSION_SECRET and MFA_SECRET_KEY (start refuses the dev ones when NODE_ENV=production),
 * and LAB_TIME_ZONE (it has no default there).
 */
import path from 'node:path';
import Joi from 'joi';
import {
  acceptanceProblem, DEFAULT_EXTRACTION_ACCEPTANCE, isLabTimeZone, DEFAULT_HL7_RETRY_BASE_MS, DEFAULT_WEBHOOK_RETRY_BASE_MS, HL7_ACK_TIMEOUT_MS, HL7_ATTEMPTS, type ExtractionAcceptance,
} from '@platform/domain';
import { parseLabAddress, type PostalAddress } from '@platform/domain';

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  publicUrl: string;
  brand: string;
  buildId: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  sessionSecret: string;
  /** The key two-factor secrets are encrypted with (AES-256-GCM; MFA_SECRET_KEY). */
  mfaSecretKey: string;
  secureCookies: boolean;
  /** Express's 'trust proxy': which proxies' X-Forwarded-* headers to believe (addresses, 'loopback', a hop count). */
  /** Express's `trust proxy`: false (the default) believes no X-Forwarded-For. */
  trustProxy: string | number | false;
  smtp: { host: string; port: number; secure: boolean; user?: string; pass?: string; from: string };
  logLevel: string;
  webDist: string | null;
  outboxSweepMs: number;
  outboxStaleMs: number;
  workerConcurrency: number;
  workerLockMs: number;
  /** Shared secret the shipping service signs its webhooks with. */
  shippingWebhookSecret: string;
  /** The first back-off of a failed result webhook (doubling for WEBHOOK_ATTEMPTS tries: about a day at the default). */
  webhookRetryBaseMs: number;
  /** The first back-off of an HL7 message not acknowledged (doubling for each of its attempts: about a day at the defaults). */
  hl7RetryBaseMs: number;
  /** Attempts of one HL7 message before it is Failed (HL7_ATTEMPTS, 12, unless set). */
  hl7Attempts: number;
  /** How long an HL7 receiver has to acknowledge a message (HL7_ACK_TIMEOUT_MS, 30 s, unless set). */
  hl7AckTimeoutMs: number;
  /** Where the HL7 orders listener takes ORM^O01 over MLLP (HL7_HOST, HL7_PORT; 2575 is HL7's registered port). */
  hl7Host: string;
  hl7Port: number;
  /**
   * The folder public health's daily ELR batch files are written under (ELR_BATCH_ROOT; .data/elr
   * in the working folder unless set): the admin chooses a folder inside it, never a place outside.
   */
  elrBatchRoot: string;
  /** The performing laboratory, as every lab report names it (42 CFR 493.1291(c)). */
  lab: LabIdentity;
  /**
   * The lab's time zone (LAB_TIME_ZONE, an IANA name): how every instant reads on reports, labels,
   * emails and pages, and the zone days, weeks, months and due dates are counted in (docs/lab-time-zone.md).
   */
  labTimeZone: string;
  /** The lab's acceptance range of a DNA extraction (defaults: DEFAULT_EXTRACTION_ACCEPTANCE of domain). */
  extractionAcceptance: ExtractionAcceptance;
  /** Card payments of patient orders (server/src/payments). */
  stripe: StripeConfig;
  /** Kit shipments' rates, labels and tracking (server/src/shipments; docs/shipping.md). */
  shipping: ShippingConfig;
  /** Text messages to patients through Twilio (server/src/sms; docs/sms.md). */
  sms: SmsConfig;
}

export interface SmsConfig {
  /** Twilio's account SID (AC…) and auth token; the token also checks the inbound webhook's X-Twilio-Signature. */
  accountSid: string;
  authToken: string;
  /** The sender: a Twilio phone number (E.164) or a Messaging Service SID (MG…). */
  from: string;
  /** Where the twilio client sends its calls instead of api.twilio.com (the local stand-in); null for Twilio itself. */
  apiUrl: string | null;
}

/** Obviously not real credentials: `npm start` and the tests use them with the local stand-in; production refuses them. */
export const DEV_SMS: Omit<SmsConfig, 'apiUrl'> = {
  accountSid: 'ACdevonlylocalstandin0000000000000',
  authToken: 'dev-only-twilio-auth-token-local-stand-in',
  from: '+15005550006',
};

export interface ShippingConfig {
  /** The shipping service's API key (sent as API-Key). */
  apiKey: string;
  /** The service's base URL: ShipStation's API, or the local stand-in. */
  apiUrl: string;
  /** The service's carrier ids rates are asked from (empty: the service's own default). */
  carrierIds: string[];
  /** Kits going to the lab are addressed here: LAB_ADDRESS read as "street, city, ST 12345" (null when it does not read so). */
  labAddress: PostalAddress | null;
}

/** Obviously not a real key: `npm start` and the tests use it with the local stand-in; production refuses it. */
export const DEV_SHIPPING_API_KEY = 'dev-only-shipping-api-key';
/** ShipStation's API (its v2 paths are /v2/rates, /v2/labels...). */
export const SHIPSTATION_API_URL = 'https://api.shipstation.com';

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  /** The signing secret of the payment-provider webhook (whsec_…). */
  webhookSecret: string;
  /** Where stripe-node sends its calls instead of api.stripe.com (the local stand-in); null for Stripe itself. */
  apiUrl: string | null;
}

/** Obviously not real keys: `npm start` and the tests use them with the local stand-in; production refuses them. */
export const DEV_STRIPE: Omit<StripeConfig, 'apiUrl'> = {
  secretKey: 'sk_test_dev_only_local_stand_in',
  publishableKey: 'pk_test_dev_only_local_stand_in',
  webhookSecret: 'whsec_dev_only_local_stand_in',
};

export interface LabIdentity {
  name: string;
  address: string;
  /** The CLIA certificate number: two digits, D, seven digits. */
  cliaNumber: string;
  director: string;
  /** Where a patient or a clinic calls and writes with a question about a result (result page, patient emails). */
  phone: string;
  email: string;
}

/** Obviously not a real laboratory: production must name its own (start refuses these there). */
export const DEV_LAB: LabIdentity = {
  name: 'Development Laboratory (not for clinical use)',
  address: '123 Example Street, Testville, ZZ 00000',
  cliaNumber: '00D0000000',
  director: 'Dev Director, MD (placeholder)',
  phone: '(555) 010-0000',
  email: 'lab@platform.test',
};

/**
 * The zone `npm start` and the tests use when LAB_TIME_ZONE is not set: not UTC on purpose, so a
 * test tells the lab's zone from a container's. Production refuses to start without its own.
 */
export const DEV_LAB_TIME_ZONE = 'America/New_York';

const DEV_SESSION_SECRET = 'dev-only-session-secret-change-me';
const DEV_SHIPPING_SECRET = 'dev-only-shipping-webhook-secret';
const DEV_MFA_SECRET_KEY = 'dev-only-mfa-secret-key-change-me';

const schema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'test', 'production').default('development'),
  PORT: Joi.number().port().default(3000),
  PUBLIC_URL: Joi.string().uri().optional(),
  BRAND: Joi.string().default('Prostox'),
  BUILD_ID: Joi.string().optional(),
  DATABASE_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }).default('postgres://postgres@127.0.0.1:5432/platform'),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }).default('redis://127.0.0.1:6379'),
  REDIS_PREFIX: Joi.string().pattern(/^[\w-]+$/).default('platform'),
  SESSION_SECRET: Joi.string().min(16).default(DEV_SESSION_SECRET),
  MFA_SECRET_KEY: Joi.string().min(32).default(DEV_MFA_SECRET_KEY),
  SECURE_COOKIES: Joi.boolean().default(false),
  TRUST_PROXY: Joi.string().allow('').default(''),
  SMTP_HOST: Joi.string().default('127.0.0.1'),
  SMTP_PORT: Joi.number().port().default(2525),
  SMTP_SECURE: Joi.boolean().default(false),
  SMTP_USER: Joi.string().optional(),
  SMTP_PASS: Joi.string().optional(),
  MAIL_FROM: Joi.string().default('Platform <no-reply@platform.test>'),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  WEB_DIST: Joi.string().optional(),
  OUTBOX_SWEEP_MS: Joi.number().integer().min(100).default(2000),
  OUTBOX_STALE_MS: Joi.number().integer().min(0).default(5000),
  WORKER_CONCURRENCY: Joi.number().integer().min(1).default(50),
  WORKER_LOCK_MS: Joi.number().integer().min(1000).default(30000),
  SHIPPING_WEBHOOK_SECRET: Joi.string().min(16).default(DEV_SHIPPING_SECRET),
  WEBHOOK_RETRY_BASE_MS: Joi.number().integer().min(100).default(DEFAULT_WEBHOOK_RETRY_BASE_MS),
  HL7_RETRY_BASE_MS: Joi.number().integer().min(100).default(DEFAULT_HL7_RETRY_BASE_MS),
  HL7_ATTEMPTS: Joi.number().integer().min(1).max(50).default(HL7_ATTEMPTS),
  HL7_ACK_TIMEOUT_MS: Joi.number().integer().min(100).max(300_000).default(HL7_ACK_TIMEOUT_MS),
  HL7_HOST: Joi.string().trim().default('127.0.0.1'),
  HL7_PORT: Joi.number().integer().min(0).max(65535).default(2575),
  ELR_BATCH_ROOT: Joi.string().trim().optional(),
  LAB_NAME: Joi.string().trim().max(200).default(DEV_LAB.name),
  LAB_ADDRESS: Joi.string().trim().max(300).default(DEV_LAB.address),
  LAB_CLIA_NUMBER: Joi.string().trim().pattern(/^\d{2}D\d{7}$/).default(DEV_LAB.cliaNumber)
    .messages({ 'string.pattern.base': '"LAB_CLIA_NUMBER" must be a CLIA number: two digits, D, seven digits (e.g. 05D1234567)' }),
  LAB_DIRECTOR: Joi.string().trim().max(200).default(DEV_LAB.director),
  LAB_PHONE: Joi.string().trim().max(40).pattern(/^[+\d][\d ().-]{6,}$/).default(DEV_LAB.phone)
    .messages({ 'string.pattern.base': '"LAB_PHONE" must be a telephone number (digits, spaces, ( ) . - and a leading +)' }),
  LAB_EMAIL: Joi.string().trim().email({ tlds: false }).default(DEV_LAB.email),
  LAB_TIME_ZONE: Joi.string().trim().optional(),
  EXTRACTION_MIN_CONCENTRATION: Joi.number().min(0).default(DEFAULT_EXTRACTION_ACCEPTANCE.minConcentration),
  EXTRACTION_MIN_A260_280: Joi.number().min(0).default(DEFAULT_EXTRACTION_ACCEPTANCE.minA260280),
  EXTRACTION_MAX_A260_280: Joi.number().positive().default(DEFAULT_EXTRACTION_ACCEPTANCE.maxA260280),
  EXTRACTION_MIN_VOLUME: Joi.number().min(0).default(DEFAULT_EXTRACTION_ACCEPTANCE.minVolume),
  STRIPE_SECRET_KEY: Joi.string().pattern(/^(sk|rk)_(test|live)_\w+$/).default(DEV_STRIPE.secretKey),
  STRIPE_PUBLISHABLE_KEY: Joi.string().pattern(/^pk_(test|live)_\w+$/).default(DEV_STRIPE.publishableKey),
  STRIPE_WEBHOOK_SECRET: Joi.string().pattern(/^whsec_\w+$/).default(DEV_STRIPE.webhookSecret),
  STRIPE_API_URL: Joi.string().uri({ scheme: ['http', 'https'] }).optional(),
  SHIPPING_API_KEY: Joi.string().trim().min(8).default(DEV_SHIPPING_API_KEY),
  SHIPPING_API_URL: Joi.string().uri({ scheme: ['http', 'https'] }).default(SHIPSTATION_API_URL),
  SHIPPING_CARRIER_IDS: Joi.string().trim().allow('').default(''),
  TWILIO_ACCOUNT_SID: Joi.string().pattern(/^AC\w{32}$/).default(DEV_SMS.accountSid)
    .messages({ 'string.pattern.base': '"TWILIO_ACCOUNT_SID" must be a Twilio account SID (AC and 32 characters)' }),
  TWILIO_AUTH_TOKEN: Joi.string().min(16).default(DEV_SMS.authToken),
  TWILIO_FROM: Joi.string().pattern(/^(\+[1-9]\d{7,14}|MG\w{32})$/).default(DEV_SMS.from)
    .messages({ 'string.pattern.base': '"TWILIO_FROM" must be a phone number in E.164 (+15551234567) or a Messaging Service SID (MG…)' }),
  TWILIO_API_URL: Joi.string().uri({ scheme: ['http', 'https'] }).optional(),
}).unknown(true);

/** The shipping settings; production needs a real key and a LAB_ADDRESS a carrier label can be addressed to. */
function shippingConfig(v: Record<string, string>): ShippingConfig {
  const shipping: ShippingConfig = {
    apiKey: v.SHIPPING_API_KEY,
    apiUrl: v.SHIPPING_API_URL.replace(/\/$/, ''),
    carrierIds: v.SHIPPING_CARRIER_IDS.split(',').map((c) => c.trim()).filter(Boolean),
    labAddress: parseLabAddress(v.LAB_ADDRESS),
  };
  if (v.NODE_ENV === 'production' && shipping.apiKey === DEV_SHIPPING_API_KEY) {
    throw new Error('Invalid configuration: SHIPPING_API_KEY must be set in production');
  }
  if (v.NODE_ENV === 'production' && !shipping.labAddress) {
    throw new Error('Invalid configuration: LAB_ADDRESS must read "street, city, ST 12345" (kit labels are addressed to it)');
  }
  return shipping;
}

const STRIPE_ENV: Record<keyof typeof DEV_STRIPE, string> = { secretKey: 'STRIPE_SECRET_KEY', publishableKey: 'STRIPE_PUBLISHABLE_KEY', webhookSecret: 'STRIPE_WEBHOOK_SECRET' };

/** The Stripe settings; in production none of the dev values may remain. */
function stripeConfig(v: Record<string, string>): StripeConfig {
  const stripe: StripeConfig = { secretKey: v.STRIPE_SECRET_KEY, publishableKey: v.STRIPE_PUBLISHABLE_KEY, webhookSecret: v.STRIPE_WEBHOOK_SECRET, apiUrl: v.STRIPE_API_URL ?? null };
  const dev = (Object.keys(DEV_STRIPE) as (keyof typeof DEV_STRIPE)[]).filter((k) => stripe[k] === DEV_STRIPE[k]);
  if (v.NODE_ENV === 'production' && dev.length) {
    throw new Error(`Invalid configuration: ${dev.map((k) => STRIPE_ENV[k]).join(', ')} must be set in production`);
  }
  return stripe;
}

const SMS_ENV: Record<keyof typeof DEV_SMS, string> = { accountSid: 'TWILIO_ACCOUNT_SID', authToken: 'TWILIO_AUTH_TOKEN', from: 'TWILIO_FROM' };

/** The Twilio settings; in production none of the dev values may remain (texts would go to the stand-in's test numbers). */
function smsConfig(v: Record<string, string>): SmsConfig {
  const sms: SmsConfig = { accountSid: v.TWILIO_ACCOUNT_SID, authToken: v.TWILIO_AUTH_TOKEN, from: v.TWILIO_FROM, apiUrl: v.TWILIO_API_URL ?? null };
  const dev = (Object.keys(DEV_SMS) as (keyof typeof DEV_SMS)[]).filter((k) => sms[k] === DEV_SMS[k]);
  if (v.NODE_ENV === 'production' && dev.length) {
    throw new Error(`Invalid configuration: ${dev.map((k) => SMS_ENV[k]).join(', ')} must be set in production`);
  }
  return sms;
}

const LAB_ENV: Record<keyof LabIdentity, string> = {
  name: 'LAB_NAME', address: 'LAB_ADDRESS', cliaNumber: 'LAB_CLIA_NUMBER', director: 'LAB_DIRECTOR', phone: 'LAB_PHONE', email: 'LAB_EMAIL',
};

/** The laboratory's identity; in production every part must be set (a report must not carry the dev placeholders). */
function labIdentity(v: Record<string, string>): LabIdentity {
  const lab = Object.fromEntries((Object.keys(LAB_ENV) as (keyof LabIdentity)[]).map((k) => [k, v[LAB_ENV[k]]])) as unknown as LabIdentity;
  const placeholders = (Object.keys(DEV_LAB) as (keyof LabIdentity)[]).filter((k) => lab[k] === DEV_LAB[k]);
  if (v.NODE_ENV === 'production' && placeholders.length) {
    throw new Error(`Invalid configuration: ${placeholders.map((k) => LAB_ENV[k]).join(', ')} must be set in production (lab reports and patients' result pages print them)`);
  }
  return lab;
}

/** The lab's zone: an IANA name luxon knows; production names its own (no default there). */
function labTimeZone(v: Record<string, string | undefined>): string {
  const zone = v.LAB_TIME_ZONE;
  if (!zone) {
    if (v.NODE_ENV === 'production') throw new Error('Invalid configuration: LAB_TIME_ZONE must be set in production (an IANA time zone name such as America/New_York: reports, emails and pages print times in it)');
    return DEV_LAB_TIME_ZONE;
  }
  if (!isLabTimeZone(zone)) throw new Error(`Invalid configuration: LAB_TIME_ZONE "${zone}" is not an IANA time zone name (such as America/New_York or Europe/Berlin)`);
  return zone;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaults: { webDist?: string | null } = {}): Config {
  const { value: v, error } = schema.validate(env, { abortEarly: false, convert: true });
  if (error) throw new Error(`Invalid configuration: ${error.details.map((d) => d.message).join('; ')}`);
  if (v.NODE_ENV === 'production' && v.SESSION_SECRET === DEV_SESSION_SECRET) {
    throw new Error('Invalid configuration: SESSION_SECRET must be set in production');
  }
  if (v.NODE_ENV === 'production' && v.MFA_SECRET_KEY === DEV_MFA_SECRET_KEY) {
    throw new Error('Invalid configuration: MFA_SECRET_KEY must be set in production (two-factor secrets are encrypted with it)');
  }
  if (v.NODE_ENV === 'production' && !v.SECURE_COOKIES) {
    throw new Error('Invalid configuration: SECURE_COOKIES must be true in production (serve it behind TLS)');
  }
  if (v.NODE_ENV === 'production' && v.SHIPPING_WEBHOOK_SECRET === DEV_SHIPPING_SECRET) {
    throw new Error('Invalid configuration: SHIPPING_WEBHOOK_SECRET must be set in production');
  }
  const lab = labIdentity(v);
  const zone = labTimeZone(v);
  const stripe = stripeConfig(v);
  const shipping = shippingConfig(v);
  const sms = smsConfig(v);
  const extractionAcceptance: ExtractionAcceptance = {
    minConcentration: v.EXTRACTION_MIN_CONCENTRATION,
    minA260280: v.EXTRACTION_MIN_A260_280,
    maxA260280: v.EXTRACTION_MAX_A260_280,
    minVolume: v.EXTRACTION_MIN_VOLUME,
  };
  const rangeProblem = acceptanceProblem(extractionAcceptance);
  if (rangeProblem) throw new Error(`Invalid configuration: EXTRACTION_MIN_A260_280 / EXTRACTION_MAX_A260_280: ${rangeProblem}`);
  return {
    env: v.NODE_ENV,
    port: v.PORT,
    publicUrl: (v.PUBLIC_URL ?? `http://localhost:${v.PORT}`).replace(/\/$/, ''),
    brand: v.BRAND,
    buildId: v.BUILD_ID ?? `dev-${Date.now().toString(36)}`,
    databaseUrl: v.DATABASE_URL,
    redisUrl: v.REDIS_URL,
    redisPrefix: v.REDIS_PREFIX,
    sessionSecret: v.SESSION_SECRET,
    mfaSecretKey: v.MFA_SECRET_KEY,
    secureCookies: v.SECURE_COOKIES,
    trustProxy: v.TRUST_PROXY === '' ? false : /^\d+$/.test(v.TRUST_PROXY) ? Number(v.TRUST_PROXY) : v.TRUST_PROXY,
    smtp: { host: v.SMTP_HOST, port: v.SMTP_PORT, secure: v.SMTP_SECURE, user: v.SMTP_USER, pass: v.SMTP_PASS, from: v.MAIL_FROM },
    logLevel: v.LOG_LEVEL,
    webDist: v.WEB_DIST ?? defaults.webDist ?? null,
    outboxSweepMs: v.OUTBOX_SWEEP_MS,
    outboxStaleMs: v.OUTBOX_STALE_MS,
    workerConcurrency: v.WORKER_CONCURRENCY,
    workerLockMs: v.WORKER_LOCK_MS,
    shippingWebhookSecret: v.SHIPPING_WEBHOOK_SECRET,
    webhookRetryBaseMs: v.WEBHOOK_RETRY_BASE_MS,
    hl7RetryBaseMs: v.HL7_RETRY_BASE_MS,
    hl7Attempts: v.HL7_ATTEMPTS,
    hl7AckTimeoutMs: v.HL7_ACK_TIMEOUT_MS,
    hl7Host: v.HL7_HOST,
    hl7Port: v.HL7_PORT,
    elrBatchRoot: path.resolve(v.ELR_BATCH_ROOT ?? '.data/elr'),
    lab,
    labTimeZone: zone,
    extractionAcceptance,
    stripe,
    shipping,
    sms,
  };
}
