/**
 * `npm run load`: 200 signed-in sessions for 60 s against the started product (the API and a
 * worker as their own processes, on a database of their own on the local PostgreSQL, created and
 * dropped here), autocannon on 127.0.0.1 only. A quarter of the sessions each: the clinic's lists
 * (pending samples, completed results), a patient's detail, placing orders, and lab intake
 * (receiving kits). Prints requests, p50 / p99 and errors per route; exits 1 on any error.
 * LOAD_SECONDS and LOAD_SESSIONS change the length and the number of sessions.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { RESULT_LIST_CATEGORIES } from '@platform/domain';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase } from '@platform/db';
import { seedDemoData } from './seed';
import { DEMO_PASSWORD, DEMO_USERS, type DemoUserKey } from './demo-users';
import { signInOverHttp } from './second-step';
import { startMailCatcher } from './mail-catcher';
import { freePort, startProcess, type ProductProcess } from './product-process';
import { deleteRedisKeys } from './redis-keys';

const ADMIN_URL = process.env.LOAD_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const SESSIONS = Number(process.env.LOAD_SESSIONS ?? 200);
const KITS = 80_000;
const PATIENTS = 500;
const runId = `${Date.now().toString(36)}_${randomBytes(2).toString('hex')}`;
const dbName = `platform_load_${runId}`;
const redisPrefix = `load-${runId}`;

interface SessionHeaders {
  cookie: string;
  'x-csrf-token': string;
}

/** Signs a demo user in over HTTP: the session cookie and its CSRF token. */
async function signIn(base: string, who: DemoUserKey, portal: string): Promise<SessionHeaders> {
  const { cookie, csrfToken: token } = await signInOverHttp(base, dbName, { email: DEMO_USERS[who].email, password: DEMO_PASSWORD, portal });
  return { cookie, 'x-csrf-token': token };
}

async function inBatches<T>(count: number, size: number, make: () => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  while (out.length < count) out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - out.length) }, make))));
  return out;
}

/** Patients to look at and order for, and kits in Pending Shipment for intake. */
async function fill(url: string, accountId: number): Promise<{ patientIds: number[]; kits: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows: patients } = await client.query(
      `INSERT INTO patients (account_id, first_name, last_name, date_of_birth, sex)
       SELECT $1, 'Load' || g, 'Patient' || g, DATE '1950-01-01' + g, 'F' FROM generate_series(1, $2) g RETURNING id`, [accountId, PATIENTS]);
    const { rows: kits } = await client.query(`
      WITH o AS (
        INSERT INTO orders (order_number, account_id, patient_id, origin, portal)
        SELECT 'RL_' || lpad(g::text, 9, '0'), $1, $2, 'Provider Ordered', 'Clinical Portal' FROM generate_series(1, $3) g RETURNING id, patient_id
      ), s AS (
        INSERT INTO samples (barcode, sample_type, status, account_id, patient_id, order_id)
        SELECT '619' || lpad(row_number() OVER (ORDER BY o.id)::text, 11, '0'), 'Buccal Swab', 'Pending Shipment', $1, o.patient_id, o.id FROM o RETURNING id, order_id, barcode
      ), t AS (
        INSERT INTO tests (order_id, sample_id, name, parent_type) SELECT s.order_id, s.id, 'PROSTOX ultra', 'PROSTOX' FROM s
      )
      SELECT barcode FROM s ORDER BY barcode`, [accountId, patients[0].id, KITS]);
    await client.query('ANALYZE');
    return { patientIds: patients.map((p) => p.id as number), kits: kits.map((k) => k.barcode as string) };
  } finally {
    await client.end();
  }
}

type Route = {
  name: string;
  method: 'GET' | 'POST';
  path: (i: number) => string;
  body?: (i: number) => unknown;
  sessions: SessionHeaders[];
  /** The first few answers that were not 2xx, to print. */
  failures: string[];
};

/** One autocannon run for one route, its connections each a signed-in session of its own. */
function hammer(base: string, route: Route): Promise<autocannon.Result> {
  let counter = 0;
  let client = 0;
  return autocannon({
    url: base,
    connections: route.sessions.length,
    duration: SECONDS,
    timeout: 30,
    requests: [
      {
        method: route.method,
        setupRequest: (req: autocannon.Request, context: Record<string, unknown>) => {
          context.session ??= route.sessions[client++ % route.sessions.length];
          const i = counter++;
          return {
            ...req,
            path: route.path(i),
            headers: { ...(context.session as SessionHeaders), ...(route.body ? { 'content-type': 'application/json' } : {}) },
            ...(route.body ? { body: JSON.stringify(route.body(i)) } : {}),
          };
        },
        onResponse: (status: number, body: string) => {
          if ((status < 200 || status >= 300) && route.failures.length < 3) route.failures.push(`${status} ${body.slice(0, 200)}`);
        },
      },
    ],
  } as autocannon.Options);
}


async function main() {
  await createDatabase(ADMIN_URL, dbName);
  const url = databaseUrl(ADMIN_URL, dbName);
  const processes: ProductProcess[] = [];
  const catcher = await startMailCatcher({ databaseUrl: url, port: await freePort() });
  try {
    const db = connect(url);
    let accountId: number;
    let physicianId: number;
    try {
      await createMigrator(db.sequelize).up();
      await seedDemoData(db);
      accountId = (await db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
      const [row] = await db.sequelize.query<{ id: number }>(
        `SELECT p.id FROM physicians p JOIN contacts c ON c.id = p.contact_id JOIN users u ON u.id = c.user_id WHERE u.email = :email AND p.account_id = :account`,
        { replacements: { email: DEMO_USERS.physician.email, account: accountId }, type: 'SELECT' as never },
      );
      physicianId = row.id;
    } finally {
      await db.close();
    }
    const { patientIds, kits } = await fill(url, accountId);

    const port = await freePort();
    const env = { ...process.env, NODE_ENV: 'development', DATABASE_URL: url, REDIS_PREFIX: redisPrefix, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(catcher.port) };
    processes.push(await startProcess('api', env));
    processes.push(await startProcess('worker', env));
    const base = `http://127.0.0.1:${port}`;

    const quarter = Math.max(1, Math.floor(SESSIONS / 4));
    console.log(`Signing in ${quarter * 4} sessions…`);
    const clinic = await inBatches(quarter * 3, 4, () => signIn(base, 'physician', 'provider'));
    const lab = await inBatches(quarter, 4, () => signIn(base, 'lab1', 'lab'));
    const api = `/api/provider-clinic/${accountId}`;
    const routes: Route[] = [
      { name: 'GET clinic lists (pending samples / completed results)', method: 'GET', path: (i) => (i % 2 ? `${api}/samples?page=${1 + (i % 5)}` : `${api}/tests?category=${RESULT_LIST_CATEGORIES[i % RESULT_LIST_CATEGORIES.length]}&page=1`), sessions: clinic.slice(0, quarter), failures: [] },
      { name: 'GET patient detail', method: 'GET', path: (i) => `${api}/patient/${patientIds[i % patientIds.length]}`, sessions: clinic.slice(quarter, 2 * quarter), failures: [] },
      {
        name: 'POST order',
        method: 'POST',
        path: () => `${api}/order`,
        body: (i) => ({
          patientId: patientIds[i % patientIds.length], tests: ['PROSTOX ultra'], physicianId, sampleType: 'Buccal Swab',
          attestations: { medicalNecessity: true, informedConsent: true, reimbursementClaim: true, supportingDocumentation: true }, diagnosisCodes: ['C61'],
        }),
        sessions: clinic.slice(2 * quarter),
        failures: [],
      },
      { name: 'POST lab intake', method: 'POST', path: () => '/api/lab-toolbox/intake/receive', body: (i) => ({ barcode: kits[i % kits.length], condition: 'acceptable', collectedAt: new Date(Date.now() - 60_000).toISOString(), identityConfirmed: true }), sessions: lab, failures: [] },
    ];
    console.log(`${routes.length} routes × ${quarter} sessions for ${SECONDS} s against ${base} …`);
    const results = await Promise.all(routes.map((r) => hammer(base, r)));

    let errors = 0;
    console.log('\nroute                                                      requests   req/s   p50 ms   p99 ms   errors  non-2xx');
    for (const [i, r] of results.entries()) {
      const bad = r.errors + r.timeouts + r.non2xx;
      errors += bad;
      console.log(
        `${routes[i].name.padEnd(58)} ${String(r.requests.total).padStart(8)} ${r.requests.average.toFixed(0).padStart(7)} ${String(r.latency.p50).padStart(8)} ${String(r.latency.p99).padStart(8)} ${String(r.errors + r.timeouts).padStart(8)} ${String(r.non2xx).padStart(8)}`,
      );
    }
    for (const r of routes) for (const f of r.failures) console.log(`  ${r.name}: ${f}`);
    const intakes = results[3].requests.total;
    if (intakes > kits.length) console.log(`(intake wrapped around its ${kits.length} kits: re-received kits answer 409)`);
    console.log(`\n${quarter * 4} sessions, ${SECONDS} s: ${errors === 0 ? '0 errors' : `${errors} errors`}`);
    process.exitCode = errors === 0 ? 0 : 1;
  } finally {
    for (const p of processes) await p.terminate();
    await catcher.close();
    await dropDatabase(ADMIN_URL, dbName);
    await deleteRedisKeys(process.env.REDIS_URL, `${redisPrefix}:`);
  }
}

main().catch((err) => {
  console.error(`Load run failed: ${(err as Error).stack ?? err}`);
  process.exit(1);
});
