/**
 * Signed result notices to an API client's webhook (issue 27, item 4), against a local receiver
 * that checks every signature with the `standardwebhooks` library (not the code that signed them):
 * a release, a correction and a rejection each tell the client once; a receiver that fails is
 * retried until it answers, each attempt logged; a redelivery keeps the webhook-id (a replay the
 * receiver recognises); a research participant and another account's samples are never told of.
 */
import { DEMO_PASSWORD } from '../../scripts/demo-users';
import { expect } from 'chai';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { QueryTypes } from 'sequelize';
import { Webhook } from 'standardwebhooks';
import type { RunningWorker } from '@platform/worker';
import { attemptWebhookDelivery } from '@platform/server';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';
import { startTestWorker } from '../support/server';
import { jobsSettled } from '../support/jobs';
import { until } from '../support/wait';
import { makeResult, makeSample, SampleStatus, TestName, TestResultStatus, userId, type SampleFixture } from '../support/fixtures/lab';
import { createAccount } from '../support/fixtures/campaigns';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  verified: { type: string; timestamp: string; data: { diagnosticReport: string; sample: string } } | null;
}

/** A receiver as a clinic would write one: verifies with the library, answers 500 while told to fail. */
class Receiver {
  received: Received[] = [];
  failNext = 0;
  secret = '';
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: Received['verified'] = null;
      try {
        verified = new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as Received['verified'];
      } catch {
        verified = null;
      }
      this.received.push({ headers: req.headers, body, verified });
      if (this.failNext > 0) {
        this.failNext -= 1;
        res.writeHead(500).end('down for maintenance');
        return;
      }
      res.writeHead(verified ? 204 : 401).end();
    });
  });
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/results`;
  }
  close = () => new Promise<void>((resolve) => this.server.close(() => resolve()));
  of = (barcode: string) => this.received.filter((r) => r.verified?.data.sample === barcode);
}

describe('result webhooks (Standard Webhooks, through the outbox)', function () {
  this.timeout(90_000);
  const FAST = { WEBHOOK_RETRY_BASE_MS: '150' };
  let t: TestApp;
  let worker: RunningWorker;
  let admin: Session;
  let lab2: Session;
  let lab1Id: number;
  let receiver: Receiver;
  let accountId: number;
  let clientId: string;

  before(async () => {
    t = await buildTestApp(FAST);
    worker = await startTestWorker(FAST);
    admin = await signIn(t.app, 'admin', 'admin', '10.81.0.1');
    lab2 = await signIn(t.app, 'lab2', 'lab', '10.81.0.2');
    lab1Id = await userId(t.ctx.db, 'lab1');
    receiver = new Receiver();
    const url = await receiver.start();
    accountId = (await createAccount(t.ctx.db, 'Webhooks')).id;
    const created = (await admin.post(`/api/admin/accounts/${accountId}/api-clients`, { name: 'Clinic EHR', webhookUrl: url }).expect(201)).body;
    clientId = created.clientId;
    receiver.secret = created.webhookSecret;
  });
  after(async () => {
    // Revoked: nothing this file's samples do later is sent to a receiver that is gone.
    if (clientId) await admin.agent.delete(`/api/admin/accounts/${accountId}/api-clients/${clientId}`).set('x-csrf-token', admin.csrf);
    await worker?.close();
    await receiver?.close();
    await t?.close();
  });

  /** A sample In Testing, moved to this file's account, with a result in review entered by lab1. */
  async function sampleInReview(value = 'High Risk'): Promise<SampleFixture & { resultId: number }> {
    const s = await makeSample(t.ctx.db, { status: SampleStatus.InTesting, tests: [TestName.ProstoxUltra] });
    await moveToAccount(s);
    const r = await makeResult(t.ctx.db, s.testIds[0], value, lab1Id);
    return { ...s, resultId: r.id };
  }
  async function moveToAccount(s: SampleFixture) {
    await t.ctx.db.sequelize.query(
      `UPDATE samples SET account_id = :accountId WHERE id = :id;
       UPDATE orders SET account_id = :accountId WHERE id = (SELECT order_id FROM samples WHERE id = :id);
       UPDATE patients SET account_id = :accountId WHERE id = :patientId;`,
      { replacements: { accountId, id: s.id, patientId: s.patientId } },
    );
  }
  const deliveriesOf = (sampleId: number) => t.ctx.db.sequelize.query<{ id: string; message_id: string; status: string; attempts: number; event_type: string }>(
    'SELECT id, message_id, status, attempts, event_type FROM webhook_deliveries WHERE sample_id = :sampleId ORDER BY id', { replacements: { sampleId }, type: QueryTypes.SELECT },
  );
  /** Every deliver-webhook job of the sample's deliveries, settled (Completed or Failed). */
  async function deliveriesSettled(sampleId: number, count: number) {
    const rows = await until(async () => {
      const d = await deliveriesOf(sampleId);
      return d.length >= count ? d : null;
    }, { what: `${count} deliveries of sample ${sampleId}` });
    const jobs = await t.ctx.db.sequelize.query<{ id: string }>(
      `SELECT (payload->>'jobRowId')::bigint AS id FROM outbox WHERE job_name = 'deliver-webhook' AND (payload->'payload'->>'deliveryId')::bigint IN (:ids)`,
      { replacements: { ids: rows.map((r) => Number(r.id)) }, type: QueryTypes.SELECT },
    );
    await jobsSettled(t.ctx, jobs.map((j) => Number(j.id)), { what: 'the webhook deliveries' });
    return deliveriesOf(sampleId);
  }

  it('tells the client of a release once, signed so that the library verifies it', async () => {
    const s = await sampleInReview();
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [s.resultId] }).expect(200);
    const [delivery] = await deliveriesSettled(s.id, 1);
    expect(delivery).to.include({ status: 'Delivered', attempts: 1, event_type: 'result.released' });
    const got = receiver.of(s.barcode);
    expect(got).to.have.length(1);
    expect(got[0].verified).to.deep.include({ type: 'result.released', data: { diagnosticReport: `DiagnosticReport/${s.testIds[0]}`, sample: s.barcode } });
    expect(got[0].headers['webhook-id']).to.equal(delivery.message_id);
    expect(got[0].headers['webhook-signature']).to.match(/^v1,/);
    // Nothing of the result itself leaves in the notice: the client reads it through FHIR.
    expect(got[0].body).not.to.include('High Risk');
    // A body changed on the way fails the library's check.
    expect(() => new Webhook(receiver.secret).verify(got[0].body.replace('released', 'corrected'), got[0].headers as Record<string, string>)).to.throw();
  });

  it('retries a receiver that fails until it answers, logging every attempt, and a correction is its own notice', async () => {
    const s = await sampleInReview('Low Risk');
    receiver.failNext = 2;
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [s.resultId] }).expect(200);
    const [delivery] = await deliveriesSettled(s.id, 1);
    expect(delivery).to.include({ status: 'Delivered', attempts: 3 });
    const attempts = await t.ctx.db.sequelize.query<{ status_code: number; error: string | null }>(
      'SELECT status_code, error FROM webhook_delivery_attempts WHERE delivery_id = :id ORDER BY id', { replacements: { id: delivery.id }, type: QueryTypes.SELECT },
    );
    expect(attempts.map((a) => a.status_code)).to.deep.equal([500, 500, 204]);
    expect(attempts[0].error).to.equal('The receiver answered 500');
    // Three requests, one message: the receiver can tell the retries are one notice.
    expect(new Set(receiver.of(s.barcode).map((r) => r.headers['webhook-id']))).to.deep.equal(new Set([delivery.message_id]));

    const lab1 = await signIn(t.app, 'lab1', 'lab', '10.81.0.4');
    await lab1.post('/api/lab-toolbox/results/correct', { password: DEMO_PASSWORD, sampleBarcode: s.barcode, value: 'High Risk', reason: 'Transcription error' }).expect(201);
    const correction = await t.ctx.db.models.TestResult.findOne({ where: { testId: s.testIds[0], status: TestResultStatus.InReview } });
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [correction!.id] }).expect(200);
    const both = await deliveriesSettled(s.id, 2);
    expect(both.map((d) => d.event_type)).to.deep.equal(['result.released', 'result.corrected']);
    expect(receiver.of(s.barcode).at(-1)!.verified!.type).to.equal('result.corrected');
  });

  it("tells of a sample's rejection, and redelivers the same message on request", async () => {
    const s = await sampleInReview();
    await lab2.post('/api/lab-toolbox/import-tests-reject', {
      resultIds: [s.resultId], reason: 'Degraded DNA', sampleOutcome: 'reject-sample', rejectionReason: 'Rejected - quantity not sufficient',
    }).expect(200);
    const [delivery] = await deliveriesSettled(s.id, 1);
    expect(delivery).to.include({ event_type: 'sample.rejected', status: 'Delivered' });

    const log = (await admin.agent.get(`/api/admin/accounts/${accountId}/api-clients/${clientId}/deliveries`).expect(200)).body as { id: number; sample: string; status: string; lastStatusCode: number }[];
    expect(log.find((d) => d.id === Number(delivery.id))).to.include({ sample: s.barcode, status: 'Delivered', lastStatusCode: 204 });
    await admin.post(`/api/admin/accounts/${accountId}/api-clients/${clientId}/deliveries/${delivery.id}/redeliver`).expect(200);
    await until(() => receiver.of(s.barcode).length === 2, { what: 'the redelivery' });
    const [first, again] = receiver.of(s.barcode);
    expect(again.headers['webhook-id']).to.equal(first.headers['webhook-id']);
    expect(again.verified).to.deep.equal(first.verified);
    // Another account's Super Admin cannot read or redeliver this client's notices.
    const superAdmin = await signIn(t.app, 'superAdmin', 'provider', '10.81.0.3');
    const me = (await superAdmin.agent.get('/api/auth/me').expect(200)).body as { accounts: { id: number }[] };
    await superAdmin.agent.get(`/api/provider-clinic/${me.accounts[0].id}/api-clients/${clientId}/deliveries`).expect(404);
  });

  it('logs every attempt of deliveries attempted at the same moment, two of one delivery included', async () => {
    const s = await sampleInReview();
    // Delivery rows without jobs: these attempts are the test's own, side by side (their reads and logs share statements).
    const ids = (await t.ctx.db.sequelize.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (api_client_id, message_id, event_type, body, sample_id)
       SELECT c.id, 'msg_same_moment_' || g || '_' || :sampleId, 'result.released',
              jsonb_build_object('type', 'result.released', 'timestamp', now(), 'data', jsonb_build_object('diagnosticReport', 'DiagnosticReport/' || :testId, 'sample', :barcode)), :sampleId
         FROM api_clients c CROSS JOIN generate_series(1, 5) AS g WHERE c.client_id = :clientId ORDER BY g RETURNING id`,
      { replacements: { sampleId: s.id, testId: s.testIds[0], barcode: s.barcode, clientId }, type: QueryTypes.SELECT },
    )).map((r) => Number(r.id));
    const outcomes = await Promise.all([...ids, ids[0]].map((id) => attemptWebhookDelivery(t.ctx, id)));
    expect(outcomes.every((o) => 'delivered' in o && o.statusCode === 204)).to.equal(true);
    const rows = await deliveriesOf(s.id);
    expect(rows.map((d) => [d.status, d.attempts])).to.deep.equal([['Delivered', 2], ['Delivered', 1], ['Delivered', 1], ['Delivered', 1], ['Delivered', 1]]);
    const logged = await t.ctx.db.sequelize.query<{ delivery_id: string; n: number }>(
      'SELECT delivery_id, count(*)::int AS n FROM webhook_delivery_attempts WHERE delivery_id IN (:ids) GROUP BY delivery_id ORDER BY delivery_id',
      { replacements: { ids }, type: QueryTypes.SELECT },
    );
    expect(logged.map((l) => l.n)).to.deep.equal([2, 1, 1, 1, 1]);
    expect(receiver.of(s.barcode)).to.have.length(6);
  });

  it("never tells of a research participant's sample", async () => {
    const s = await sampleInReview();
    await t.ctx.db.sequelize.query('UPDATE orders SET research_project_id = (SELECT id FROM research_projects ORDER BY id LIMIT 1) WHERE id = (SELECT order_id FROM samples WHERE id = :id)', { replacements: { id: s.id } });
    await lab2.post('/api/lab-toolbox/approve-tests-cancer', { password: DEMO_PASSWORD, resultIds: [s.resultId] }).expect(200);
    const [job] = await t.ctx.db.models.Outbox.findAll({ where: { idempotencyKey: `notify-result:${s.resultId}` } });
    expect(job, 'the release itself went through').to.not.equal(undefined);
    expect(await deliveriesOf(s.id)).to.deep.equal([]);
  });
});
