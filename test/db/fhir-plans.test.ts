/**
 * The plans the FHIR searches rely on (issue 27), as list-plans checks the clinic lists': on a
 * database of its own, bulk-filled as the bench fills it (here 20,000 samples, 4,000 in the large
 * account) with the resulted samples' results released, each search is run through
 * searchFhirResources while its prepared statements are captured, and each is EXPLAINed in the
 * generic plan PostgreSQL keeps: no page reads samples, orders, tests, test_results or patients
 * by a sequential scan nor sorts the account's samples (a page reads about a page of samples), a
 * deep page (a cursor) included. Nothing here is timed.
 */
import { expect } from 'chai';
import pg from 'pg';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase, type Db } from '@platform/db';
import { loadConfig, searchFhirResources, type FhirScope } from '@platform/server';
import { seedDemoData } from '../../scripts/seed';
import { DEMO_USERS } from '../../scripts/demo-users';
import { fill, type Filled } from '../../scripts/bench/fill';
import { genericPlan } from '../support/plans';

const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `test_db_fhir_plans_${process.pid}_${Date.now()}`;
const WATCHED = ['samples', 'orders', 'tests', 'test_results', 'patients'];
const BASE = 'https://fhir.example.test/fhir/R4';

function nodesOf(plan: Record<string, unknown>, cte: string | null = null): { node: Record<string, unknown>; cte: string | null }[] {
  const name = /^CTE (\w+)$/.exec(String(plan['Subplan Name'] ?? ''))?.[1] ?? cte;
  return [{ node: plan, cte: name }, ...((plan.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap((p) => nodesOf(p, name))];
}

/** Whether the plan walks the account's samples with no LIMIT between it and this node. */
function walksAccountUnlimited(plan: Record<string, unknown>): boolean {
  return ((plan.Plans as Record<string, unknown>[] | undefined) ?? []).some((p) =>
    p['Index Name'] === 'samples_account_newest_idx' || (p['Node Type'] !== 'Limit' && walksAccountUnlimited(p)));
}

describe('FHIR search query plans (EXPLAIN on a bulk-filled database)', function () {
  this.timeout(180_000);
  let db: Db;
  let filled: Filled;
  let captured: { sql: string; values: unknown[] | null }[] = [];
  let restore = () => {};
  let ctx: { db: Db; config: ReturnType<typeof loadConfig> };

  before(async () => {
    await createDatabase(ADMIN_URL, DB_NAME);
    const url = databaseUrl(ADMIN_URL, DB_NAME);
    db = connect(url);
    await createMigrator(db.sequelize).up();
    await seedDemoData(db);
    const lab1 = (await db.models.User.findOne({ where: { email: DEMO_USERS.lab1.email } }))!;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      // The fill releases the resulted samples' results (what the FHIR API reads).
      filled = await fill(client, { accounts: 200, samples: 20_000, large: 4_000, importRows: 0 }, lab1.id);
    } finally {
      await client.end();
    }
    ctx = { db, config: loadConfig({ ...process.env, DATABASE_URL: url, PORT: '0' }) };
    const clientQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as { name?: string; text?: string; values?: unknown[] } | undefined;
      if (config && typeof config === 'object' && config.name && config.text) captured.push({ sql: config.text, values: config.values ?? [] });
      // Sequelize's own statements (a search planned for its values): EXPLAINed as they are.
      else if (typeof config === 'string' && /^\s*WITH page AS/.test(config)) captured.push({ sql: config, values: null });
      else if (config && typeof config === 'object' && !config.name && config.text && /^\s*WITH page AS/.test(config.text)) captured.push({ sql: config.text, values: null });
      return clientQuery.apply(this, args);
    } as typeof pg.Client.prototype.query;
    restore = () => (pg.Client.prototype.query = clientQuery as typeof pg.Client.prototype.query);
  });

  after(async () => {
    restore();
    await db?.close();
    await dropDatabase(ADMIN_URL, DB_NAME);
  });


  /** The plan of a statement as it is (EXPLAIN alone runs nothing: its audit row is not written). */
  async function explain(sql: string): Promise<Record<string, unknown>> {
    const [row] = await db.sequelize.query<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>(`EXPLAIN (FORMAT JSON) ${sql}`, { type: 'SELECT' as never });
    return row['QUERY PLAN'][0].Plan;
  }

  const scopeOf = (accountId: number): FhirScope => ({ accountId, caller: { userId: null, kind: 'api_client', accountId, ip: null, requestId: null } });

  /** The sequential scans of watched tables in the page (the total's count may hash the large account's rows, as the lists' may). */
  async function pageScans(type: string, query: string, accountId: number) {
    captured = [];
    const bundle = await searchFhirResources(ctx, scopeOf(accountId), type, new URLSearchParams(query), BASE);
    const statements = captured;
    captured = [];
    expect(statements, 'prepared statements captured').to.not.be.empty;
    const scans: string[] = [];
    for (const s of statements) {
      const plan = s.values ? await genericPlan(db, s.sql, s.values) : await explain(s.sql);
      for (const { node, cte } of nodesOf(plan)) {
        if (cte === 'page' && node['Node Type'] === 'Seq Scan' && WATCHED.includes(String(node['Relation Name']))) scans.push(String(node['Relation Name']));
        // A sort above the walk of the account's samples would read the whole account for one page.
        if (cte === 'page' && node['Node Type'] === 'Sort' && walksAccountUnlimited(node)) scans.push('sort of the account\'s samples');
      }
    }
    return { bundle, scans };
  }

  for (const which of ['large', 'typical'] as const) {
    const accountOf = () => (which === 'large' ? filled.largeAccountId : filled.typicalAccountId);
    it(`the ${which} account's DiagnosticReport pages (with _include, and a deep page by cursor) read by index`, async () => {
      const first = await pageScans('DiagnosticReport', '_count=20&_include=DiagnosticReport:result&_include=DiagnosticReport:specimen', accountOf());
      expect(first.scans).to.deep.equal([]);
      expect(first.bundle.entry?.length).to.be.greaterThan(0);
      const next = first.bundle.link?.find((l) => l.relation === 'next')?.url;
      expect(next, 'a next link').to.be.a('string');
      const second = await pageScans('DiagnosticReport', new URL(next!).search.slice(1), accountOf());
      expect(second.scans).to.deep.equal([]);
    });
    for (const [type, query] of [['Observation', '_count=20'], ['Specimen', '_count=20'], ['ServiceRequest', '_count=20&status=active'], ['Patient', '_count=20'], ['DiagnosticReport', '_count=20&_lastUpdated=ge2020-01-01&status=final']] as const) {
      it(`the ${which} account's ${type}?${query} reads by index`, async () => {
        expect((await pageScans(type, query, accountOf())).scans).to.deep.equal([]);
      });
    }
  }

  it('the results released since a recent time are read by their release index, not by walking the account', async () => {
    await db.sequelize.query(`UPDATE test_results SET reviewed_at = TIMESTAMPTZ '2030-01-01T00:00:00Z' + id * interval '1 second'
      WHERE id IN (SELECT r.id FROM test_results r JOIN tests t ON t.id = r.test_id JOIN samples s ON s.id = t.sample_id
                    WHERE s.account_id = :a AND r.status = 'Released' ORDER BY s.created_at LIMIT 5)`, { replacements: { a: filled.largeAccountId } });
    await db.sequelize.query('ANALYZE test_results');
    for (const param of ['_lastUpdated', 'issued']) {
      captured = [];
      const bundle = await searchFhirResources(ctx, scopeOf(filled.largeAccountId), 'DiagnosticReport', new URLSearchParams(`${param}=gt2029-12-31`), BASE);
      expect(bundle.total).to.equal(5);
      const [statement] = captured;
      expect(statement?.values, 'planned for its values').to.equal(null);
      const plan = await explain(statement.sql);
      const pageNodes = nodesOf(plan).filter((n) => n.cte === 'page').map((n) => n.node);
      expect(pageNodes.map((n) => n['Index Name'])).to.include('test_results_released_at_idx');
      expect(pageNodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'])).to.deep.equal([]);
    }
  });

  it('a patient\'s reports and a barcode\'s are found through their indexes', async () => {
    const [row] = await db.sequelize.query<{ patient_id: number; barcode: string }>(
      `SELECT s.patient_id, s.barcode FROM samples s JOIN test_results r ON r.test_id IN (SELECT id FROM tests WHERE sample_id = s.id) AND r.status = 'Released'
        WHERE s.account_id = :a LIMIT 1`, { replacements: { a: filled.largeAccountId }, type: 'SELECT' as never });
    const byPatient = await pageScans('DiagnosticReport', `patient=${row.patient_id}`, filled.largeAccountId);
    expect(byPatient.scans).to.deep.equal([]);
    expect(byPatient.bundle.total).to.equal(1);
    const byBarcode = await pageScans('DiagnosticReport', `identifier=${row.barcode}`, filled.largeAccountId);
    expect(byBarcode.scans).to.deep.equal([]);
    expect(byBarcode.bundle.total).to.equal(1);
  });
});
