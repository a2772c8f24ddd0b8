/**
 * `npm run audit:archive -- --before YYYY-MM` (issue 32) on this test process's database: rows of
 * an old month are archived to a pg_dump file that `pg_restore --list` reads, recorded in
 * audit_archives, and the month's table is gone; `npm run audit:verify` still passes (stepping over
 * the archived month by its recorded hashes) and still names a row changed behind the product's
 * back; the trail's page answers for recent months and says which months are archived; bad
 * arguments and the current or previous month are refused with a message.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { addMonths, AuditArchiveRefused, ensureAuditMonths, parseArchiveBefore, monthOf, monthText, partitionName, recordAudit, sealAuditEvents, verifyAuditChain } from '@platform/server';
import { createDatabase, databaseUrl, dropDatabase } from '@platform/db';
import { buildTestApp, signIn, type Session, type TestApp } from '../support/http';

const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_PREFIX = 'test_db_audit_restore_';

describe('api: the audit trail archived by month', function () {
  this.timeout(120_000);
  let t: TestApp;
  let admin: Session;
  let dir: string;
  const now = new Date();
  const old = addMonths(monthOf(now), -3);
  const previous = addMonths(monthOf(now), -1);
  const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) => t.ctx.db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
  const npm = (script: string, ...args: string[]) => {
    const run = spawnSync('npm', ['run', '--silent', script, '--', ...args], { env: process.env, encoding: 'utf8', timeout: 90_000 });
    return { code: run.status, out: `${run.stdout}${run.stderr}` };
  };

  before(async function () {
    t = await buildTestApp();
    admin = await signIn(t.app, 'admin', 'admin', '10.78.0.1');
    dir = mkdtempSync(path.join(os.tmpdir(), 'audit-archive-'));
    // An old month's reads (its partition made as the migration makes the months of the rows it finds).
    const at = new Date(Date.UTC(old.year, old.month - 1, 10, 12));
    await ensureAuditMonths(t.ctx.db, { now, from: at });
    for (let i = 0; i < 25; i += 1) {
      await t.ctx.db.sequelize.query(`INSERT INTO audit_events (actor_kind, action, entity_kind, entity_id, at) VALUES ('system', 'sample.viewed', 'sample', :id, CAST(:at AS timestamptz) + make_interval(mins => :i))`,
        { replacements: { id: String(9_000 + i), at: at.toISOString(), i } });
    }
    await recordAudit(t.ctx.db, { actorKind: 'system', action: 'archive_test.recent' });
    await sealAuditEvents(t.ctx.db, { wait: true });
  });

  after(async function () {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('refuses a bad month, the current month and the previous one, saying why, and archives nothing', async function () {
    const bad = npm('audit:archive', '--before', '2026-13', '--dir', dir);
    expect(bad.code).to.equal(1);
    expect(bad.out).to.contain('--before must be a month written YYYY-MM');
    // The script prints the same refusals (one spawn above shows it; spawns are slow).
    expect(() => parseArchiveBefore(undefined, now)).to.throw(AuditArchiveRefused, '--before YYYY-MM');
    for (const month of [monthOf(now), addMonths(monthOf(now), 2)]) {
      expect(() => parseArchiveBefore(monthText(month), now)).to.throw(AuditArchiveRefused,
        `the current month (${monthText(monthOf(now))}) and the previous one (${monthText(previous)}) are never archived`);
    }
    expect(parseArchiveBefore(monthText(previous), now)).to.deep.equal(previous);
    const [{ n }] = await q<{ n: number }>('SELECT count(*)::int AS n FROM audit_archives');
    expect(n).to.equal(0);
  });

  it('archives the old month to a file pg_restore reads, records it, and drops its table', async function () {
    const [{ seqs }] = await q<{ seqs: string[] }>(`SELECT array_agg(chain_seq::text ORDER BY chain_seq) AS seqs FROM ${partitionName(old)}`);
    const run = npm('audit:archive', '--before', monthText(previous), '--dir', dir);
    expect(run.code, run.out).to.equal(0);
    expect(run.out).to.contain(`Archived ${monthText(old)}: 25 rows`);
    const file = path.join(dir, `audit-events-${monthText(old)}.dump`);
    expect(existsSync(file)).to.equal(true);
    const listing = spawnSync('pg_restore', ['--list', file], { encoding: 'utf8' });
    expect(listing.status, listing.stderr).to.equal(0);
    expect(listing.stdout).to.contain(`TABLE DATA public ${partitionName(old)}`);
    // Read back as docs/audit-trail.md says: restored into a database of its own.
    const scratch = `${DB_PREFIX}${process.pid}_${Date.now()}`;
    await createDatabase(ADMIN_URL, scratch);
    try {
      const restore = spawnSync('pg_restore', ['--no-owner', `--dbname=${databaseUrl(ADMIN_URL, scratch)}`, file], { encoding: 'utf8' });
      expect(restore.status, restore.stderr).to.equal(0);
      const count = spawnSync('psql', ['-Atc', `SELECT count(*), count(DISTINCT hash) FROM ${partitionName(old)}`, databaseUrl(ADMIN_URL, scratch)], { encoding: 'utf8' });
      expect(count.stdout.trim()).to.equal('25|25');
    } finally {
      await dropDatabase(ADMIN_URL, scratch);
    }
    const [record] = await q<{ row_count: string; first_chain_seq: string; last_chain_seq: string; file_name: string; chain_runs: unknown[] }>(
      `SELECT row_count::text, first_chain_seq::text, last_chain_seq::text, file_name, chain_runs FROM audit_archives WHERE month = CAST(:m AS date)`, { m: `${monthText(old)}-01` });
    expect(record).to.include({ row_count: '25', first_chain_seq: seqs[0], last_chain_seq: seqs[24], file_name: file });
    expect(record.chain_runs).to.have.length.greaterThan(0);
    const [{ gone }] = await q<{ gone: string | null }>('SELECT to_regclass(:t)::text AS gone', { t: partitionName(old) });
    expect(gone, 'the month\'s table').to.equal(null);
    const [{ left }] = await q<{ left: number }>(`SELECT count(*)::int AS left FROM audit_events WHERE at < CAST(:cut AS timestamptz)`, { cut: `${monthText(previous)}-01T00:00:00Z` });
    expect(left).to.equal(0);
    const audited = await t.ctx.db.models.AuditEvent.findAll({ where: { action: 'audit_trail.archived' }, order: [['id', 'ASC']] });
    expect(audited.map((a) => a.details.month), 'each month before the cut, an empty one too').to.deep.equal([monthText(old), monthText(addMonths(old, 1))]);
    expect(audited[0].details).to.include({ file, rows: 25 });
  });

  it('still verifies, stepping over the archived month, and still names a row changed behind the product\'s back', async function () {
    const ok = npm('audit:verify');
    expect(ok.code, ok.out).to.equal(0);
    expect(ok.out).to.match(/Audit trail verified: \d+ sealed row\(s\) hold/);
    expect(ok.out).to.contain(`Archived: 25 row(s) of`);
    const db = t.ctx.db;
    const [row] = await q<{ id: string; details: string }>(`SELECT id::text, details::text FROM audit_events WHERE action = 'archive_test.recent'`);
    const behindTheBack = async (sql: string) => db.sequelize.transaction(async (transaction) => {
      await db.sequelize.query('SET LOCAL session_replication_role = replica', { transaction });
      await db.sequelize.query(sql, { transaction });
    });
    await behindTheBack(`UPDATE audit_events SET details = '{"x": 1}' WHERE id = ${row.id}`);
    try {
      const broken = npm('audit:verify');
      expect(broken.code).to.equal(1);
      expect(broken.out).to.contain(`Audit trail BROKEN at row ${row.id}`);
    } finally {
      await behindTheBack(`UPDATE audit_events SET details = CAST('${row.details.replaceAll("'", "''")}' AS jsonb) WHERE id = ${row.id}`);
    }
    expect((await verifyAuditChain(db)).ok).to.equal(true);
  });

  it('answers the trail\'s page for recent months and says which months are archived', async function () {
    const recent = await admin.agent.get('/api/admin/audit-trail').query({ action: 'archive_test.recent' }).set('X-Forwarded-For', '10.78.0.1').expect(200);
    expect(recent.body.events.map((e: { action: string }) => e.action)).to.deep.equal(['archive_test.recent']);
    expect(recent.body.archivedMonths).to.include(monthText(old));
    const inArchive = await admin.agent.get('/api/admin/audit-trail')
      .query({ from: `${monthText(old)}-01T00:00:00Z`, to: `${monthText(addMonths(old, 1))}-01T00:00:00Z` }).set('X-Forwarded-For', '10.78.0.1').expect(200);
    expect(inArchive.body.events).to.deep.equal([]);
    expect(inArchive.body.archivedMonths).to.include(monthText(old));
  });
});
