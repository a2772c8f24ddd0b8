/**
 * An account's API clients and OAuth 2.0 client credentials (issue 27, items 1 and 2): the Super
 * Admin (or the lab's admin) creates, lists and revokes clients; the secrets are answered once;
 * /oauth2/token answers RFC 6749's shapes; a bearer token opens /fhir/R4 for its account only, a
 * revoked client's token stops at once, and every use and change is in the audit trail.
 */
import { expect } from 'chai';
import request from 'supertest';
import { QueryTypes } from 'sequelize';
import { AccountRole, AccountType, Specialty } from '@platform/domain';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { freshNpi } from '../support/fixtures/npi';

interface Created {
  clientId: string;
  clientSecret: string;
  webhookSecret: string | null;
  client: { clientId: string; name: string; webhookUrl: string | null; revokedAt: string | null; createdBy: string | null };
}

describe('API clients and OAuth 2.0 client credentials', function () {
  this.timeout(60_000);
  let t: TestApp;
  let superAdmin: Session;
  let physician: Session;
  let admin: Session;
  let accountId: number;
  let otherAccountId: number;

  before(async () => {
    t = await buildTestApp();
    superAdmin = await signIn(t.app, 'superAdmin', 'provider', '10.71.0.1');
    physician = await signIn(t.app, 'physician', 'provider', '10.71.0.2');
    admin = await signIn(t.app, 'admin', 'admin', '10.71.0.3');
    const me = (await superAdmin.agent.get('/api/auth/me').expect(200)).body as { accounts: { id: number; role: string }[] };
    accountId = me.accounts.find((a) => a.role === AccountRole.SuperAdmin)!.id;
    otherAccountId = ((await admin.post('/api/admin/accounts/create', {
      name: `Harbor Oncology ${Date.now()}`, type: AccountType.General, clinicAccess: true, departments: [],
      physicians: [{ firstName: 'Ines', lastName: 'Okafor', npi: freshNpi(), specialty: Specialty.RadiationOncology }],
    }).expect(201)).body as { id: number }).id;
  });
  after(async () => {
    await t?.close();
  });

  const clientsPath = (id: number) => `/api/provider-clinic/${id}/api-clients`;
  const create = (session: Session, body: object, path = clientsPath(accountId)) => session.post(path, body);
  const del = (session: Session, path: string) => session.agent.delete(path).set('x-csrf-token', session.csrf).set('X-Forwarded-For', '10.71.0.9');
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
  const token = (fields: Record<string, string>, headers: Record<string, string> = {}, ip = '10.72.0.1') =>
    request(t.app).post('/oauth2/token').type('form').set('X-Forwarded-For', ip).set(headers).send(fields);
  const audits = (action: string, clientId: string) => t.ctx.db.sequelize.query<{ actor_kind: string; actor_user_id: string | null; details: Record<string, unknown> }>(
    `SELECT actor_kind, actor_user_id, details FROM audit_events WHERE action = :action AND (details->>'clientId' = :clientId OR details->>'apiClientId' = :clientId) ORDER BY id`,
    { replacements: { action, clientId }, type: QueryTypes.SELECT },
  );

  it("answers a new client's secrets once, lists it without them, and audits the creation", async () => {
    const res = await create(superAdmin, { name: 'Practice EHR', webhookUrl: 'https://ehr.example.org/hooks/results' }).expect(201);
    const created = res.body as Created;
    expect(res.headers['cache-control']).to.equal('no-store');
    expect(created.clientId).to.match(/^pc_[0-9a-f]{24}$/);
    expect(created.clientSecret).to.have.length.greaterThan(40);
    // Standard Webhooks: whsec_ and base64 of 24 to 64 bytes.
    expect(created.webhookSecret).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.webhookSecret!.slice('whsec_'.length), 'base64').length).to.be.within(24, 64);
    expect(created.client).to.include({ name: 'Practice EHR', webhookUrl: 'https://ehr.example.org/hooks/results', revokedAt: null, createdBy: 'Sue Perry' });

    const list = (await superAdmin.agent.get(clientsPath(accountId)).expect(200)).body as Record<string, unknown>[];
    const listed = list.find((c) => c.clientId === created.clientId)!;
    expect(listed).to.include({ name: 'Practice EHR', lastUsedAt: null });
    expect(JSON.stringify(list)).not.to.include(created.clientSecret).and.not.to.include(created.webhookSecret!);
    // Only the secret's hash is kept.
    const [row] = await t.ctx.db.sequelize.query<{ secret_hash: string }>('SELECT secret_hash FROM api_clients WHERE client_id = :id', { replacements: { id: created.clientId }, type: QueryTypes.SELECT });
    expect(row.secret_hash).not.to.include(created.clientSecret);
    const [audit] = await audits('api_client.create', created.clientId);
    expect(audit.actor_kind).to.equal('provider');
  });

  it('needs no webhook, and refuses a bad one naming the field', async () => {
    const created = (await create(superAdmin, { name: 'Reader only' }).expect(201)).body as Created;
    expect(created.webhookSecret).to.equal(null);
    const bad = await create(superAdmin, { name: 'Bad hook', webhookUrl: 'ftp://example.org/x' }).expect(400);
    expect(bad.body.error.fields).to.deep.include({ field: 'webhookUrl', message: 'Webhook URL must be an https:// address' });
    const noName = await create(superAdmin, { name: '  ' }).expect(400);
    expect(noName.body.error.fields[0].field).to.equal('name');
  });

  it("is the Super Admin's and the lab admin's alone: a physician 403, another account's id 404", async () => {
    await create(physician, { name: 'Sneaky' }).expect(403);
    await physician.agent.get(clientsPath(accountId)).expect(403);
    await create(superAdmin, { name: 'Elsewhere' }, clientsPath(otherAccountId)).expect(404);
    // The admin, for any account.
    const viaAdmin = (await create(admin, { name: 'Harbor EHR' }, `/api/admin/accounts/${otherAccountId}/api-clients`).expect(201)).body as Created;
    const list = (await admin.agent.get(`/api/admin/accounts/${otherAccountId}/api-clients`).expect(200)).body as { clientId: string }[];
    expect(list.map((c) => c.clientId)).to.include(viaAdmin.clientId);
    await admin.agent.get('/api/admin/accounts/999999999/api-clients').expect(404);
    // A Super Admin cannot revoke another account's client by its id.
    await del(superAdmin, `${clientsPath(accountId)}/${viaAdmin.clientId}`).expect(404);
  });

  it('issues a 5-minute bearer token with client_secret_basic and client_secret_post, in RFC 6749 shapes', async () => {
    const created = (await create(superAdmin, { name: 'Token test' }).expect(201)).body as Created;
    const viaBasic = await token({ grant_type: 'client_credentials' }, { authorization: basic(created.clientId, created.clientSecret) }).expect(200);
    expect(viaBasic.headers['cache-control']).to.equal('no-store');
    expect(viaBasic.body).to.include({ token_type: 'Bearer', expires_in: 300, scope: 'system/*.rs' });
    expect(viaBasic.body.access_token).to.be.a('string');
    const viaPost = await token({ grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret, scope: 'system/DiagnosticReport.rs system/Observation.rs' }).expect(200);
    expect(viaPost.body.scope).to.equal('system/DiagnosticReport.rs system/Observation.rs');

    const wrong = await token({ grant_type: 'client_credentials' }, { authorization: basic(created.clientId, 'not-the-secret') }).expect(401);
    expect(wrong.body).to.deep.equal({ error: 'invalid_client', error_description: 'Unknown client or wrong secret' });
    expect(wrong.headers['www-authenticate']).to.match(/^Basic /);
    expect((await token({ grant_type: 'client_credentials', client_id: 'pc_000000000000000000000000', client_secret: 'x' }).expect(401)).body.error).to.equal('invalid_client');
    expect((await token({ grant_type: 'password', client_id: created.clientId, client_secret: created.clientSecret }).expect(400)).body.error).to.equal('unsupported_grant_type');
    expect((await token({ grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret, scope: 'system/Patient.cruds' }).expect(400)).body.error).to.equal('invalid_scope');
    expect((await token({ grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret, scope: 'system/Account.rs' }).expect(400)).body.error).to.equal('invalid_scope');
    expect((await token({ grant_type: 'client_credentials' }).expect(401)).body.error).to.equal('invalid_client');
    // JSON is not the token endpoint's body (RFC 6749 §4.4.2).
    const json = await request(t.app).post('/oauth2/token').send({ grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret }).expect(400);
    expect(json.body.error).to.equal('invalid_request');

    const tokens = await audits('api_client.token', created.clientId);
    expect(tokens).to.have.length(2);
    expect(tokens[0]).to.include({ actor_kind: 'api_client', actor_user_id: null });
    const list = (await superAdmin.agent.get(clientsPath(accountId)).expect(200)).body as { clientId: string; lastUsedAt: string | null }[];
    expect(list.find((c) => c.clientId === created.clientId)!.lastUsedAt).to.be.a('string');
  });

  it('opens /fhir/R4 to a live token within its scopes, and a revoked client stops at once', async () => {
    const created = (await create(superAdmin, { name: 'Revoke test' }).expect(201)).body as Created;
    const all = (await token({ grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret }).expect(200)).body.access_token as string;
    const reportsOnly = (await token({ grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret, scope: 'system/DiagnosticReport.rs' }).expect(200)).body.access_token as string;
    const fhir = (path: string, bearer?: string) => {
      const req = request(t.app).get(`/fhir/R4${path}`);
      return bearer ? req.set('authorization', `Bearer ${bearer}`) : req;
    };

    const metadata = await fhir('/metadata').expect(200);
    expect(metadata.headers['content-type']).to.match(/^application\/fhir\+json/);
    expect(metadata.body.resourceType).to.equal('CapabilityStatement');

    const anonymous = await fhir('/Patient').expect(401);
    expect(anonymous.body.resourceType).to.equal('OperationOutcome');
    expect(anonymous.headers['www-authenticate']).to.match(/^Bearer /);
    const bogus = await fhir('/Patient', 'not-a-token').expect(401);
    expect(bogus.body.issue[0].code).to.equal('login');

    expect((await fhir('/Patient', all).expect(200)).body).to.include({ resourceType: 'Bundle', type: 'searchset' });
    const outOfScope = await fhir('/Patient', reportsOnly).expect(403);
    expect(outOfScope.body.issue[0]).to.include({ code: 'forbidden' });
    await fhir('/DiagnosticReport', reportsOnly).expect(200);
    expect((await fhir('/Medication', all).expect(404)).body.resourceType).to.equal('OperationOutcome');
    expect((await request(t.app).post('/fhir/R4/Patient').set('authorization', `Bearer ${all}`).send({}).expect(405)).body.resourceType).to.equal('OperationOutcome');

    const revoked = (await del(superAdmin, `${clientsPath(accountId)}/${created.clientId}`).expect(200)).body as { revokedAt: string | null };
    expect(revoked.revokedAt).to.be.a('string');
    await fhir('/Patient', all).expect(401);
    await fhir('/DiagnosticReport', reportsOnly).expect(401);
    expect((await token({ grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret }).expect(401)).body.error).to.equal('invalid_client');
    const [audit] = await audits('api_client.revoke', created.clientId);
    expect(audit.actor_kind).to.equal('provider');
  });

  it('throttles token requests per client', async () => {
    const created = (await create(superAdmin, { name: 'Throttle test' }).expect(201)).body as Created;
    const ask = (i: number) => token({ grant_type: 'client_credentials', client_id: created.clientId, client_secret: 'wrong' }, {}, `10.73.${Math.floor(i / 200)}.${i % 200}`);
    for (let i = 0; i < 60; i++) await ask(i).expect(401);
    const refused = await ask(61).expect(429);
    expect(refused.body.error).to.equal('temporarily_unavailable');
    expect(Number(refused.headers['retry-after'])).to.be.greaterThan(0);
    // Even the right secret waits: the allowance is the client's, whoever asks.
    await token({ grant_type: 'client_credentials', client_id: created.clientId, client_secret: created.clientSecret }, {}, '10.74.0.1').expect(429);
  });
});
