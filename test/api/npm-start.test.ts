import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { createDatabase, dropDatabase } from '@platform/db';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });

describe('npm start', function () {
  this.timeout(180_000);
  const dbName = `platform_start_${Date.now().toString(36)}`;

  after(() => dropDatabase(ADMIN_URL, dbName));

  it('migrates, seeds, serves get-build-id and lets the demo admin sign in over HTTP', async () => {
    await createDatabase(ADMIN_URL, dbName);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${dbName}`;
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url.toString(), PORT: String(port), BUILD_ID: 'start-test-build', REDIS_PREFIX: `${process.env.REDIS_PREFIX}-start`, LOG_LEVEL: 'warn' };
    delete env.SMTP_HOST;
    delete env.SMTP_PORT;
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${output}`)), 150_000);
        child.stdout.on('data', () => {
          if (output.includes('is running at')) (clearTimeout(timer), resolve());
        });
        child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`npm start exited ${code}:\n${output}`))));
      });
      expect(output).to.include(DEMO_USERS.admin.email);
      const base = `http://127.0.0.1:${port}`;
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
      const me = (await login.json()) as { user: { email: string } };
      expect(me.user.email).to.equal(DEMO_USERS.admin.email);

      const page = await fetch(`${base}/admin/login`);
      expect(page.status).to.equal(200);
      expect(await page.text()).to.include('<div id="root">');

      // Card payments work out of the box: a patient order paid on the local Stripe stand-in's card page.
      expect(output).to.match(/Payments:\s+local Stripe stand-in at http:\/\/127\.0\.0\.1:\d+/);
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
      const paid = await fetch(`${intent.checkoutUrl.split('?')[0]}`, {
        method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ card_number: '4242 4242 4242 4242', return_url: `${base}/patient-portal/order/complete?order=${key.orderNumber}` }).toString(),
      });
      expect(paid.status).to.equal(303);
      expect((await post('order/summary', key)).paymentStatus).to.equal('Paid');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
  });
});
