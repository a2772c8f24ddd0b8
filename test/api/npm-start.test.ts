/**
 * `npm start` on the repo, run as a person runs it (npm start, its set-up step included): it comes up
 * whatever NODE_ENV says (it is the demo: always development settings, with a warning when asked
 * for production), serves the sign-in pages and lets the demo admin sign in. The production
 * process start (`npm run serve:api`) is the one that refuses the dev secrets, and starts once
 * they are set.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { createDatabase, dropDatabase } from '@platform/db';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';
import { signInOverHttp } from '../../scripts/second-step';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

interface Started {
  child: ChildProcess;
  output: () => string;
  base: string;
}

/** Spawns a command in its own process group (npm, its shell and node beneath it) and waits for `ready` in its output. */
async function run(command: string, args: string[], env: NodeJS.ProcessEnv, ready: string, port: number): Promise<Started> {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${command} ${args.join(' ')} did not come up:\n${output}`)), 150_000);
    child.stdout!.on('data', () => {
      if (output.includes(ready)) (clearTimeout(timer), resolve());
    });
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${command} ${args.join(' ')} exited ${code}:\n${output}`))));
  });
  return { child, output: () => output, base: `http://127.0.0.1:${port}` };
}

async function stop(started: Started | null): Promise<void> {
  if (!started || started.child.exitCode !== null) return;
  const exited = new Promise((r) => started.child.once('exit', r));
  process.kill(-started.child.pid!, 'SIGTERM'); // the group this test started: npm, its shell, the product
  await exited;
}

/** Runs a command to its end: its exit code and output. */
function runToEnd(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

async function signInPage(base: string, path: string): Promise<void> {
  const page = await fetch(`${base}${path}`);
  expect(page.status).to.equal(200);
  expect(await page.text()).to.include('<div id="root">');
}

/** A value that is not a dev default, made for this run only (word characters: Stripe's key patterns accept it). */
const testOnly = (what: string) => `test_only_${what.replace(/-/g, '_')}_${randomBytes(12).toString('hex')}`;

describe('npm start', function () {
  this.timeout(180_000);
  const dbName = `platform_start_${Date.now().toString(36)}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${dbName}`;
  let started: Started | null = null;

  async function envFor(nodeEnv: string): Promise<{ env: NodeJS.ProcessEnv; port: number }> {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: nodeEnv, DATABASE_URL: url.toString(), PORT: String(port), BUILD_ID: 'start-test-build', REDIS_PREFIX: `${process.env.REDIS_PREFIX}-start`, LOG_LEVEL: 'warn' };
    delete env.SMTP_HOST;
    delete env.SMTP_PORT;
    return { env, port };
  }

  before(() => createDatabase(ADMIN_URL, dbName));
  afterEach(async () => {
    await stop(started);
    started = null;
  });
  after(() => dropDatabase(ADMIN_URL, dbName));

  it('NODE_ENV=development: migrates, seeds, serves get-build-id and the sign-in pages, and lets the demo admin sign in over HTTP (setting up a second factor)', async () => {
    const { env, port } = await envFor('development');
    started = await run('npm', ['start'], env, 'is running at', port);
    const { base } = started;
    expect(started.output()).to.include(DEMO_USERS.admin.email);
    const build = await fetch(`${base}/api/system/get-build-id`);
    expect(await build.json()).to.deep.equal({ buildId: 'start-test-build' });

    const csrfRes = await fetch(`${base}/api/auth/csrf`);
    const cookie = csrfRes.headers.get('set-cookie')!.split(';')[0];
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string };
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie },
      body: JSON.stringify({ email: DEMO_USERS.admin.email, password: DEMO_PASSWORD, portal: 'admin' }),
    });
    expect(login.status).to.equal(200);
    // An admin must use a second factor: the demo admin sets one up at the first sign-in (README).
    expect(await login.json()).to.deep.equal({ secondFactor: { required: true, enrol: true, methods: [] } });
    const admin = await signInOverHttp(base, url.toString(), { email: DEMO_USERS.admin.email, password: DEMO_PASSWORD, portal: 'admin' });
    const me = (await (await admin.call('/api/auth/me')).json()) as { user: { email: string } };
    expect(me.user.email).to.equal(DEMO_USERS.admin.email);

    await signInPage(base, '/admin/login');
    await signInPage(base, '/provider/login');

    // Card payments work out of the box: a patient order paid on the local Stripe stand-in's card page.
    expect(started.output()).to.match(/Payments:\s+local Stripe stand-in at http:\/\/127\.0\.0\.1:\d+/);
    const anon = await fetch(`${base}/api/auth/csrf`);
    const anonHeaders = { 'content-type': 'application/json', 'x-csrf-token': ((await anon.json()) as { csrfToken: string }).csrfToken, cookie: anon.headers.get('set-cookie')!.split(';')[0] };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${base}/api/${path}`, { method: 'POST', headers: anonHeaders, body: JSON.stringify(body) });
      expect(res.status, `${path}: ${res.status}`).to.be.oneOf([200, 201]);
      return res.json() as Promise<Record<string, any>>;
    };
    const accounts = (await (await fetch(`${base}/api/order/prostox/get-prp-accounts`)).json()) as { id: number; name: string }[];
    const riverside = accounts.find((a) => a.name === 'Riverside Oncology')!;
    const created = await post('order/create', {
      product: 'kras', answers: { adult: 'Yes', priorKrasTest: 'No', cancerHistory: 'No', usResident: 'Yes' }, accountId: riverside.id, invitationToken: null, mirakind: false,
      patient: { firstName: 'Startia', lastName: 'Checker', dateOfBirth: '1960-02-02', email: 'start-check@patients.test', phone: null, addressLine1: '1 Main St', addressLine2: null, city: 'Bayport', state: 'CA', postalCode: '94000' },
    });
    const key = { orderNumber: created.order.orderNumber, orderToken: created.orderToken };
    await post('order/set-payment', { ...key, method: 'Self-Pay', insurancePlanId: null, insuranceMemberId: null });
    const intent = await post('stripe/create-payment-intent', key);
    // One origin: the payment returns to the address npm start printed (issue 25, item 6; it printed 127.0.0.1 and returned to localhost).
    const printed = /is running at (\S+)/.exec(started.output())![1];
    expect(new URL(new URL(intent.checkoutUrl as string).searchParams.get('return_url')!).origin).to.equal(new URL(printed).origin);
    expect(started.output()).to.include(`Clinic: ${printed}/provider/login`);
    const paid = await fetch(`${intent.checkoutUrl.split('?')[0]}`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ card_number: '4242 4242 4242 4242', return_url: `${base}/patient-portal/order/complete?order=${key.orderNumber}` }).toString(),
    });
    expect(paid.status).to.equal(303);
    expect((await post('order/summary', key)).paymentStatus).to.equal('Paid');
  });

  it('two npm starts on one machine (another PORT and database) both come up: the mail catcher and the Stripe stand-in each on a port of their own', async () => {
    const secondDb = `${dbName}_two`;
    await createDatabase(ADMIN_URL, secondDb);
    let second: Started | null = null;
    try {
      const one = await envFor('development');
      const two = await envFor('development');
      const secondUrl = new URL(ADMIN_URL);
      secondUrl.pathname = `/${secondDb}`;
      two.env.DATABASE_URL = secondUrl.toString();
      two.env.REDIS_PREFIX = `${process.env.REDIS_PREFIX}-start-two`;
      [started, second] = await Promise.all([run('npm', ['start'], one.env, 'is running at', one.port), run('npm', ['start'], two.env, 'is running at', two.port)]);
      const portsOf = (output: string) => ({
        smtp: /caught locally on SMTP port (\d+)/.exec(output)?.[1],
        stripe: /local Stripe stand-in at http:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1],
      });
      const [a, b] = [portsOf(started.output()), portsOf(second.output())];
      expect(a.smtp && b.smtp && a.stripe && b.stripe, `${started.output()}\n${second.output()}`).to.be.a('string');
      expect(a.smtp).to.not.equal(b.smtp);
      expect(a.stripe).to.not.equal(b.stripe);
      for (const { base } of [started, second]) await signInPage(base, '/admin/login');
    } finally {
      await stop(second);
      await dropDatabase(ADMIN_URL, secondDb);
    }
  });

  it('NODE_ENV=production: starts all the same with development settings, says why, and serves the sign-in page', async () => {
    const { env, port } = await envFor('production');
    delete env.SESSION_SECRET;
    started = await run('npm', ['start'], env, 'is running at', port);
    expect(started.output()).to.include('NODE_ENV=production, but `npm start` is the local demo');
    expect(started.output()).to.include('Running it in production');
    await signInPage(started.base, '/provider/login');
    // The demo's cookie works over plain HTTP (no Secure flag): the sign-in page can sign in.
    const csrf = await fetch(`${started.base}/api/auth/csrf`);
    expect(csrf.headers.get('set-cookie')).not.to.match(/;\s*Secure/i);
  });

  it('the production process start (npm run serve:api) refuses the dev secrets, and serves the sign-in page once they are set', async () => {
    const { env, port } = await envFor('production');
    delete env.SESSION_SECRET;
    const refused = await runToEnd('npm', ['run', 'serve:api', '--silent'], env);
    expect(refused.code).to.equal(1);
    expect(refused.output).to.include('SESSION_SECRET must be set in production');

    Object.assign(env, {
      HOST: '127.0.0.1',
      SESSION_SECRET: testOnly('session-secret'),
      SECURE_COOKIES: 'true',
      SHIPPING_WEBHOOK_SECRET: testOnly('shipping-secret'),
      SHIPPING_API_KEY: testOnly('shipping-api-key'),
      TWILIO_ACCOUNT_SID: `AC${randomBytes(16).toString('hex')}`,
      TWILIO_AUTH_TOKEN: testOnly('twilio-auth-token'),
      TWILIO_FROM: '+14155550199',
      MFA_SECRET_KEY: testOnly('mfa-secret'),
      LAB_NAME: 'Test Production Laboratory',
      LAB_ADDRESS: '1 Production Way, Testville, CO 80202',
      LAB_CLIA_NUMBER: '05D1234567',
      LAB_DIRECTOR: 'Dr Test Director',
      LAB_PHONE: '+1 (555) 010-0199',
      LAB_EMAIL: 'results@production-lab.example',
      LAB_TIME_ZONE: 'America/Denver',
      STRIPE_SECRET_KEY: `sk_test_${testOnly('stripe')}`,
      STRIPE_PUBLISHABLE_KEY: `pk_test_${testOnly('stripe')}`,
      STRIPE_WEBHOOK_SECRET: `whsec_${testOnly('stripe')}`,
    });
    started = await run('npm', ['run', 'serve:api', '--silent'], env, 'API listening on', port);
    expect(started.output()).to.include('(production)');
    await signInPage(started.base, '/provider/login');
  });
});
