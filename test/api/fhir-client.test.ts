/**
 * The FHIR R4 API as a clinic's system meets it (issue 27): a real FHIR client (fhir-kit-client)
 * against the running API with a token from /oauth2/token: the CapabilityStatement, a
 * DiagnosticReport search with _include over more than one page, a read, and a vread of the
 * version a correction replaced. Every resource the client receives is validated against the
 * official structure definitions (@medplum/core): 0 errors.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { expect } from 'chai';
import { Client } from 'fhir-kit-client';
import request from 'supertest';
import type { Bundle, CapabilityStatement, DiagnosticReport, Resource } from '@medplum/fhirtypes';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startServer } from '../support/server';
import { fhirErrors } from '../support/fhir';
import { makeResult, makeSample, SampleStatus, TestName, TestResultStatus, userId, type SampleFixture } from '../support/fixtures/lab';
import { createAccount } from '../support/fixtures/campaigns';
import { freePort } from '../../scripts/product-process';

describe('FHIR R4 API with a FHIR client', function () {
  this.timeout(90_000);
  let t: TestApp;
  let api: Awaited<ReturnType<typeof startServer>>;
  let admin: Session;
  let lab1: Session;
  let lab2: Session;
  let lab1Id: number;
  let accountId: number;
  let client: Client;
  const samples: SampleFixture[] = [];
  const met: Resource[] = [];
  const seen = <T extends Resource>(r: T): T => {
    met.push(r);
    return r;
  };

  before(async () => {
    // The API on a port of its own, its PUBLIC_URL that address: the Bundle's links are followed as they are.
    const port = await freePort();
    const env = { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };
    api = await startServer(env);
    t = await buildTestApp(env);
    admin = await signIn(t.app, 'admin', 'admin', '10.91.0.1');
    lab1 = await signIn(t.app, 'lab1', 'lab', '10.91.0.2');
    lab2 = await signIn(t.app, 'lab2', 'lab', '10.91.0.3');
    lab1Id = await userId(t.ctx.db, 'lab1');
    accountId = (await createAccount(t.ctx.db, 'FHIR')).id;

    // Three released PROSTOX results in the account; the first is then corrected.
    for (const value of ['High Risk', 'Low Risk', 'Low Risk']) {
      const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
      await t.ctx.db.sequelize.query(
        `UPDATE samples SET account_id = :accountId WHERE id = :id;
         UPDATE orders SET account_id = :accountId WHERE id = (SELECT order_id FROM samples WHERE id = :id);
         UPDATE patients SET account_id = :accountId WHERE id = :patientId;`,
        { replacements: { accountId, id: s.id, patientId: s.patientId } },
      );
      const r = await makeResult(t.ctx.db, s.testIds[0], value, lab1Id);
      await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [r.id] }).expect(200);
      samples.push(s);
    }
    await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: samples[0].barcode, value: 'Low Risk', reason: 'Transcription error' }).expect(201);
    const correction = await t.ctx.db.models.TestResult.findOne({ where: { testId: samples[0].testIds[0], status: TestResultStatus.InReview } });
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [correction!.id] }).expect(200);

    const created = (await admin.post(`/api/admin/accounts/${accountId}/api-clients`, { name: 'FHIR client test' }).expect(201)).body;
    const token = await request(api.baseUrl).post('/oauth2/token').auth(created.clientId, created.clientSecret)
      .type('form').send({ grant_type: 'client_credentials', scope: 'system/*.rs' }).expect(200);
    client = new Client({ baseUrl: `${api.baseUrl}/fhir/R4`, customHeaders: { Authorization: `Bearer ${token.body.access_token}` } });
  });
  after(async () => {
    await t?.close();
    await api?.stop();
  });

  it('reads the CapabilityStatement: every resource, its interactions and search parameters, and the token endpoint', async () => {
    const cs = seen((await client.capabilityStatement()) as unknown as CapabilityStatement);
    expect(cs.fhirVersion).to.equal('4.0.1');
    const types = cs.rest![0].resource!.map((r) => r.type);
    expect(types).to.include.members(['Patient', 'Practitioner', 'Organization', 'ServiceRequest', 'Specimen', 'DiagnosticReport', 'Observation']);
    const report = cs.rest![0].resource!.find((r) => r.type === 'DiagnosticReport')!;
    expect(report.interaction!.map((i) => i.code)).to.include.members(['read', 'vread', 'search-type']);
    expect(report.searchInclude).to.include.members(['DiagnosticReport:result', 'DiagnosticReport:specimen']);
    expect(report.searchParam!.map((p) => p.name)).to.include.members(['patient', 'subject', 'identifier', 'status', 'date', '_lastUpdated', 'code']);
    const oauth = cs.rest![0].security!.extension![0].extension!.find((e) => e.url === 'token');
    expect(oauth!.valueUri).to.equal(`${api.baseUrl}/oauth2/token`);
  });

  it('searches DiagnosticReports with _include across pages, reads one, and vreads the version its correction replaced', async () => {
    const first = (await client.search({
      resourceType: 'DiagnosticReport',
      searchParams: { _include: ['DiagnosticReport:result', 'DiagnosticReport:specimen'], _count: 2 },
    })) as unknown as Bundle;
    seen(first);
    expect(first).to.include({ type: 'searchset', total: 3 });
    const matches = (b: Bundle) => (b.entry ?? []).filter((e) => e.search?.mode === 'match').map((e) => e.resource as DiagnosticReport);
    const included = (b: Bundle) => (b.entry ?? []).filter((e) => e.search?.mode === 'include').map((e) => e.resource!.resourceType);
    expect(matches(first)).to.have.length(2);
    expect(included(first)).to.include.members(['Observation', 'Specimen']);
    expect(first.link!.some((l) => l.relation === 'next')).to.equal(true);

    const second = (await client.nextPage({ bundle: first as never })) as unknown as Bundle;
    seen(second);
    expect(matches(second)).to.have.length(1);
    expect(second.link!.some((l) => l.relation === 'next')).to.equal(false);
    const all = [...matches(first), ...matches(second)];
    expect(all.map((r) => r.id).sort()).to.deep.equal(samples.map((s) => String(s.testIds[0])).sort());
    for (const e of [...(first.entry ?? []), ...(second.entry ?? [])]) seen(e.resource!);

    const correctedId = String(samples[0].testIds[0]);
    const now = seen((await client.read({ resourceType: 'DiagnosticReport', id: correctedId })) as unknown as DiagnosticReport);
    expect(now.status).to.equal('corrected');
    expect(now.meta!.versionId).to.equal('2');
    expect(now.presentedForm?.length ?? 0).to.be.greaterThan(0);
    const before = seen((await client.vread({ resourceType: 'DiagnosticReport', id: correctedId, version: '1' })) as unknown as DiagnosticReport);
    expect(before.status).to.equal('final');
    expect(before.meta!.versionId).to.equal('1');
    const value = seen((await client.read({ resourceType: 'Observation', id: correctedId })) as unknown as Resource);
    expect(JSON.stringify(value)).to.include('Low Risk');
  });

  it("answers another account's report as not found, in an OperationOutcome", async () => {
    const elsewhere = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    const r = await makeResult(t.ctx.db, elsewhere.testIds[0], 'High Risk', lab1Id);
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [r.id] }).expect(200);
    let status = 0;
    let outcome: Resource | undefined;
    try {
      await client.read({ resourceType: 'DiagnosticReport', id: String(elsewhere.testIds[0]) });
    } catch (err) {
      status = (err as { response?: { status: number; data?: Resource } }).response?.status ?? 0;
      outcome = (err as { response?: { data?: Resource } }).response?.data;
    }
    expect(status).to.equal(404);
    expect(outcome?.resourceType).to.equal('OperationOutcome');
    seen(outcome!);
  });

  it('every resource the client met is valid FHIR R4 (0 errors)', () => {
    expect(met.length).to.be.greaterThan(10);
    expect(met.flatMap(fhirErrors)).to.deep.equal([]);
  });
});
