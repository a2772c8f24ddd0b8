/**
 * Fault runs (`npm run chaos`: 100 worker-kill trials; `npm test` runs a short one, a trial of each kind of job).
 * Everything stands on its own PostgreSQL (embedded) and redis-server, started here on free ports,
 * so they can be killed and restarted; the product runs as real processes (api/src/main.ts,
 * worker/src/main.ts) that are SIGKILLed or SIGTERMed mid-work. What is checked is what a user
 * would notice: every job finishes, no email or document twice, every acknowledged write is
 * there, a refused request says 503 and why, the service comes back by itself.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { connect, createMigrator } from '@platform/db';
import { createContext, closeContext, type AppContext } from '@platform/api';
import { buildAck, enqueueJob, loadConfig, queueEmail, startCampaign, startMllpListener, storeFile, type Config, type MllpListener, type OutboxRelay } from '@platform/server';
import { startWorker, type RunningWorker } from '@platform/worker';
import { EmailCampaign, JobStatus, SampleStatus, UPLOAD_FILE_KIND } from '@platform/domain';
import { seedDemoData } from '../../scripts/seed';
import { startMailCatcher, type MailCatcher } from '../../scripts/mail-catcher';
import { DEMO_PASSWORD, DEMO_USERS } from '../../scripts/demo-users';
import { signInCompletely } from '../../scripts/second-step';
import { createResult } from '../support/fixtures/reports';
import { makeSample, userId } from '../support/fixtures/lab';
import { adminCaller, createProvidersInBulk } from '../support/fixtures/campaigns';
import { until } from '../support/wait';
import { scratchDir, startPostgres, startRedis, type Postgres, type RedisServer } from './services';
import { freePort, startProcess, type ProductProcess } from '../../scripts/product-process';

const KINDS = ['send-email', 'render-pdf', 'lab-import', 'notify-result', 'email-campaign', 'send-hl7'] as const;
/** npm test's short run: one trial of each kind. */
const TRIALS = Number(process.env.CHAOS_TRIALS ?? KINDS.length);
type Kind = (typeof KINDS)[number];
const UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.';
const relayDown: OutboxRelay = { relay: async () => undefined, sweep: async () => 0, start() {}, stop() {} };
const uniq = () => randomBytes(4).toString('hex');
/** A unique name part of letters only (a name takes no digits). */
const uniqName = () => randomBytes(6).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)]);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A browser-like HTTP client of one API process: cookies, the CSRF token, a 10 s limit on every request (a hang fails). */
class Client {
  /** The database the processes use (what a sign-in's second step learnt is kept per database). */
  static database = '';
  cookies = new Map<string, string>();
  csrf = '';
  constructor(public base: string) {}
  async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any; setCookies: string[] }> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'content-type': 'application/json', 'x-csrf-token': this.csrf },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, setCookies: res.headers.getSetCookie() };
  }
  async refreshCsrf() {
    this.csrf = (await this.request('GET', '/api/auth/csrf')).body.csrfToken;
  }
  async signIn(email: string, portal: string, password = DEMO_PASSWORD) {
    await this.refreshCsrf();
    const res = await signInCompletely(
      { post: (path, body) => this.request('POST', path, body), addCookie: (name, value) => void this.cookies.set(name, encodeURIComponent(value)) },
      Client.database, { email, password, portal },
    );
    if (res.status === 200) await this.refreshCsrf();
    return res;
  }
}

describe(`Fault runs on their own PostgreSQL and Redis (${TRIALS} worker-kill trials)`, function () {
  this.timeout(Math.max(600_000, TRIALS * 20_000));
  const scratch = scratchDir();
  let pg: Postgres;
  let redis: RedisServer;
  let catcher: MailCatcher;
  let config: Config;
  let ctx: AppContext;
  let env: NodeJS.ProcessEnv;
  let riversideId: number;
  let physicianId: number;
  /** Riverside's EHR for the HL7 trials, and every message it got (OBR-3 is the sample's barcode). */
  let ehr: MllpListener;
  const ehrReceived: { barcode: string; controlId: string }[] = [];
  const running: { processes: ProductProcess[]; workers: RunningWorker[] } = { processes: [], workers: [] };

  const product = async (which: 'api' | 'worker', extra: Record<string, string> = {}) => {
    const p = await startProcess(which, { ...env, ...extra });
    running.processes.push(p);
    return p;
  };
  const apiProcess = async () => {
    const port = await freePort();
    const p = await product('api', { PORT: String(port) });
    return { process: p, base: `http://127.0.0.1:${port}` };
  };
  const inProcessWorker = async () => {
    const w = await startWorker(config);
    running.workers.push(w);
    return w;
  };

  const sql = <T extends object>(query: string, replacements: Record<string, unknown> = {}) =>
    ctx.db.sequelize.query<T>(query, { replacements, type: QueryTypes.SELECT });
  const mailCount = async (address: string) => (await sql<{ n: number }>('SELECT count(*)::int AS n FROM caught_mail WHERE :address = ANY(to_addresses)', { address }))[0].n;
  /** Every job row finished: none left Pending. */
  /** The jobs that failed, with why: a failure is read from the test's output, not by rerunning it. */
  const failedJobs = async () =>
    (await ctx.db.models.Job.findAll({ where: { status: JobStatus.Failed }, attributes: ['id', 'name', 'attempts', 'error'], order: [['id', 'ASC']], raw: true }))
      .map((j) => `job ${j.id} ${j.name} (attempt ${j.attempts}): ${j.error}`);
  const jobsSettled = async (timeoutMs = 90_000) => {
    try {
      // Settled: every job finished and every outbox row handed to Redis. A process killed between its
      // relay's addBulk and the UPDATE that marks the rows leaves them pending (their jobs may already
      // have run) until a sweeper's next pass sends them again and marks them.
      await until(async () => {
        const pendingJobs = await ctx.db.models.Job.count({ where: { status: JobStatus.Pending } });
        const pendingOutbox = await ctx.db.models.Outbox.count({ where: { status: 'pending' } });
        return pendingJobs === 0 && pendingOutbox === 0 ? true : null;
      }, { what: 'every job to finish and every outbox row to be sent', timeoutMs, intervalMs: 100 });
    } catch (err) {
      // Say which jobs hang and where BullMQ has them, so a failure can be read without rerunning it.
      const pending = await sql<{ id: number; name: string; attempts: number; error: string | null; queueJobId: string | null }>(
        `SELECT j.id, j.name, j.attempts, j.error,
                (SELECT o.queue_job_id FROM outbox o WHERE (o.payload->>'jobRowId')::bigint = j.id ORDER BY o.id DESC LIMIT 1) AS "queueJobId"
           FROM jobs j WHERE j.status = :pending ORDER BY j.id`,
        { pending: JobStatus.Pending },
      );
      const states = await Promise.all(pending.map(async (j) => (j.queueJobId ? (await ctx.queue.getJob(j.queueJobId))?.getState() ?? 'not in Redis' : 'no outbox row')));
      throw new Error(`${(err as Error).message}: ${pending.map((j, i) => `#${j.id} ${j.name} attempts ${j.attempts} (${states[i]})${j.error ? ` ${j.error}` : ''}`).join('; ')}`);
    }
  };
  const jobRowOf = async (idempotencyKey: string) => ((await ctx.db.models.Outbox.findOne({ where: { idempotencyKey } }))!.payload as { jobRowId: number }).jobRowId;

  before(async function () {
    this.timeout(120_000);
    pg = await startPostgres(scratch.dir);
    redis = await startRedis();
    const db = connect(pg.url);
    try {
      await createMigrator(db.sequelize).up();
      await seedDemoData(db);
    } finally {
      await db.close();
    }
    catcher = await startMailCatcher({ databaseUrl: pg.url, port: await freePort() });
    Client.database = pg.url;
    env = {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: 'chaos',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(catcher.port),
      OUTBOX_SWEEP_MS: '300',
      OUTBOX_STALE_MS: '1000',
      WORKER_LOCK_MS: '1500',
      LOG_LEVEL: 'error', // kept in each process's output, shown when a check fails
      HOST: '127.0.0.1',
      BUILD_ID: 'chaos',
    };
    config = loadConfig({ ...env, LOG_LEVEL: 'silent' }); // this process's own context and workers
    ctx = await createContext(config, 'chaos');
    riversideId = (await ctx.db.models.Account.findOne({ where: { name: 'Riverside Oncology' } }))!.id;
    ehr = await startMllpListener({
      port: 0,
      onMessage: async (message) => {
        ehrReceived.push({ barcode: message.getSegment('OBR')?.getField(3).toString() ?? '', controlId: message.getSegment('MSH')?.getField(10).toString() ?? '' });
        await sleep(200);
        return buildAck(message, { code: 'AA' });
      },
    });
    [{ id: physicianId }] = await sql<{ id: number }>(
      `SELECT p.id FROM physicians p JOIN contacts c ON c.id = p.contact_id JOIN users u ON u.id = c.user_id WHERE u.email = :email AND p.account_id = :account`,
      { email: DEMO_USERS.physician.email, account: riversideId },
    );
  });

  afterEach(async () => {
    catcher?.setAcceptDelay(0);
    for (const w of running.workers.splice(0)) await w.close();
    for (const p of running.processes.splice(0)) await p.kill();
  });

  after(async () => {
    await ctx?.queue.obliterate({ force: true }).catch(() => undefined);
    if (ctx) await closeContext(ctx);
    await catcher?.close();
    await ehr?.close();
    await redis?.stop();
    await pg?.stop();
    scratch.remove();
  });

  /** One job of a kind, ready to enqueue, and what must hold once everything settled. */
  async function prepare(kind: Kind): Promise<{ enqueue(): Promise<number>; check(jobRowId: number): Promise<void> }> {
    const key = `chaos:${kind}:${uniq()}`;
    const enqueue = <N extends Parameters<typeof enqueueJob>[2]>(name: N, payload: Parameters<typeof enqueueJob<N>>[3]) => async () =>
      (await ctx.db.sequelize.transaction((t) => enqueueJob(ctx, t, name, payload, { idempotencyKey: key }))).jobRowId;
    switch (kind) {
      case 'send-email': {
        const to = `chaos-${uniq()}@mail.test`;
        return {
          enqueue: async () => {
            const email = await ctx.db.sequelize.transaction((t) => queueEmail(ctx, t, { to, subject: 'Chaos', text: 'One of these, never two', template: 'test' }));
            return jobRowOf(`send-email:${email.id}`);
          },
          check: async () => void expect(await mailCount(to), `emails to ${to}`).to.equal(1),
        };
      }
      case 'render-pdf': {
        const r = await createResult(ctx.db, { accountId: riversideId, physicianId });
        return {
          enqueue: enqueue('render-pdf', { sampleId: r.sampleId, documentType: 'lab_report', testResultId: r.resultId }),
          check: async () => void expect(await ctx.db.models.SampleDocument.count({ where: { sampleId: r.sampleId, type: 'lab_report' } }), 'lab reports').to.equal(1),
        };
      }
      case 'send-hl7': {
        // Riverside's EHR is this process's listener, answering AA after 200 ms: the kill lands mid-send.
        const r = await createResult(ctx.db, { accountId: riversideId, physicianId });
        await ctx.db.sequelize.query(
          `INSERT INTO hl7_interfaces (account_id, enabled, host, port, receiving_application, receiving_facility) VALUES (:riversideId, true, '127.0.0.1', :port, 'EPIC', 'RIVERSIDE')
           ON CONFLICT (account_id) DO UPDATE SET enabled = true, port = EXCLUDED.port`,
          { replacements: { riversideId, port: ehr.port } },
        );
        const [{ id }] = await sql<{ id: string }>(
          `INSERT INTO hl7_messages (id, control_id, account_id, message_type, reason, sample_id, test_id, test_result_id)
           SELECT n.id, 'M' || n.id, :riversideId, 'ORU^R01', 'released', :sampleId, :testId, :resultId FROM (SELECT nextval('hl7_messages_id_seq') AS id) n RETURNING id`,
          { riversideId, sampleId: r.sampleId, testId: r.testId, resultId: r.resultId },
        );
        return {
          enqueue: enqueue('send-hl7', { messageId: Number(id) }),
          check: async () => {
            const [row] = await sql<{ status: string; control_id: string }>('SELECT status, control_id FROM hl7_messages WHERE id = :id', { id });
            expect(row.status, `HL7 message ${id}`).to.equal('Acknowledged');
            // Sent again after a kill it may be, but as the one message: every transmission carries its control id.
            const controlIds = ehrReceived.filter((m) => m.barcode === r.barcode).map((m) => m.controlId);
            expect(controlIds.length, 'transmissions').to.be.greaterThan(0);
            expect([...new Set(controlIds)], 'messages the EHR got').to.deep.equal([row.control_id]);
          },
        };
      }
      case 'notify-result': {
        const r = await createResult(ctx.db, { accountId: riversideId, physicianId, patientEmail: `patient-${uniq()}@mail.test` });
        return {
          enqueue: enqueue('notify-result', { testResultId: r.resultId }),
          check: async () => {
            expect(await mailCount(r.patient.email!), 'result emails to the patient').to.equal(1);
            expect((await ctx.db.models.Sample.findByPk(r.sampleId))!.status).to.equal(SampleStatus.Completed);
          },
        };
      }
      case 'lab-import': {
        const samples = [];
        for (let i = 0; i < 20; i++) samples.push(await makeSample(ctx.db, { status: SampleStatus.InQueue }));
        const lab1 = await userId(ctx.db, 'lab1');
        const csv = `barcode,risk_level\n${samples.map((s) => `${s.barcode},High Risk`).join('\n')}\n`;
        const file = await ctx.db.sequelize.transaction((t) =>
          storeFile(ctx.db, t, { kind: UPLOAD_FILE_KIND, name: 'chaos.csv', contentType: 'text/csv', content: Buffer.from(csv), uploadedByUserId: lab1 }));
        return {
          enqueue: enqueue('lab-import', { fileId: file.id, kind: 'cancer-toxicity', mode: 'commit', userId: lab1 }),
          check: async (jobRowId) => void expect(await ctx.db.models.TestResult.count({ where: { importJobId: jobRowId } }), 'results written').to.equal(samples.length),
        };
      }
      case 'email-campaign': {
        const { accountId, addresses } = await createProvidersInBulk(ctx.db, 25);
        return {
          enqueue: async () => (await startCampaign(ctx, await adminCaller(ctx.db), EmailCampaign.PortalSignupReminder, { accountIds: [accountId], roles: [], neverSignedIn: false })).jobId!,
          check: async () => {
            const counts = await Promise.all(addresses.map(mailCount));
            expect(counts.filter((n) => n !== 1), 'recipients without exactly one email').to.deep.equal([]);
          },
        };
      }
    }
  }

  it('kill -9 a worker in the middle of every kind of job: each finishes on another worker, no email or document twice', async () => {
    const tally: Record<string, { trials: number; killedMidJob: number }> = {};
    for (let i = 0; i < TRIALS; i++) {
      const kind = KINDS[i % KINDS.length];
      const job = await prepare(kind);
      const worker = await product('worker');
      if (kind !== 'render-pdf' && kind !== 'lab-import') catcher.setAcceptDelay(200); // an SMTP answer takes a while: the kill lands mid-send
      const jobRowId = await job.enqueue();
      // Once the worker has the job (or a job it queued), kill it at a random moment.
      await until(async () => {
        const row = await ctx.db.models.Job.findByPk(jobRowId);
        return row!.attempts > 0 || row!.status !== JobStatus.Pending ? true : null;
      }, { what: `the worker to take the ${kind} job`, intervalMs: 5 });
      await sleep(Math.floor(Math.random() * 40));
      const midJob = (await ctx.db.models.Job.findByPk(jobRowId))!.status === JobStatus.Pending;
      await worker.kill();
      await inProcessWorker();
      await jobsSettled();
      const row = await ctx.db.models.Job.findByPk(jobRowId);
      expect(row!.status, `${kind} job #${jobRowId}: ${row!.error}`).to.equal(JobStatus.Completed);
      await job.check(jobRowId);
      tally[kind] ??= { trials: 0, killedMidJob: 0 };
      tally[kind].trials++;
      if (midJob) tally[kind].killedMidJob++;
      for (const w of running.workers.splice(0)) await w.close();
      catcher.setAcceptDelay(0);
    }
    console.log(`      worker kills: ${Object.entries(tally).map(([k, v]) => `${k} ${v.trials} (${v.killedMidJob} mid-job)`).join(', ')}`);
  });

  it('the API killed between commit and enqueue: the job still runs (another API\'s sweeper sends it), once', async () => {
    const { base } = await apiProcess(); // its sweeper is the only one running
    await inProcessWorker();
    // The state a crash leaves: committed (email row, job row, outbox row) and never handed to Redis.
    const to = `after-crash-${uniq()}@mail.test`;
    await ctx.db.sequelize.transaction((t) => queueEmail({ ...ctx, relay: relayDown }, t, { to, subject: 'Committed, never enqueued', text: 'x', template: 'test' }));
    // And real crashes: orders posted to an API killed at a random moment while answering them.
    const rounds = Math.max(1, Math.round(TRIALS / 10));
    for (let round = 0; round < rounds; round++) {
      const victim = await apiProcess();
      const client = new Client(victim.base);
      expect((await client.signIn(DEMO_USERS.physician.email, 'provider')).status).to.equal(200);
      const orders = Array.from({ length: 5 }, async () => {
        const patient = await client.request('POST', `/api/provider-clinic/${riversideId}/patient`, { firstName: 'Crash', lastName: `Test${uniqName()}`, dateOfBirth: '1960-01-01', sex: 'M' });
        if (patient.status !== 201) return;
        await client.request('POST', `/api/provider-clinic/${riversideId}/order`, {
          patientId: patient.body.id, tests: ['PROSTOX ultra'], physicianId, sampleType: 'Buccal Swab',
          attestations: { medicalNecessity: true, informedConsent: true, reimbursementClaim: true, supportingDocumentation: true }, diagnosisCodes: ['C61'],
        });
      }).map((p) => p.catch(() => undefined));
      await sleep(20 + Math.floor(Math.random() * 150));
      await victim.process.kill();
      await Promise.all(orders);
    }
    await jobsSettled();
    expect(await mailCount(to)).to.equal(1);
    const stuck = await ctx.db.models.Outbox.count({ where: { status: 'pending' } });
    expect(stuck, 'outbox rows never sent').to.equal(0);
    expect(await failedJobs(), 'failed jobs').to.deep.equal([]);
    void base;
  });

  it('Redis restarted, then PostgreSQL, under a stream of orders and intakes: every acknowledged write is there, refusals are 503 with a reason, it recovers by itself', async () => {
    const { base, process: api } = await apiProcess();
    await inProcessWorker();
    const clinic = new Client(base);
    const lab = new Client(base);
    expect((await clinic.signIn(DEMO_USERS.physician.email, 'provider')).status).to.equal(200);
    expect((await lab.signIn(DEMO_USERS.lab1.email, 'lab')).status).to.equal(200);
    const kits = [];
    for (let i = 0; i < 150; i++) kits.push((await makeSample(ctx.db, { status: SampleStatus.PendingShipment })).barcode);

    const answers: { what: string; status: number; body: any; phase: string }[] = [];
    let phase = 'before';
    const ordered: number[] = [];
    const received: string[] = [];
    let streaming = true;
    const note = (what: string) => (r: { status: number; body: any }) => (answers.push({ what, phase, ...r }), r);
    const hung = (what: string) => (err: Error) => (answers.push({ what, phase, status: 0, body: `${err.message} ${String((err.cause as Error | undefined)?.message ?? '')}` }), { status: 0, body: null });
    const orders = (async () => {
      while (streaming) {
        const patient = await clinic.request('POST', `/api/provider-clinic/${riversideId}/patient`, { firstName: 'Stream', lastName: `Order${uniqName()}`, dateOfBirth: '1962-02-02', sex: 'F' }).then(note('patient'), hung('patient'));
        if (patient.status !== 201) { await sleep(50); continue; }
        const order = await clinic.request('POST', `/api/provider-clinic/${riversideId}/order`, {
          patientId: patient.body.id, tests: ['PROSTOX ultra'], physicianId, sampleType: 'Buccal Swab',
          attestations: { medicalNecessity: true, informedConsent: true, reimbursementClaim: true, supportingDocumentation: true }, diagnosisCodes: ['C61'],
        }).then(note('order'), hung('order'));
        if (order.status === 201) ordered.push(order.body.order.id);
      }
    })();
    const intakes = (async () => {
      while (streaming && kits.length) {
        const barcode = kits[0];
        const res = await lab.request('POST', '/api/lab-toolbox/intake/receive', { barcode, condition: 'acceptable', collectedAt: new Date(Date.now() - 60_000).toISOString(), identityConfirmed: true }).then(note('intake'), hung('intake'));
        await sleep(20); // a steady stream, through both restarts
        if (res.status === 200) received.push(kits.shift()!);
        else if (res.status === 409) kits.shift(); // received by an earlier try whose answer was lost
        else await sleep(50);
      }
    })();

    await sleep(1000);
    phase = 'Redis restarting';
    await redis.restart(500);
    phase = 'between';
    await sleep(1500);
    phase = 'PostgreSQL restarting';
    await pg.restart();
    phase = 'after';
    await sleep(2500);
    streaming = false;
    await Promise.all([orders, intakes]);

    const statuses = answers.reduce<Record<string, number>>((acc, a) => ((acc[`${a.phase}: ${a.status}`] = (acc[`${a.phase}: ${a.status}`] ?? 0) + 1), acc), {});
    console.log(`      answers: ${Object.entries(statuses).map(([s, n]) => `${s}×${n}`).join(', ')}; ${ordered.length} orders and ${received.length} intakes acknowledged`);
    // 409 only for a kit an earlier try received (its answer lost in a restart, or not yet sent when the loop moved on).
    const odd = answers.filter((a) =>
      ![200, 201, 409, 503].includes(a.status) || (a.status === 503 && a.body?.error?.message !== UNAVAILABLE) || (a.status === 409 && !/already received/.test(a.body?.error?.message)));
    expect(odd.map((a) => `${a.what}: ${a.status} ${JSON.stringify(a.body).slice(0, 200)}`), `answers other than success or a 503 with its reason; the API logged:\n${api.output().slice(-3000)}`).to.deep.equal([]);
    expect(ordered.length).to.be.greaterThan(0);
    expect(received.length).to.be.greaterThan(0);

    // Every acknowledged write is there.
    expect(await ctx.db.models.Order.count({ where: { id: ordered } })).to.equal(ordered.length);
    expect(await ctx.db.models.Sample.count({ where: { barcode: received, status: SampleStatus.InQueue } })).to.equal(received.length);
    // The same API process serves again, and every job (Redis lost its queue) still runs.
    const after = await clinic.request('GET', `/api/provider-clinic/${riversideId}/samples`);
    expect(after.status).to.equal(200);
    await jobsSettled();
    expect(await failedJobs(), 'failed jobs').to.deep.equal([]);
  });

  it('two API processes and two workers on one PostgreSQL and Redis: sessions and throttles are shared, every job runs once, the sweepers never double-send', async () => {
    const a = await apiProcess();
    const b = await apiProcess();
    await product('worker');
    await product('worker');

    const onA = new Client(a.base);
    expect((await onA.signIn(DEMO_USERS.admin.email, 'admin')).status).to.equal(200);
    const onB = new Client(b.base);
    onB.cookies = onA.cookies;
    expect((await onB.request('GET', '/api/auth/me')).body.user.email).to.equal(DEMO_USERS.admin.email);

    // Wrong passwords for one account, alternating between the two processes: the limit is the account's, not a process's.
    const target = DEMO_USERS.staff.email;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const c = new Client(i % 2 ? b.base : a.base);
      statuses.push((await c.signIn(target, 'provider', 'wrong-password-1')).status);
    }
    expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429]);

    // Jobs sent by the relay at once, and jobs only the two sweepers can send (racing for the same rows).
    const addresses = Array.from({ length: 40 }, (_, i) => `twice-${i}-${uniq()}@mail.test`);
    for (const [i, to] of addresses.entries()) {
      await ctx.db.sequelize.transaction((t) => queueEmail({ ...ctx, relay: i % 2 ? relayDown : ctx.relay }, t, { to, subject: 'Once', text: 'x', template: 'test' }));
    }
    await jobsSettled();
    const counts = await Promise.all(addresses.map(mailCount));
    expect(counts.filter((n) => n !== 1), 'addresses without exactly one email').to.deep.equal([]);
  });

  it('SIGTERM during an import: the job finishes, or is released and finished by another worker; every row written once', async () => {
    const samples = [];
    for (let i = 0; i < 300; i++) samples.push(await makeSample(ctx.db, { status: SampleStatus.InQueue }));
    const lab1 = await userId(ctx.db, 'lab1');
    const csv = `barcode,risk_level\n${samples.map((s) => `${s.barcode},Intermediate Risk`).join('\n')}\n`;
    const file = await ctx.db.sequelize.transaction((t) =>
      storeFile(ctx.db, t, { kind: UPLOAD_FILE_KIND, name: 'sigterm.csv', contentType: 'text/csv', content: Buffer.from(csv), uploadedByUserId: lab1 }));
    const worker = await product('worker');
    const { jobRowId } = await ctx.db.sequelize.transaction((t) =>
      enqueueJob(ctx, t, 'lab-import', { fileId: file.id, kind: 'cancer-toxicity', mode: 'commit', userId: lab1 }, { idempotencyKey: `chaos:sigterm:${uniq()}` }));
    await until(async () => ((await ctx.db.models.Job.findByPk(jobRowId))!.attempts > 0 ? true : null), { what: 'the worker to take the import', intervalMs: 5 });
    await worker.terminate();
    await inProcessWorker();
    await jobsSettled();
    const row = await ctx.db.models.Job.findByPk(jobRowId);
    expect(row!.status, String(row!.error)).to.equal(JobStatus.Completed);
    expect(await ctx.db.models.TestResult.count({ where: { importJobId: jobRowId } })).to.equal(samples.length);
  });
});
