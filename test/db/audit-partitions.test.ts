/**
 * The audit table partitioned by month (issue 32; migrations/20261210100000-audit-partitions.ts), on
 * a scratch database: rows written and sealed before the migration are all there after it, with
 * their ids, times and chain; each sits in its month's partition; the months ahead and the default
 * partition exist; the append-only trigger still refuses UPDATE, DELETE and TRUNCATE, on the table
 * and on a partition; the chain goes on and verifies, the sealer writing the content of its batch
 * only; the worker's partition scanner makes months once.
 */
import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { connect, createDatabase, createMigrator, databaseUrl, dropDatabase, MIGRATIONS_DIR, type Db } from '@platform/db';
import { AUDIT_GENESIS_HASH, AUDIT_MONTHS_AHEAD } from '@platform/domain';
import { addMonths, AUDIT_CONTENT_SQL, auditRowHash, ensureAuditMonths, monthOf, partitionName, recordAudit, sealAuditEvents, UNSEALED_BATCH_SQL, verifyAuditChain } from '@platform/server';

const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `test_db_audit_partitions_${process.pid}_${Date.now()}`;
const PARTITIONING = '20261210100000-audit-partitions';
const BEFORE_PARTITIONING = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => f.replace(/\.ts$/, '')).sort()
  .filter((name) => name < PARTITIONING).at(-1)!;

interface Row { id: string; at: string; action: string; chain_seq: string | null; prev_hash: string | null; hash: string | null; part: string }

describe('db: the audit table partitioned by month', function () {
  this.timeout(120_000);
  let db: Db;
  const now = new Date();
  const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) => db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  const rows = () => q<Row>(`SELECT id::text AS id, at::text AS at, action, chain_seq::text AS chain_seq, prev_hash, hash, tableoid::regclass::text AS part FROM audit_events ORDER BY id`);
  const refusal = async (sql: string) => db.sequelize.query(sql).then(() => 'allowed', (err: Error) => err.message);

  before(async function () {
    await createDatabase(ADMIN_URL, DB_NAME);
    db = connect(databaseUrl(ADMIN_URL, DB_NAME), { poolMax: 2 });
    await createMigrator(db.sequelize).up({ to: BEFORE_PARTITIONING });
  });

  after(async function () {
    try {
      await db?.close();
    } finally {
      await dropDatabase(ADMIN_URL, DB_NAME);
    }
  });

  let written: Row[];
  it('keeps every row, with its id, time and chain, each in its month\'s partition', async function () {
    // Rows of three months ago, last month and now, sealed as the sealer of that time did (the table then had no archive).
    for (const [action, monthsAgo] of [['old.read', 3], ['old.write', 3], ['last_month.read', 1], ['now.read', 0], ['unsealed.read', 0]] as const) {
      await db.sequelize.query(`INSERT INTO audit_events (actor_kind, action, at, details) VALUES ('system', :action, now() - make_interval(months => :monthsAgo), '{"n": 1}')`, { replacements: { action, monthsAgo } });
    }
    let prev = AUDIT_GENESIS_HASH;
    const toSeal = await q<{ id: string; content: string }>(`SELECT e.id::text AS id, ${AUDIT_CONTENT_SQL('e')} AS content FROM audit_events e WHERE e.action <> 'unsealed.read' ORDER BY e.id`);
    for (const [i, r] of toSeal.entries()) {
      const hash = auditRowHash(prev, i + 1, r.content);
      await db.sequelize.query('UPDATE audit_events SET chain_seq = :seq, prev_hash = :prev, hash = :hash WHERE id = :id', { replacements: { seq: i + 1, prev, hash, id: r.id } });
      prev = hash;
    }
    written = await rows();
    await createMigrator(db.sequelize).up({ to: PARTITIONING });

    const after = await rows();
    expect(after.map(({ part: _, ...r }) => r)).to.deep.equal(written.map(({ part: _, ...r }) => r));
    for (const r of after) expect(r.part, r.action).to.equal(partitionName(monthOf(new Date(r.at))));
    expect((await verifyAuditChain(db)).ok).to.equal(true);
  });

  it('has the months of its rows, the current one and the next ones made ahead, and a default partition', async function () {
    const parts = (await q<{ name: string }>(`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'audit_events'::regclass ORDER BY 1`)).map((p) => p.name);
    const expected = [-3, -2, -1, 0, ...Array.from({ length: AUDIT_MONTHS_AHEAD }, (_, i) => i + 1)].map((n) => partitionName(addMonths(monthOf(now), n)));
    expect(parts).to.deep.equal([...expected, 'audit_events_default'].sort());
    // An insert of a time no month holds lands in the default partition rather than failing.
    await recordAudit(db, { actorKind: 'system', action: 'probe.now' });
    await db.sequelize.query(`INSERT INTO audit_events (actor_kind, action, at) VALUES ('system', 'probe.far', now() + interval '5 years')`);
    const [far] = await q<{ part: string }>(`SELECT tableoid::regclass::text AS part FROM audit_events WHERE action = 'probe.far'`);
    expect(far.part).to.equal('audit_events_default');
  });

  it('still refuses UPDATE, DELETE and TRUNCATE, on the table and on each partition', async function () {
    const month = partitionName(monthOf(now));
    for (const sql of [
      `UPDATE audit_events SET action = 'x' WHERE action = 'now.read'`, `DELETE FROM audit_events WHERE action = 'now.read'`, 'TRUNCATE audit_events',
      `UPDATE ${month} SET action = 'x'`, `DELETE FROM ${month}`, `TRUNCATE ${month}`, 'TRUNCATE audit_events_default', 'DELETE FROM audit_events_default',
      // Moving a row to another month is an UPDATE of its time.
      `UPDATE audit_events SET at = at - interval '3 months' WHERE action = 'now.read'`,
    ]) {
      expect(await refusal(sql), sql).to.contain('append-only');
    }
    expect((await rows()).filter((r) => r.action === 'now.read')).to.have.length(1);
  });

  it('seals on from the chain\'s head across months, and the chain verifies', async function () {
    const { sealed } = await sealAuditEvents(db, { wait: true });
    expect(sealed).to.equal(3); // the row left unsealed before the migration, probe.now and probe.far
    const check = await verifyAuditChain(db);
    expect(check).to.include({ ok: true, checked: (await rows()).length, unsealed: 0 });
  });

  it('writes the content of the rows it seals only, not of every unsealed row of every month', async function () {
    interface PlanNode { 'Node Type': string; Output?: string[]; Plans?: PlanNode[] }
    const [{ 'QUERY PLAN': [{ Plan: plan }] }] = await q<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (VERBOSE, FORMAT JSON) ${UNSEALED_BATCH_SQL}`, { limit: 2 });
    const writesContent = (n: PlanNode) => (n.Output ?? []).some((o) => o.includes('jsonb_build_array'));
    const below = (n: PlanNode): PlanNode[] => (n.Plans ?? []).flatMap((c) => [c, ...below(c)]);
    const find = (n: PlanNode): PlanNode | undefined => (n['Node Type'] === 'Limit' ? n : (n.Plans ?? []).map(find).find(Boolean));
    const limit = find(plan);
    expect(limit, 'the batch is chosen by a LIMIT').to.not.equal(undefined);
    // Under the LIMIT every unsealed row is read; the content is written above it, for the batch alone.
    expect(below(limit!).filter(writesContent).map((n) => n['Node Type'])).to.deep.equal([]);
    expect([plan, ...below(plan)].some(writesContent)).to.equal(true);
  });

  it('makes the coming months once, whoever asks (the worker\'s scanner)', async function () {
    expect(await ensureAuditMonths(db, { now })).to.deep.equal({ made: 0 });
    const nextYear = new Date(Date.UTC(now.getUTCFullYear() + 1, now.getUTCMonth(), 15));
    const [a, b] = await Promise.all([ensureAuditMonths(db, { now: nextYear }), ensureAuditMonths(db, { now: nextYear })]);
    expect(a.made + b.made, "that month and the ones ahead of it, each once").to.equal(1 + AUDIT_MONTHS_AHEAD);
    const [{ triggers }] = await q<{ triggers: number }>(`SELECT count(*)::int AS triggers FROM pg_trigger WHERE tgrelid = CAST(:part AS regclass) AND tgname = 'audit_events_no_truncate'`, { part: partitionName(monthOf(nextYear)) });
    expect(triggers).to.equal(1);
  });
});
