/**
 * The access matrix and the bad-input sweep, generated from the route table (api/src/http/route-table.ts):
 * every route under /api, whoever's router mounted it, is called as each kind of caller and its
 * answer checked against the policy the route declares (requireUser, requireAccountAccess,
 * publicRoute); a route that declares none fails. Then every route that validates with a domain
 * joi schema gets bodies (and queries) made from that schema: each required field missing, each
 * field of the wrong type, an unknown field, huge and unicode values: a 4xx naming the field in
 * the one error shape, never a 5xx, and nothing written.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase } from '@platform/db';
import { EMAIL_CAMPAIGNS, type AccountSummary, type SignInPortal, type UserKind } from '@platform/domain';
import { issuePatientResultLink } from '@platform/server';
import type { RouteInput, RoutePolicy } from '../../api/src/http/route-policy';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { routeTable, samplePath, type RouteEntry } from '../../api/src/http/route-table';
import { createClinic, createResult, signInAs } from '../support/fixtures/reports';
import { eligibleAnswers } from '../support/fixtures/patient-orders';
import type { DemoUserKey } from '../../scripts/demo-users';
import { seedDemoData } from '../../scripts/seed';

interface Caller {
  name: string;
  session: Session;
  kind: UserKind | null;
  accounts: AccountSummary[];
  /** How to sign this caller in again (a route may sign it out). */
  signInAgain?: () => Promise<Session>;
}

type Expected = 'allowed' | 'public' | 401 | 403 | 404;

/** What a caller must get from a route, reading its guards in the order they run. */
function expectedFor(policies: RoutePolicy[], caller: Caller, accountId: number): Expected {
  const guards = policies.filter((p) => p.type !== 'public');
  if (!guards.length) return 'public';
  for (const policy of guards) {
    if (!caller.kind) return 401;
    if (policy.type === 'user') {
      if (policy.kinds.length && !policy.kinds.includes(caller.kind)) return 403;
    } else {
      const account = caller.accounts.find((a) => a.id === accountId);
      if (!account) return 404;
      if (policy.portal === 'clinic' && !account.clinicAccess) return 403;
      if (policy.portal === 'research' && !account.researchAccess) return 403;
      if (policy.roles && !policy.roles.includes(account.role)) return 403;
    }
  }
  return 'allowed';
}

let calls = 0;
/**
 * One request as `session`, each from an address of its own: the sign-in throttle counts a bad body
 * against its address before validation, and this sweep sends far more than any one client would.
 */
const call = (session: Session, method: string, path: string, body: unknown = {}, query: Record<string, unknown> = {}) => {
  const agent = session.agent as unknown as Record<string, (p: string) => import('supertest').Test>;
  calls++;
  const req = agent[method](path).query(query).set('X-Forwarded-For', `10.${100 + (calls >> 16)}.${(calls >> 8) & 255}.${calls & 255}`);
  return method === 'get' || method === 'head' ? req : req.set('x-csrf-token', session.csrf).send(body as object);
};

describe('Access matrix and bad input, generated from the route table', function () {
  this.timeout(180_000);
  let t: TestApp;
  let routes: RouteEntry[];
  let callers: Caller[];
  let clinicAccountId: number;
  let researchAccountId: number;

  const accountIdFor = (route: RouteEntry) =>
    route.policies.some((p) => p.type === 'account' && p.portal === 'research') ? researchAccountId : clinicAccountId;
  /** A path parameter's value: the account the route is about, a known campaign, otherwise an id no row has. */
  const pathOf = (route: RouteEntry) =>
    samplePath(route.pattern, (param) => (param === 'accountId' ? String(accountIdFor(route)) : param === 'campaign' ? EMAIL_CAMPAIGNS[0] : '1'));

  async function describeCaller(name: string, session: Session, signInAgain?: () => Promise<Session>): Promise<Caller> {
    const me = await session.agent.get('/api/auth/me');
    if (me.status !== 200) return { name, session, kind: null, accounts: [], signInAgain };
    return { name, session, kind: me.body.user.kind, accounts: me.body.accounts, signInAgain };
  }

  const demo = (who: DemoUserKey, portal: SignInPortal) => () => signIn(t.app, who, portal, '10.9.7.1');

  // Calling every route as everyone who may call it does real work (a bulk email campaign, a reset
  // link): on a database and Redis prefix of its own, so none of it reaches another test's mailbox or jobs.
  const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `platform_test_matrix_${randomBytes(4).toString('hex')}`;

  before(async () => {
    await createDatabase(ADMIN_URL, dbName);
    const db = connect(databaseUrl(ADMIN_URL, dbName));
    try {
      await createMigrator(db.sequelize).up();
      await seedDemoData(db);
    } finally {
      await db.close();
    }
    t = await buildTestApp({ DATABASE_URL: databaseUrl(ADMIN_URL, dbName), REDIS_PREFIX: `${process.env.REDIS_PREFIX}-matrix` });
    routes = routeTable(t.app);
    const m = t.ctx.db.models;
    clinicAccountId = (await m.Account.findOne({ where: { name: 'Lakeside Urology' } }))!.id;
    researchAccountId = (await m.Account.findOne({ where: { name: 'Northwind Research' } }))!.id;

    // A patient who opened their result link and verified their date of birth: a browser with a verified link, no user.
    const fixture = await createResult(t.ctx.db, { accountId: clinicAccountId, physicianId: null });
    const { token } = await t.ctx.db.sequelize.transaction(async (transaction) =>
      issuePatientResultLink(t.ctx, transaction, (await m.Sample.findByPk(fixture.sampleId, { transaction }))!, (await m.Patient.findByPk(fixture.patientId, { transaction }))!, { createdByUserId: null }),
    );
    const patientLink = await newSession(t.app, '10.9.7.1');
    await patientLink.post('/api/reports/patient-result/verify-patient', { barcode: fixture.barcode, token, dateOfBirth: fixture.patient.dateOfBirth }).expect(200);

    const other = await createClinic(t.ctx.db, 'matrix');
    const signIns: [string, () => Promise<Session>][] = [
      ['provider of another account', () => signInAs(t.app, other.email, 'provider', '10.9.7.1')],
      ['clinic physician', demo('physician', 'provider')],
      ['clinic super admin', demo('superAdmin', 'provider')],
      ['research provider', demo('researcher', 'research')],
      ['lab', demo('lab1', 'lab')],
      ['admin', demo('admin', 'admin')],
    ];
    callers = [
      await describeCaller('anonymous', await newSession(t.app, '10.9.7.1')),
      await describeCaller('patient with a verified result link', patientLink),
    ];
    for (const [name, how] of signIns) callers.push(await describeCaller(name, await how(), how));
    expect(callers.filter((c) => c.kind).map((c) => c.kind)).to.deep.equal(['provider', 'provider', 'provider', 'provider', 'lab', 'admin']);
  });

  after(async () => {
    await t?.close();
    await dropDatabase(ADMIN_URL, dbName);
  });

  it('reads every route of the mounted routers, and every one declares who may call it', () => {
    expect(routes.length).to.be.greaterThan(100);
    const undeclared = routes.filter((r) => !r.policies.length).map((r) => `${r.method.toUpperCase()} ${r.pattern}`);
    expect(undeclared, 'routes without requireUser / requireAccountAccess / publicRoute').to.deep.equal([]);
  });

  it('answers every route as its policy says, for anonymous, a patient link, another account, clinic, research, lab and admin', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => r.policies.length)) {
      const path = pathOf(route);
      const statuses: number[] = [];
      for (const caller of callers) {
        const res = await call(caller.session, route.method, path);
        statuses.push(res.status);
        const expected = expectedFor(route.policies, caller, accountIdFor(route));
        const ok =
          res.status < 500 &&
          (typeof expected === 'number' ? res.status === expected : expected === 'allowed' ? res.status !== 401 && res.status !== 403 : true);
        if (!ok) wrong.push(`${route.method.toUpperCase()} ${route.pattern} as ${caller.name}: ${res.status} (expected ${expected}) ${JSON.stringify(res.body?.error ?? '')}`);
        // A route that signed the caller out (sign-out itself): sign in again for the next route.
        if (caller.signInAgain && route.method !== 'get' && res.status < 300 && (await caller.session.agent.get('/api/auth/me')).status === 401) {
          caller.session = await caller.signInAgain();
        }
      }
      // A public route answers the same whoever calls: it depends on its own credential, not on the session.
      if (expectedFor(route.policies, callers[0], 0) === 'public' && new Set(statuses).size > 1) {
        wrong.push(`${route.method.toUpperCase()} ${route.pattern} is public but answers ${statuses.join('/')} to ${callers.map((c) => c.name).join('/')}`);
      }
    }
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
  });

  it("no route without a session changes an existing patient's record or where their results go (issue 24's takeover, on each route that takes a person's details)", async () => {
    const m = t.ctx.db.models;
    const riverside = (await m.Account.findOne({ where: { name: 'Riverside Oncology' } }))!;
    // The victim: a patient of a clinic that takes patient orders, with the contact details the clinic set.
    const letters = randomBytes(4).toString('hex').replace(/\d/g, (d) => 'abcdefghij'[Number(d)]);
    const victim = await m.Patient.create({
      accountId: riverside.id, firstName: `Vera${letters}`, lastName: `Victim${letters}`, dateOfBirth: '1955-03-14', email: `vera-${letters}@clinic-set.test`,
      phone: '(555) 010-0001', addressLine1: '1 Clinic Road', city: 'Bayport', state: 'CA', postalCode: '94000', country: 'US',
    });
    const onFile = async () => m.Patient.findByPk(victim.id, { raw: true, attributes: { exclude: ['updatedAt'] } });
    const before = await onFile();
    const attacker = { email: `mallory-${letters}@attacker.test`, phone: '(555) 666-0000', addressLine1: '9 Attacker Way', addressLine2: null, city: 'Elsewhere', state: 'NV', postalCode: '89000' };
    const person = { firstName: victim.firstName, lastName: victim.lastName, dateOfBirth: '1955-03-14' };

    /** Each route without a session whose body takes a person's details, and the takeover attempt a stranger would send it. */
    const ATTACKS: Record<string, { body: unknown; status: number }> = {
      // A self-order naming the victim, with the stranger's contact details: its own patient record (201), never the victim's.
      'POST /api/order/create': {
        body: { product: 'prostox', answers: eligibleAnswers('prostox'), patient: { ...person, ...attacker }, accountId: riverside.id, invitationToken: null, mirakind: false },
        status: 201,
      },
      // The result page's date-of-birth check with a guessed link: refused, and no link to the victim's results made.
      'POST /api/reports/patient-result/verify-patient': { body: { barcode: '41000000000001', token: randomBytes(32).toString('hex'), dateOfBirth: person.dateOfBirth }, status: 404 },
      // Asking for provider access under the victim's name: a Pending contact at most, never the patient record.
      'POST /api/auth/request-access': { body: { ...person, dateOfBirth: undefined, email: attacker.email, phone: null, title: 'Other', specialty: null, npi: null, accountName: riverside.name, note: null }, status: 202 },
    };

    const PERSON_KEYS = ['firstName', 'lastName', 'dateOfBirth', 'patient'];
    const keysOf = (input: RouteInput) => Object.keys((input.schema.describe() as { keys?: Record<string, unknown> }).keys ?? {});
    const takesAPerson = routes
      .filter((r) => r.policies.every((p) => p.type === 'public') && r.inputs.some((i) => i.where === 'body' && keysOf(i).some((k) => PERSON_KEYS.includes(k))))
      .map((r) => `${r.method.toUpperCase()} ${r.pattern}`);
    // A new route of this kind fails here until its attack is written above.
    expect(takesAPerson.sort()).to.deep.equal(Object.keys(ATTACKS).sort());
    const anonymous = callers.find((c) => c.name === 'anonymous')!;
    for (const [route, { body, status }] of Object.entries(ATTACKS)) {
      const [method, path] = route.split(' ');
      const res = await call(anonymous.session, method.toLowerCase(), path, body);
      expect(res.status, `${route}: ${JSON.stringify(res.body)}`).to.equal(status);
      expect(await onFile(), `${route} left the victim's record as the clinic set it`).to.deep.equal(before);
    }
    expect(await m.Order.count({ where: { patientId: victim.id } }), 'no order landed on the victim').to.equal(0);
  });

  describe('bad input from the joi schemas', () => {
    interface KeyDescription {
      type: string;
      flags?: { presence?: string; only?: boolean };
      rules?: { name: string; args?: { limit?: number } }[];
    }
    interface SchemaDescription {
      type: string;
      keys?: Record<string, KeyDescription>;
      flags?: { unknown?: boolean };
    }

    const WRONG_TYPE: Record<string, unknown> = {
      string: 12345, number: 'not-a-number', boolean: 'not-a-boolean', array: 'not-an-array', object: 'not-an-object', date: 'not-a-date',
    };
    const UNICODE = '\u202eZoë 🧪 \u0000 ﷽';
    const HUGE = 'x'.repeat(200_000);

    async function tableCounts(): Promise<Record<string, number>> {
      const [tables] = (await t.ctx.db.sequelize.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT IN ('session', 'caught_mail') ORDER BY 1")) as [{ tablename: string }[], unknown];
      const counts: Record<string, number> = {};
      for (const { tablename } of tables) {
        const [[row]] = (await t.ctx.db.sequelize.query(`SELECT count(*)::int AS n FROM "${tablename}"`)) as [{ n: number }[], unknown];
        counts[tablename] = row.n;
      }
      return counts;
    }

    /** Who may call the route: its requests reach the schema. */
    const ownerOf = (route: RouteEntry) =>
      ['admin', 'lab', 'clinic super admin', 'clinic physician', 'research provider', 'anonymous']
        .map((name) => callers.find((c) => c.name === name)!)
        .find((c) => ['allowed', 'public'].includes(String(expectedFor(route.policies, c, accountIdFor(route)))))!;

    interface Case {
      what: string;
      body?: unknown;
      query?: Record<string, unknown>;
      /** The field the answer must name; null: any 4xx; 'no-5xx': only no server error (the value may be valid). */
      names: string | null | 'no-5xx';
    }

    function casesFor(input: RouteInput): Case[] {
      const d = input.schema.describe() as SchemaDescription;
      const put = (value: Record<string, unknown>) => (input.where === 'body' ? { body: value } : { query: value });
      const cases: Case[] = [];
      if (d.type !== 'object' || !d.keys) {
        if (input.where === 'body') cases.push({ what: 'a body of the wrong type', body: [1, 2], names: null });
        return cases;
      }
      const keys = Object.entries(d.keys);
      const required = keys.filter(([, k]) => k.flags?.presence === 'required').map(([name]) => name);
      if (!d.flags?.unknown) cases.push({ what: 'an unknown field', ...put({ zzUnexpectedField: 1 }), names: 'zzUnexpectedField' });
      if (input.where === 'body') cases.push({ what: 'a body of the wrong type', body: [1, 2], names: null });
      for (const name of required) cases.push({ what: `${name} missing`, ...put({}), names: name });
      for (const [name, k] of keys) {
        const wrong = WRONG_TYPE[k.type];
        // A query string carries only strings: a wrong type there is a value that does not convert.
        if (wrong !== undefined && !(input.where === 'query' && ['string', 'array'].includes(k.type))) {
          cases.push({ what: `${name} of the wrong type`, ...put({ [name]: wrong }), names: name });
        }
        if (k.type === 'string') {
          const limited = (r: { name: string; args?: { limit?: number } }) =>
            ['max', 'length'].includes(r.name) ? (r.args?.limit ?? Infinity) < HUGE.length : ['pattern', 'email', 'guid', 'isoDate', 'hex'].includes(r.name);
          const bounded = k.flags?.only || (k.rules ?? []).some(limited);
          if (input.where === 'body') cases.push({ what: `${name} huge`, body: { [name]: HUGE }, names: bounded ? name : null });
          const othersRequired = required.some((r) => r !== name);
          cases.push({ what: `${name} unicode`, ...put({ [name]: UNICODE }), names: othersRequired ? null : 'no-5xx' });
        }
      }
      return cases;
    }

    it('refuses a body nested thousands deep and a body over the size limit on every route that takes one, before any work', async () => {
      const before = await tableCounts();
      const nested = `{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
      const huge = JSON.stringify({ a: 'x'.repeat(1024 * 1024 + 1) });
      const wrong: string[] = [];
      const bodyRoutes = routes.filter((r) => ['post', 'put', 'patch', 'delete'].includes(r.method) && !/\/webhooks\//.test(r.pattern));
      for (const route of bodyRoutes) {
        const owner = ownerOf(route) ?? callers[0];
        for (const [what, body, status, code] of [['nested 5,000 deep', nested, 400, 'body_too_deep'], ['over 1 MB', huge, 413, 'body_too_large']] as const) {
          const agent = owner.session.agent as unknown as Record<string, (p: string) => import('supertest').Test>;
          const res = await agent[route.method](pathOf(route)).set('X-Forwarded-For', '10.9.7.1').set('x-csrf-token', owner.session.csrf).set('Content-Type', 'application/json').send(body);
          if (res.status !== status || res.body?.error?.code !== code) wrong.push(`${route.method.toUpperCase()} ${route.pattern} (${what}) as ${owner.name}: ${res.status} ${JSON.stringify(res.body?.error ?? '').slice(0, 200)}`);
        }
      }
      expect(bodyRoutes.length).to.be.greaterThan(50);
      expect(wrong, wrong.join('\n')).to.deep.equal([]);
      expect(await tableCounts()).to.deep.equal(before);
    });

    it('answers 4xx naming the field, never 5xx, for every schema-validated route, and writes nothing', async () => {
      const before = await tableCounts();
      const wrong: string[] = [];
      let sent = 0;
      for (const route of routes.filter((r) => r.inputs.length)) {
        const owner = ownerOf(route);
        if (!owner) {
          wrong.push(`${route.method.toUpperCase()} ${route.pattern}: no caller may reach its schema`);
          continue;
        }
        for (const input of route.inputs) {
          for (const c of casesFor(input)) {
            sent++;
            const res = await call(owner.session, route.method, pathOf(route), c.body ?? {}, c.query ?? {});
            const label = `${route.method.toUpperCase()} ${route.pattern} (${input.where}: ${c.what}) as ${owner.name}: ${res.status} ${JSON.stringify(res.body?.error ?? '').slice(0, 300)}`;
            if (res.status >= 500) {
              wrong.push(label);
              continue;
            }
            if (c.names === 'no-5xx') continue;
            const error = res.body?.error as { code?: string; message?: string; fields?: { field: string }[] } | undefined;
            if (res.status < 400 || typeof error?.message !== 'string' || typeof error.code !== 'string') {
              wrong.push(`${label}: not a 4xx with the error shape`);
              continue;
            }
            if (c.names && !(error.fields ?? []).some((f) => f.field === c.names || f.field.startsWith(`${c.names}.`))) {
              wrong.push(`${label}: does not name ${c.names}`);
            }
          }
        }
      }
      expect(sent).to.be.greaterThan(300);
      expect(wrong, wrong.join('\n')).to.deep.equal([]);
      expect(await tableCounts()).to.deep.equal(before);
    });
  });
});
