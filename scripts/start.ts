/**
 * `npm start`: finds or starts PostgreSQL and Redis, starts the SMTP catcher unless SMTP_HOST is
 * set, the local Stripe stand-in unless STRIPE_SECRET_KEY is set and the local Twilio stand-in
 * unless TWILIO_ACCOUNT_SID is set, migrates, loads the demo data, builds the SPA when its sources are newer than the bundle, starts the API,
 * the worker and the HL7 orders listener, and prints the URL and the demo logins.
 *
 * It is the demo and development command, and it starts whatever NODE_ENV says: it always runs with
 * development settings (dev secrets, demo users, plain-HTTP cookies), saying so when NODE_ENV asked
 * for something else. Production starts its processes itself (`npm run serve:api`,
 * `npm run serve:worker`: README "Running it in production"), and those refuse the dev secrets.
 */
import path from 'node:path';
import { connect, createMigrator } from '@platform/db';
import { startApi } from '@platform/api';
import { loadConfig, SMS_INBOUND_PATH } from '@platform/server';
import { startHl7Listener, startWorker } from '@platform/worker';
import { findPostgres, findRedis, listenPreferring } from './local-services';
import { startMailCatcher, type MailCatcher } from './mail-catcher';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';
import { startShippingStandIn, type ShippingStandIn } from './shipping-stand-in';
import { startTwilioStandIn, type TwilioStandIn } from './twilio-stand-in';
import { PAYMENT_WEBHOOK_PATH } from '@platform/domain';
import { seedDemoData } from './seed';
import { DEMO_PASSWORD, DEMO_USERS } from './demo-users';
import { buildWeb, webBuildIsStale } from './web-build';

const ROOT = path.resolve(import.meta.dirname, '..');
/** How often a parcel of the local shipping stand-in moves on (its carrier's next scan). */
const STAND_IN_PARCEL_STEP_MS = 30_000;
const WEB_DIST = path.join(ROOT, 'web/dist');

/** npm start runs the demo: NODE_ENV is development (or test, under the test runner) whatever it was. */
function demoEnvironment(): void {
  const asked = process.env.NODE_ENV;
  if (asked === undefined || asked === 'development' || asked === 'test') return;
  console.warn(
    `NODE_ENV=${asked}, but \`npm start\` is the local demo: it runs with development settings (dev secrets, demo users, a local mail catcher).\n` +
      'To run in production start the processes as README.md "Running it in production" says (npm run serve:api, npm run serve:worker); they refuse the dev secrets.',
  );
  process.env.NODE_ENV = 'development';
}

async function main() {
  demoEnvironment();
  const postgres = await findPostgres();
  const redis = await findRedis();
  process.env.DATABASE_URL = postgres.url;
  process.env.REDIS_URL = redis.url;

  const db = connect(postgres.url);
  try {
    const applied = await createMigrator(db.sequelize).up();
    if (applied.length) console.log(`Applied ${applied.length} migration(s).`);
    const { created } = await seedDemoData(db);
    if (created) console.log('Loaded the demo data.');
  } finally {
    await db.close();
  }

  let catcher: MailCatcher | null = null;
  if (!process.env.SMTP_HOST) {
    catcher = await listenPreferring((port) => startMailCatcher({ databaseUrl: postgres.url, port }), 2525);
    process.env.SMTP_PORT = String(catcher.port);
  }

  // Without Stripe keys, card payments go to the local stand-in: it listens now and stripe-node is
  // pointed at it; its webhooks go to the API once the API answers.
  const stripe: StripeStandIn | null = process.env.STRIPE_SECRET_KEY
    ? null
    : await listenPreferring((port) => startStripeStandIn({ port, webhookSecret: loadConfig(process.env, { webDist: WEB_DIST }).stripe.webhookSecret }), 12111);
  if (stripe) process.env.STRIPE_API_URL = stripe.url;

  // Without a shipping API key, rates, labels and tracking come from the local shipping stand-in: its
  // parcels move on by themselves (accepted, in transit, delivered), a signed webhook at each scan.
  const shippingSettings = loadConfig(process.env, { webDist: WEB_DIST });
  const shipping: ShippingStandIn | null = process.env.SHIPPING_API_KEY
    ? null
    : await listenPreferring((port) => startShippingStandIn({
      port, apiKey: shippingSettings.shipping.apiKey, webhookSecret: shippingSettings.shippingWebhookSecret, autoAdvanceMs: STAND_IN_PARCEL_STEP_MS,
    }), 12113);
  if (shipping) process.env.SHIPPING_API_URL = shipping.url;

  // Without Twilio credentials, texts go to the local stand-in (its page lists them and replies STOP).
  const smsSettings = loadConfig(process.env, { webDist: WEB_DIST }).sms;
  const twilio: TwilioStandIn | null = process.env.TWILIO_ACCOUNT_SID
    ? null
    : await listenPreferring((port) => startTwilioStandIn({ port, accountSid: smsSettings.accountSid, authToken: smsSettings.authToken, ourNumber: smsSettings.from }), 12112);
  if (twilio) process.env.TWILIO_API_URL = twilio.url;

  if (webBuildIsStale(ROOT, WEB_DIST)) {
    console.log('Building the web app (its sources changed since the last build, or it was never built)…');
    buildWeb(ROOT, WEB_DIST);
  }

  const config = loadConfig(process.env, { webDist: WEB_DIST });
  const worker = await startWorker(config);
  // HL7 orders (ORM^O01) over MLLP: HL7_PORT, else 2575 (HL7's port) when free, else any free one.
  const hl7 = process.env.HL7_PORT ? await startHl7Listener(config) : await listenPreferring((port) => startHl7Listener(config, port), config.hl7Port);
  const api = await startApi(config, process.env.HOST ?? '127.0.0.1');
  stripe?.setWebhookUrl(`${api.url}/api/webhooks${PAYMENT_WEBHOOK_PATH}`);
  shipping?.setWebhookBase(`${api.url}/api/webhooks/shipping-service`);
  // Signed over the URL the API checks: PUBLIC_URL's.
  twilio?.setWebhookUrl(`${config.publicUrl}/api/webhooks${SMS_INBOUND_PATH}`);

  const width = Math.max(...Object.values(DEMO_USERS).map((u) => u.email.length));
  // One origin everywhere: the address printed is the one emailed links and payment returns use
  // (PUBLIC_URL), so a patient who starts there comes back to the same browser storage.
  const url = config.publicUrl;
  console.log(`
${config.brand} Platform is running at ${url}
  PostgreSQL: ${postgres.source}
  Redis:      ${redis.source}
  Email:      ${catcher ? `caught locally on SMTP port ${catcher.port} (stored in the caught_mail table)` : `SMTP ${config.smtp.host}:${config.smtp.port}`}
  Payments:   ${stripe ? `local Stripe stand-in at ${stripe.url} (test card 4242 4242 4242 4242)` : 'Stripe (STRIPE_SECRET_KEY is set)'}
  Shipping:   ${shipping ? `local shipping stand-in at ${shipping.url} (test labels; parcels move every ${STAND_IN_PARCEL_STEP_MS / 1000} s)` : `${shippingSettings.shipping.apiUrl} (SHIPPING_API_KEY is set)`}
  Texts:      ${twilio ? `local Twilio stand-in at ${twilio.url} (lists the texts sent; reply STOP there)` : 'Twilio (TWILIO_ACCOUNT_SID is set)'}
  HL7 orders: MLLP on ${config.hl7Host}:${hl7.port} (ORM^O01 from an account's EHR: Administration → HL7 interfaces)

Demo logins (password: ${DEMO_PASSWORD})
${Object.entries(DEMO_USERS).map(([key, u]) => `  ${u.email.padEnd(width)}  ${key}`).join('\n')}
  Admin: ${url}/admin/login   Clinic: ${url}/provider/login   Research: ${url}/provider-research/login   Lab: ${url}/lab_toolbox/login
  Admins and lab users set up a second factor (an authenticator app or a passkey) at their first sign-in.
`);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    await api.stop();
    await hl7.close();
    await worker.close();
    await stripe?.close();
    await shipping?.close();
    await twilio?.close();
    await catcher?.close();
    await redis.stop();
    await postgres.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(`Could not start: ${(err as Error).message}`);
  process.exit(1);
});
