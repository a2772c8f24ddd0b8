/**
 * The OpenAPI document (api/src/openapi) against the app it describes: valid OpenAPI 3.1
 * (swagger-parser), every route of the route table in it with its method, path parameters, body and
 * query, every route declaring what it answers, and the drift test: every route called as a caller
 * who may call it, with ids of real rows, and each answer checked against the document with ajv: a
 * success must be a documented status in its documented shape (a page with x-total-count, a file of
 * its type), an error must be the one error shape, and nothing may be a 5xx. Then /api/docs: Swagger
 * UI from the app's own files, nothing from another origin, no inline script.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase } from '@platform/db';
import { EMAIL_CAMPAIGNS, RESULT_LIST_CATEGORIES, TestResultStatus, type AccountSummary, type UserKind } from '@platform/domain';
import { issuePatientResultLink } from '@platform/server';
import { routeTable, samplePath, type RouteEntry } from '../../api/src/http/route-table';
import { openApiPath, type OpenApiDocument, type Operation } from '../../api/src/openapi/document';
import { buildTestApp, newSession, signIn, type Session, type TestApp } from '../support/http';
import { createResult } from '../support/fixtures/reports';
import { seedDemoData } from '../../scripts/seed';
import { DEMO_PASSWORD, DEMO_USERS, type DemoUserKey } from '../../scripts/demo-users';

interface Caller {
  name: string;
  session: Session;
  kind: UserKind | null;
  accounts: AccountSummary[];
  signInAgain?: () => Promise<Session>;
}

const label = (route: RouteEntry) => `${route.method.toUpperCase()} ${route.pattern}`;
const is2xx = (status: number) => status >= 200 && status < 300;

describe('The OpenAPI document of the REST API', function () {
  this.timeout(180_000);
  let t: TestApp;
  let routes: RouteEntry[];
  let doc: OpenApiDocument;
  let callers: Caller[];
  /** A value for each path parameter (and required query key) by name: ids of real rows of the test's database. */
  let values: Record<string, string>;
  let clinicAccountId: number;
  let researchAccountId: number;

  const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `platform_test_openapi_${randomBytes(4).toString('hex')}`;

  async function describeCaller(name: string, session: Session, signInAgain?: () => Promise<Session>): Promise<Caller> {
    const me = await session.agent.get('/api/auth/me');
    if (me.status !== 200) return { name, session, kind: null, accounts: [], signInAgain };
    return { name, session, kind: me.body.user.kind, accounts: me.body.accounts, signInAgain };
  }

  /** The first id of a model's rows, in the route's account where the model has one. */
  async function firstId(model: string, where: Record<string, unknown> = {}): Promise<string> {
    const models = t.ctx.db.models as unknown as Record<string, { findOne(o: unknown): Promise<{ id: number } | null> }>;
    const row = await models[model].findOne({ where, order: [['id', 'ASC']] });
    return String(row?.id ?? 1);
  }

  before(async () => {
    await createDatabase(ADMIN_URL, dbName);
    const db = connect(databaseUrl(ADMIN_URL, dbName));
    try {
      await createMigrator(db.sequelize).up();
      await seedDemoData(db);
    } finally {
      await db.close();
    }
    t = await buildTestApp({ DATABASE_URL: databaseUrl(ADMIN_URL, dbName), REDIS_PREFIX: `${process.env.REDIS_PREFIX}-openapi` });
    routes = routeTable(t.app);
    const res = await (await newSession(t.app, '10.9.8.1')).agent.get('/api/openapi.json').expect(200);
    doc = res.body as OpenApiDocument;

    const m = t.ctx.db.models;
    clinicAccountId = (await m.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
    researchAccountId = (await m.Account.findOne({ where: { name: 'Northwind Research' } }))!.id;
    // A released result and one in review: the result lists, the review list and the report have rows to answer.
    const released = await createResult(t.ctx.db, { accountId: clinicAccountId, physicianId: null });
    await createResult(t.ctx.db, { accountId: clinicAccountId, physicianId: null, resultStatus: TestResultStatus.InReview, sampleStatus: 'In Testing' });
    const { token } = await t.ctx.db.sequelize.transaction(async (transaction) =>
      issuePatientResultLink(t.ctx, transaction, (await m.Sample.findByPk(released.sampleId, { transaction }))!, (await m.Patient.findByPk(released.patientId, { transaction }))!, { createdByUserId: null }),
    );
    const patientLink = await newSession(t.app, '10.9.8.1');
    await patientLink.post('/api/reports/patient-result/verify-patient', { barcode: released.barcode, token, dateOfBirth: released.patient.dateOfBirth }).expect(200);

    values = {
      patientId: String(released.patientId),
      participantId: await firstId('Patient', { accountId: researchAccountId }),
      sampleId: String(released.sampleId),
      sampleRef: String(released.sampleId),
      barcode: released.barcode,
      dateOfBirth: released.patient.dateOfBirth,
      inTransitBarcode: (await m.Sample.findOne({ where: { accountId: clinicAccountId, status: 'In Transit' } }))!.barcode,
      token,
      contactId: await firstId('Contact'),
      planId: await firstId('InsurancePlan'),
      orderId: await firstId('Order', { accountId: clinicAccountId }),
      jobId: await firstId('Job'),
      emailId: await firstId('Email'),
      campaignId: await firstId('EmailCampaignRun'),
      followUpId: await firstId('SampleFollowUp'),
      extractionId: await firstId('DnaExtraction'),
      invitationId: await firstId('AccountInvitation'),
      plateId: await firstId('PcrPlate'),
      fileId: await firstId('StoredFile'),
      id: await firstId('StudyResponse'),
      campaign: EMAIL_CAMPAIGNS[0],
      category: RESULT_LIST_CATEGORIES[0],
      well: 'A1',
    };

    const demo = (who: DemoUserKey, portal: 'provider' | 'research' | 'lab' | 'admin') => () => signIn(t.app, who, portal, '10.9.8.1');
    callers = [await describeCaller('anonymous', await newSession(t.app, '10.9.8.1')), await describeCaller('patient with a verified result link', patientLink)];
    for (const [name, how] of [
      ['clinic super admin', demo('superAdmin', 'provider')],
      ['clinic physician', demo('physician', 'provider')],
      ['research provider', demo('researcher', 'research')],
      ['lab', demo('lab1', 'lab')],
      ['admin', demo('admin', 'admin')],
    ] as const) callers.push(await describeCaller(name, await how(), how));
  });

  after(async () => {
    await t?.close();
    await dropDatabase(ADMIN_URL, dbName);
  });

  const accountIdFor = (route: RouteEntry) =>
    route.policies.some((p) => p.type === 'account' && p.portal === 'research') ? researchAccountId : clinicAccountId;
  /** A path or query value by its name: the route's account, and in the research portal its participant. */
  const valueOf = (route: RouteEntry, name: string) => {
    if (name === 'accountId') return String(accountIdFor(route));
    if (name === 'patientId' && accountIdFor(route) === researchAccountId) return values.participantId;
    return values[name] ?? '1';
  };

  /** A caller the route's guards let through (the patient link for the result link's routes). */
  function ownerOf(route: RouteEntry): Caller {
    const guards = route.policies.filter((p) => p.type !== 'public');
    if (!guards.length) return callers[route.pattern.includes('/patient-result/') ? 1 : 0];
    const accountId = accountIdFor(route);
    const allowed = (c: Caller) =>
      c.kind !== null &&
      guards.every((p) => {
        if (p.type === 'user') return !p.kinds.length || p.kinds.includes(c.kind!);
        const account = c.accounts.find((a) => a.id === accountId);
        return !!account && (p.portal !== 'clinic' || account.clinicAccess) && (p.portal !== 'research' || account.researchAccess) && (!p.roles || p.roles.includes(account.role));
      });
    return callers.find(allowed) ?? callers[0];
  }

  /** The query a route's schema requires, from the same values as the path's. */
  function queryFor(route: RouteEntry): Record<string, string> {
    const query: Record<string, string> = {};
    for (const input of route.inputs.filter((i) => i.where === 'query')) {
      const keys = (input.schema.describe() as { keys?: Record<string, { flags?: { presence?: string } }> }).keys ?? {};
      for (const [key, d] of Object.entries(keys)) if (d.flags?.presence === 'required') query[key] = valueOf(route, key);
    }
    if (route.pattern.includes('/patient-result/') && route.method === 'get') query.token = values.token;
    return query;
  }

  /**
   * Valid bodies for routes whose success the sweep should reach (an empty body reaches only their
   * 400); every other state-changing route gets {} and its refusal is checked against the error shape.
   */
  function exampleBody(route: RouteEntry): unknown {
    const link = { barcode: values.barcode, token: values.token };
    const examples: Record<string, unknown> = {
      // The anonymous caller signs in here and out again on the next route (logout).
      'POST /api/auth/login': { email: DEMO_USERS.admin.email, password: DEMO_PASSWORD, portal: 'admin' },
      'POST /api/auth/switch-account': { accountId: clinicAccountId },
      'POST /api/auth/forgot-password': { email: 'nobody@demo.test', portal: 'provider' },
      'POST /api/provider-clinic/:accountId/patient/search': { q: 'Walter' },
      'POST /api/provider-clinic/:accountId/patient/exists': { firstName: 'John', lastName: 'Carter', dateOfBirth: '1956-03-14' },
      'POST /api/provider-clinic/:accountId/patient': { firstName: 'Olive', lastName: 'Openapi', dateOfBirth: '1960-01-01', sex: 'F' },
      'POST /api/provider-clinic/:accountId/patient/send-result-email': { sampleId: Number(values.sampleId) },
      'POST /api/sfpatient/search': { q: 'Walter' },
      'POST /api/admin/patients/search': { q: 'Walter' },
      'POST /api/admin/accounts/create': { name: 'OpenAPI Drift Clinic' },
      'POST /api/admin/insurance-plans/create': { name: 'OpenAPI Drift Plan' },
      'POST /api/admin/insurance-plans/:planId/update': { name: 'Medicare' },
      'POST /api/admin/lab-toolbox/users/create': { firstName: 'Olga', lastName: 'Drift', email: 'olga.drift@demo.test' },
      'POST /api/lab-toolbox/intake/receive': { barcode: values.inTransitBarcode, condition: 'acceptable', collectedAt: new Date(Date.now() - 60_000).toISOString(), identityConfirmed: true },
      'POST /api/admin/send-email/:campaign': { preview: true },
      'POST /api/lab-toolbox/storage/plates': { name: 'OA-DRIFT-1' },
      'POST /api/reports/patient-result/verify-patient': { ...link, dateOfBirth: values.dateOfBirth },
      'POST /api/reports/patient-result/log-view-result': link,
      'POST /api/reports/patient-result/set-language': { ...link, language: 'en' },
    };
    return examples[label(route)] ?? {};
  }

  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    expect(doc.openapi).to.equal('3.1.0');
    await SwaggerParser.validate(structuredClone(doc) as never);
  });

  it('names every route of the table with its method, path parameters, body and query', () => {
    expect(routes.length).to.be.greaterThan(100);
    const wrong: string[] = [];
    for (const route of routes) {
      const op = doc.paths[openApiPath(route.pattern)]?.[route.method] as Operation | undefined;
      if (!op) {
        wrong.push(`${label(route)}: missing`);
        continue;
      }
      const params = [...route.pattern.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const documented = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      if (documented.join() !== params.join()) wrong.push(`${label(route)}: path parameters ${documented.join()} instead of ${params.join()}`);
      for (const input of route.inputs) {
        if (input.where === 'body' && !op.requestBody?.content['application/json']?.schema) wrong.push(`${label(route)}: no JSON body`);
        if (input.where === 'query') {
          // A key the schema forbids (a list with one order has no sort) is no parameter.
          const described = (input.schema.describe() as { keys?: Record<string, { flags?: { presence?: string } }> }).keys ?? {};
          const keys = Object.keys(described).filter((k) => described[k].flags?.presence !== 'forbidden');
          const names = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
          const missing = keys.filter((k) => !names.includes(k));
          if (missing.length) wrong.push(`${label(route)}: query ${missing.join(', ')} missing`);
        }
      }
      if (!op.responses.default) wrong.push(`${label(route)}: no error answer`);
    }
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
    expect(operations, 'operations the table does not have').to.equal(routes.length);
  });

  it('has every route declare what it answers (answers(), api/src/http/answers.ts)', () => {
    const undeclared = routes.filter((r) => !r.answers.length).map(label);
    expect(undeclared, `routes with no answers() declaration:\n${undeclared.join('\n')}`).to.deep.equal([]);
  });

  it('answers every route as the document says (the drift test)', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    const compiled = new Map<object, ValidateFunction>();
    const check = (schema: object, body: unknown) => {
      if (!compiled.has(schema)) compiled.set(schema, ajv.compile(schema));
      const validate = compiled.get(schema)!;
      return validate(body) ? null : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`).join('; ');
    };
    const errorSchema = doc.components.schemas.Error;

    const wrong: string[] = [];
    const checkedSuccess: string[] = [];
    for (const route of routes) {
      const caller = ownerOf(route);
      const path = samplePath(route.pattern, (name) => valueOf(route, name));
      const agent = caller.session.agent as unknown as Record<string, (p: string) => import('supertest').Test>;
      let req = agent[route.method](path).query(queryFor(route)).set('X-Forwarded-For', '10.9.8.1');
      if (route.method !== 'get') req = req.set('x-csrf-token', caller.session.csrf).send(exampleBody(route) as object);
      const res: Response = await req;
      const where = `${label(route)} as ${caller.name}: ${res.status}`;
      const op = doc.paths[openApiPath(route.pattern)]?.[route.method] as Operation | undefined;
      if (!op) continue; // reported by the test above
      if (res.status >= 500) {
        wrong.push(`${where} (a server error) ${JSON.stringify(res.body).slice(0, 300)}`);
      } else if (!is2xx(res.status)) {
        const problem = check(errorSchema, res.body);
        if (problem) wrong.push(`${where}: not the error shape: ${problem}`);
      } else {
        const documented = op.responses[String(res.status)] as { content?: Record<string, { schema: object }>; headers?: Record<string, unknown> } | undefined;
        const answer = route.answers.find((a) => a.status === res.status);
        if (!documented || !answer) {
          wrong.push(`${where}: status not documented (documented: ${route.answers.map((a) => a.status).join(', ') || 'none'})`);
        } else if (answer.contentType === 'application/json') {
          const problem = check(documented.content!['application/json'].schema, res.body);
          if (problem) wrong.push(`${where}: ${problem}`);
          else checkedSuccess.push(label(route));
          for (const header of answer.headers ?? []) if (res.headers[header] === undefined) wrong.push(`${where}: no ${header} header`);
        } else if (answer.contentType) {
          if (!String(res.headers['content-type']).startsWith(answer.contentType)) wrong.push(`${where}: ${res.headers['content-type']} instead of ${answer.contentType}`);
          else checkedSuccess.push(label(route));
        } else if (res.text) {
          wrong.push(`${where}: a body where none is documented`);
        } else {
          checkedSuccess.push(label(route));
        }
      }
      // A route that signed its caller out (sign-out itself): sign in again for the next route.
      if (caller.signInAgain && route.method !== 'get' && is2xx(res.status) && (await caller.session.agent.get('/api/auth/me')).status === 401) {
        caller.session = await caller.signInAgain();
      }
    }
    expect(wrong, wrong.join('\n')).to.deep.equal([]);
    // The sweep must keep reaching real answers, not only refusals: a floor under what it reaches today.
    expect(checkedSuccess.length, `successful answers checked: ${checkedSuccess.join(', ')}`).to.be.at.least(75);
  });

  describe('the reference page /api/docs', () => {
    let page: Response;
    before(async () => {
      page = await (await newSession(t.app, '10.9.8.1')).agent.get('/api/docs');
    });

    it('is Swagger UI from the app itself: every script and style from /api/docs/, none inline, nothing from another origin', async () => {
      expect(page.status).to.equal(200);
      expect(page.headers['content-type']).to.match(/^text\/html/);
      const html = page.text;
      expect(html).not.to.match(/https?:\/\//);
      const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]);
      expect(scripts.length).to.be.greaterThan(1);
      for (const attrs of scripts) expect(attrs, 'an inline script').to.match(/\bsrc="\/api\/docs\/[^"]+"/);
      const urls = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      const agent = (await newSession(t.app, '10.9.8.1')).agent;
      for (const url of urls) {
        expect(url, 'a file of the app').to.match(/^\/api\/docs\//);
        const asset = await agent.get(url);
        expect(asset.status, url).to.equal(200);
        expect(asset.headers['content-type'], url).to.match(/javascript|css/);
      }
      const start = await agent.get('/api/docs/start.js');
      expect(start.text).to.include("url: '/api/openapi.json'");
      expect(start.text).not.to.match(/https?:\/\//);
    });

    it("runs under the app's Content-Security-Policy (script-src 'self', no inline script allowed)", () => {
      const csp = String(page.headers['content-security-policy']);
      const scriptSrc = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('script-src'));
      expect(scriptSrc).to.match(/'self'/);
      expect(scriptSrc).not.to.match(/unsafe-inline|unsafe-eval/);
    });
  });
});
