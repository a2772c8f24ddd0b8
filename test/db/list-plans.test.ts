/**
 * The plans the lists rely on (issue 13): on a database of its own, bulk-filled the way the bench
 * fills it (scripts/bench/fill.ts, here 20,000 samples), each account-scoped list is run through
 * its real service while every query it sends is captured, and each captured query is EXPLAINed (a
 * prepared statement in the generic plan PostgreSQL keeps for every account once it settles on one):
 * no page of rows reads samples, orders or shipments by a sequential scan, nor does any count read
 * samples so (the large account's capped count may hash a joined table: a fifth of this small
 * database), with a year of audit rows in the audit table's monthly partitions. Also checks the
 * shape of the bench's target lines. Nothing here is timed.
 */
import { expect } from 'chai';
import pg from 'pg';
import type { QueryOptions } from 'sequelize';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase, type Db } from '@platform/db';
import { RESULT_LIST_STATUSES, ResultListCategory, SampleStatus } from '@platform/domain';
import { seedDemoData } from '../../scripts/seed';
import { DEMO_USERS } from '../../scripts/demo-users';
import { fill, type Filled } from '../../scripts/bench/fill';
import { TARGET_LINE, TARGET_NAMES, targetLine } from '../../scripts/bench/report';
import { genericPlan } from '../support/plans';
import {
  CLINIC_PATIENT_JOIN, CLINIC_PATIENT_SQL, findPatients, listResearchTests, listResults, listSamples, listShipments, type AccountCaller,
} from '@platform/server';

const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `test_db_list_plans_${process.pid}_${Date.now()}`;
const WATCHED = ['samples', 'orders', 'shipments'];
/**
 * A year of audit rows under the lists (issue 32: the bench fills 30,000,000 over 12 monthly
 * partitions; a fiftieth of that per sample here, 600,000): a list's read audit is a row of the
 * current month's partition written in the page's own statement, and no page reads the trail.
 */
const AUDIT_ROWS = 600_000;

interface Captured {
  sql: string;
  options: QueryOptions & { replacements?: unknown; bind?: unknown };
  /** A prepared statement's parameters ($1…). */
  values?: unknown[];
}

/** Every relation a plan reads by a sequential scan, and whether it is in the list's count (a statement's CTE capped or total). */
function seqScans(plan: Record<string, unknown>, inCount = false): { relation: string; inCount: boolean }[] {
  const counting = inCount || /^CTE (capped|total)$/.test(String(plan['Subplan Name'] ?? ''));
  const here = plan['Node Type'] === 'Seq Scan' ? [{ relation: String(plan['Relation Name']), inCount: counting }] : [];
  return [...here, ...((plan.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap((p) => seqScans(p, counting))];
}

describe('List query plans (EXPLAIN on a bulk-filled database)', function () {
  this.timeout(180_000);
  let db: Db;
  let filled: Filled;
  let captured: Captured[] = [];
  let restoreClientQuery = () => {};

  before(async () => {
    await createDatabase(ADMIN_URL, DB_NAME);
    const url = databaseUrl(ADMIN_URL, DB_NAME);
    db = connect(url);
    await createMigrator(db.sequelize).up();
    await seedDemoData(db);
    const lab = (await db.models.User.findOne({ where: { email: DEMO_USERS.lab1.email } }))!;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      filled = await fill(client, { accounts: 200, samples: 20_000, large: 4_000, importRows: 0, auditRows: AUDIT_ROWS }, lab.id);
    } finally {
      await client.end();
    }
    // Capture every query the services send (then let it run as usual): through Sequelize, and the
    // prepared statements sent on its pooled connections (db/src/prepared.ts).
    const query = db.sequelize.query.bind(db.sequelize) as (sql: unknown, options?: unknown) => Promise<unknown>;
    (db.sequelize as unknown as { query: typeof query }).query = (sql: unknown, options?: unknown) => {
      const text = typeof sql === 'string' ? sql : (sql as { query: string }).query;
      captured.push({ sql: text, options: (options ?? {}) as Captured['options'] });
      return query(sql, options);
    };
    const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as { name?: string; text?: string; values?: unknown[] } | undefined;
      if (config && typeof config === 'object' && config.name && config.text) captured.push({ sql: config.text, options: {}, values: config.values ?? [] });
      return clientQuery.apply(this, args);
    } as typeof pg.Client.prototype.query;
    restoreClientQuery = () => (pg.Client.prototype.query = clientQuery as typeof pg.Client.prototype.query);
  });

  after(async () => {
    restoreClientQuery();
    await db?.close();
    await dropDatabase(ADMIN_URL, DB_NAME);
  });


  async function plansOf(run: () => Promise<unknown>, countsMayHash = false): Promise<{ sql: string; scans: string[] }[]> {
    captured = [];
    await run();
    const reads = captured.filter((c) => /^\s*(SELECT|WITH)/i.test(c.sql) && WATCHED.some((t) => new RegExp(`\\b${t}\\b`).test(c.sql)));
    captured = [];
    expect(reads, 'queries captured').to.not.be.empty;
    const out: { sql: string; scans: string[] }[] = [];
    for (const read of reads) {
      const plan = read.values ? await genericPlan(db, read.sql, read.values) : (await db.sequelize.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(`EXPLAIN (FORMAT JSON) ${read.sql}`, {
        replacements: read.options.replacements as Record<string, unknown> | undefined,
        bind: read.options.bind as Record<string, unknown> | undefined,
        type: 'SELECT' as never,
      }))[0]['QUERY PLAN'][0].Plan;
      const wholeCount = /^\s*SELECT count\(/i.test(read.sql);
      const scans = seqScans(plan)
        .filter((s) => (countsMayHash && (wholeCount || s.inCount) ? ['samples'] : WATCHED).includes(s.relation))
        .map((s) => s.relation);
      out.push({ sql: read.sql.replace(/\s+/g, ' ').slice(0, 160), scans });
    }
    return out;
  }

  const callerFor = (accountId: number): AccountCaller => ({ userId: 1, kind: 'provider', accountId, ip: null, requestId: null });
  const page = { page: 1, pageSize: 10 };
  const relay = { relay: async () => undefined, sweep: async () => 0, start() {}, stop() {} };

  for (const which of ['large', 'typical'] as const) {
    const accountOf = () => (which === 'large' ? filled.largeAccountId : filled.typicalAccountId);
    for (const category of [ResultListCategory.Pending, ResultListCategory.Completed, ResultListCategory.PatientOrdered, ResultListCategory.PendingShipmentFromProvider]) {
      it(`the ${which} account's ${category} list reads samples and orders by index`, async () => {
        for (const plan of await plansOf(() => listResults({ db }, callerFor(accountOf()), { category, ...page }), which === 'large')) {
          expect(plan.scans, plan.sql).to.deep.equal([]);
        }
      });
    }
    it(`the ${which} account's unshipped samples and shipments read by index`, async () => {
      const plans = [
        ...(await plansOf(() => listSamples({ db }, callerFor(accountOf()), { unshipped: true, ...page }), which === 'large')),
        ...(await plansOf(() => listShipments({ db }, callerFor(accountOf()), page), which === 'large')),
      ];
      for (const plan of plans) expect(plan.scans, plan.sql).to.deep.equal([]);
    });
  }

  it("the research account's tests read samples and orders by index", async () => {
    for (const plan of await plansOf(() => listResearchTests({ db, relay }, callerFor(filled.researchAccountId), { ...page }))) {
      expect(plan.scans, plan.sql).to.deep.equal([]);
    }
  });

  /** The generic plans of the prepared statements a run sends. */
  async function preparedPlans(run: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
    captured = [];
    await run();
    const prepared = captured.filter((c) => c.values);
    captured = [];
    expect(prepared, 'prepared statements captured').to.not.be.empty;
    const plans: Record<string, unknown>[] = [];
    for (const c of prepared) plans.push(await genericPlan(db, c.sql, c.values!));
    return plans;
  }

  /** Every node of a plan, with the CTE it belongs to. */
  function nodesOf(plan: Record<string, unknown>, cte: string | null = null): { node: Record<string, unknown>; cte: string | null }[] {
    const name = /^CTE (\w+)$/.exec(String(plan['Subplan Name'] ?? ''))?.[1] ?? cte;
    return [{ node: plan, cte: name }, ...((plan.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap((p) => nodesOf(p, name))];
  }

  it("the research account's tests page comes newest first from the account's index, sorting nothing", async () => {
    const [plan] = await preparedPlans(() => listResearchTests({ db, relay }, callerFor(filled.researchAccountId), { ...page }));
    const pageNodes = nodesOf(plan).filter((n) => n.cte === 'page').map((n) => n.node);
    expect(pageNodes.map((n) => n['Node Type'])).to.not.include('Sort');
    expect(pageNodes.filter((n) => n['Relation Name'] === 'samples').map((n) => n['Index Name'])).to.deep.equal(['samples_account_newest_idx']);
  });

  it("the patient search finds a name's words through the one trigram index, in every scope", async () => {
    for (const scope of [{ accountId: filled.typicalAccountId }, 'all-accounts'] as const) {
      for (const plan of await preparedPlans(() => findPatients({ db }, { userId: 1, kind: 'lab', accountId: null, ip: null, requestId: null }, scope, { q: 'Smith James', page: 1, pageSize: 10 }))) {
        const onPatients = nodesOf(plan).map((n) => n.node).filter((n) => n['Relation Name'] === 'patients' || String(n['Index Name'] ?? '').startsWith('patients_'));
        expect(onPatients.map((n) => n['Node Type']), JSON.stringify(scope)).to.not.include('Seq Scan');
        if (scope === 'all-accounts') expect(onPatients.map((n) => n['Index Name'])).to.include('patients_search_words_trgm_idx');
      }
    }
  });

  it('a list page, its total and its audit row are one statement; the row names the samples shown and the total', async () => {
    const caller = callerFor(filled.largeAccountId);
    const before = Number((await db.sequelize.query<{ n: string }>('SELECT max(id) AS n FROM audit_events', { type: 'SELECT' as never }))[0].n ?? 0);
    captured = [];
    const { rows, total } = await listResults({ db }, caller, { category: ResultListCategory.Pending, page: 2, pageSize: 10 });
    expect(captured.map((c) => c.sql.trim().slice(0, 4))).to.deep.equal(['WITH']);
    const [exact] = await db.sequelize.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM samples s ${CLINIC_PATIENT_JOIN} WHERE s.account_id = :accountId AND ${CLINIC_PATIENT_SQL}
          AND (s.status IN (:statuses) OR (s.status = :inStorage AND s.status_before_storage IN (:statuses)))`,
      { replacements: { accountId: filled.largeAccountId, statuses: RESULT_LIST_STATUSES.PENDING, inStorage: SampleStatus.InStorage }, type: 'SELECT' as never });
    expect(total).to.equal(exact.n);
    expect(rows).to.have.length(10);
    const audits = await db.sequelize.query<{ action: string; details: { sampleIds: number[]; total: number; page: number } }>(
      'SELECT action, details FROM audit_events WHERE id > :before', { replacements: { before }, type: 'SELECT' as never });
    expect(audits).to.have.length(1);
    expect(audits[0].action).to.equal('samples.listed');
    expect(audits[0].details).to.include({ total, page: 2 });
    expect(audits[0].details.sampleIds).to.deep.equal(rows.map((r) => r.sampleId));
  });

  it('holds the lists above with a year of audit rows in twelve monthly partitions', async () => {
    const months = await db.sequelize.query<{ part: string; n: string }>(
      `SELECT tableoid::regclass::text AS part, count(*) AS n FROM audit_events GROUP BY 1 HAVING count(*) > 1000 ORDER BY 1`, { type: 'SELECT' as never });
    expect(months.length, 'partitions holding the fill').to.be.at.least(12);
    expect(months.reduce((sum, m) => sum + Number(m.n), 0)).to.be.at.least(AUDIT_ROWS);
  });

  it("prints the bench's targets in the issue's form", () => {
    for (const name of TARGET_NAMES) {
      const line = targetLine({ name, value: 1234.5, unit: 'req/s', limit: 5000, limitUnit: 'req/s', ratio: 0.2469, goal: '≥ 1500 req/s', met: false });
      expect(line).to.match(TARGET_LINE);
      expect(line).to.equal(`target ${name}: 1235 req/s | limit 5000 req/s | ratio 0.247 | goal ≥ 1500 req/s | SHORT`);
    }
    expect(TARGET_NAMES).to.have.length(12);
  });
});
