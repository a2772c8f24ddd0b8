/**
 * `npm run audit:archive -- --before YYYY-MM` (issue 32): every month of the audit table before that
 * month is detached from the table, written to a pg_dump custom-format file (one per month, read
 * back with pg_restore), recorded in audit_archives (file, sha256, rows, ids, chain positions,
 * first and last hashes, the stretches of the chain it held) and only then dropped. The current and
 * previous months are never archived. Before anything is detached the chain is verified whole: a
 * broken chain is not archived (the break would leave with it). A month detached by a run that
 * stopped half-way is finished by the next run before anything else.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { QueryTypes } from 'sequelize';
import type { Db } from '@platform/db';
import { AUDIT_MONTH_PATTERN, AuditTrailAction } from '@platform/domain';
import { recordAudit, systemCaller, auditActor } from '../audit';
import { sealAuditEvents, verifyAuditChain, type ArchivedChainRun } from './chain';
import { addMonths, monthBefore, monthOf, monthOfPartition, monthStart, monthText, partitionName, type AuditMonth } from './partitions';

const run = promisify(execFile);

/** A reason the archive refuses to run (bad arguments, a broken chain, no suitable pg_dump): the script prints it and exits 1. */
export class AuditArchiveRefused extends Error {}

/** `--before` as a month: a YYYY-MM no later than the month before the previous one's successor (the current and previous months stay). */
export function parseArchiveBefore(before: string | undefined, now: Date): AuditMonth {
  if (!before) throw new AuditArchiveRefused('Name the first month to keep: --before YYYY-MM (every month before it is archived).');
  const m = AUDIT_MONTH_PATTERN.exec(before);
  if (!m) throw new AuditArchiveRefused(`--before must be a month written YYYY-MM (e.g. 2026-01), not "${before}".`);
  const month = { year: Number(m[1]), month: Number(m[2]) };
  const previous = addMonths(monthOf(now), -1);
  if (monthBefore(previous, month)) {
    throw new AuditArchiveRefused(`--before ${before} would archive ${monthText(addMonths(month, -1))}: the current month (${monthText(monthOf(now))}) and the previous one (${monthText(previous)}) are never archived. The latest allowed is --before ${monthText(previous)}.`);
  }
  return month;
}

/** The pg_dump and pg_restore of the server's major version (Debian's postgresql-client-N), or a refusal saying what to install. */
export async function pgTools(db: Db): Promise<{ pgDump: string; pgRestore: string; serverMajor: number }> {
  const [{ v }] = await db.sequelize.query<{ v: string }>("SELECT current_setting('server_version_num') AS v", { type: QueryTypes.SELECT });
  const serverMajor = Math.floor(Number(v) / 10_000);
  const candidates = [`/usr/lib/postgresql/${serverMajor}/bin`, ...(process.env.PATH ?? '').split(':').filter(Boolean)];
  for (const dir of candidates) {
    const pgDump = path.join(dir, 'pg_dump');
    const pgRestore = path.join(dir, 'pg_restore');
    if (!existsSync(pgDump) || !existsSync(pgRestore)) continue;
    const { stdout } = await run(pgDump, ['--version']);
    const major = Number(/(\d+)(?:\.\d+)?/.exec(stdout)?.[1]);
    // pg_dump refuses a server newer than itself; an older server it dumps in the server's own format.
    if (major >= serverMajor) return { pgDump, pgRestore, serverMajor };
  }
  throw new AuditArchiveRefused(`No pg_dump of PostgreSQL ${serverMajor} or later found (looked in /usr/lib/postgresql/${serverMajor}/bin and PATH): install postgresql-client-${serverMajor} (Debian: apt-get install postgresql-client-${serverMajor}).`);
}

export interface ArchivedMonth {
  month: string;
  file: string;
  sha256: string;
  bytes: number;
  rows: number;
  firstChainSeq: number | null;
  lastChainSeq: number | null;
}

interface MonthSummary {
  rows: number;
  unsealed: number;
  first_id: string | null;
  last_id: string | null;
  first_seq: string | null;
  last_seq: string | null;
}

/** The months of the table before `before`: attached partitions, and tables a stopped run detached but did not finish. */
async function monthsToArchive(db: Db, before: AuditMonth): Promise<Array<{ month: AuditMonth; table: string; attached: boolean }>> {
  const rows = await db.sequelize.query<{ name: string; attached: boolean }>(
    `SELECT c.relname AS name, c.relispartition AS attached FROM pg_class c
      WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.relname ~ '^audit_events_[0-9]{4}_[0-9]{2}$'
        AND (NOT c.relispartition OR EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid AND i.inhparent = 'audit_events'::regclass))
      ORDER BY c.relname`,
    { type: QueryTypes.SELECT },
  );
  return rows
    .map((r) => ({ month: monthOfPartition(r.name)!, table: r.name, attached: r.attached }))
    .filter((r) => monthBefore(r.month, before));
}

/** Rows of months before the cut in the default partition: they cannot be archived by month, so the archive refuses. */
async function defaultRowsBefore(db: Db, before: AuditMonth): Promise<number> {
  const [{ n }] = await db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_events_default WHERE at < CAST(:cut AS timestamptz)', {
    replacements: { cut: monthStart(before).toISOString() }, type: QueryTypes.SELECT,
  });
  return n;
}

/** What a month's table holds, and the stretches of consecutive chain positions its rows take. */
async function summarise(db: Db, table: string): Promise<{ summary: MonthSummary; runs: ArchivedChainRun[]; firstHash: string | null; lastHash: string | null }> {
  const q = <T extends object>(sql: string) => db.sequelize.query<T>(sql, { type: QueryTypes.SELECT });
  const [summary] = await q<MonthSummary>(`SELECT count(*)::int AS rows, count(*) FILTER (WHERE chain_seq IS NULL)::int AS unsealed,
      min(id)::text AS first_id, max(id)::text AS last_id, min(chain_seq)::text AS first_seq, max(chain_seq)::text AS last_seq FROM "${table}"`);
  // Gaps and islands: positions are consecutive within a stretch exactly when position − rank is constant.
  const runs = await q<{ first: string; last: string; prev_hash: string; last_hash: string }>(
    `WITH r AS (SELECT min(chain_seq) AS first, max(chain_seq) AS last
                  FROM (SELECT chain_seq, chain_seq - row_number() OVER (ORDER BY chain_seq) AS island FROM "${table}") x GROUP BY island)
     SELECT r.first::text AS first, r.last::text AS last,
            (SELECT prev_hash FROM "${table}" WHERE chain_seq = r.first LIMIT 1) AS prev_hash,
            (SELECT hash FROM "${table}" WHERE chain_seq = r.last LIMIT 1) AS last_hash
       FROM r ORDER BY r.first`);
  const hashAt = async (seq: string | null) => (seq === null ? null : (await q<{ hash: string }>(`SELECT hash FROM "${table}" WHERE chain_seq = ${Number(seq)} LIMIT 1`))[0]?.hash ?? null);
  return {
    summary,
    runs: runs.map((r) => ({ first: Number(r.first), last: Number(r.last), prevHash: r.prev_hash, lastHash: r.last_hash })),
    firstHash: await hashAt(summary.first_seq),
    lastHash: await hashAt(summary.last_seq),
  };
}

/** The connection as libpq's variables (a password never on a command line, where `ps` shows it). */
function libpqEnv(databaseUrl: string): NodeJS.ProcessEnv {
  const url = new URL(databaseUrl);
  const env: NodeJS.ProcessEnv = { ...process.env, PGHOST: url.hostname, PGPORT: url.port || '5432', PGDATABASE: decodeURIComponent(url.pathname.slice(1)) };
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** One month: detached (if still attached), dumped, read back, recorded and dropped. */
async function archiveMonth(db: Db, databaseUrl: string, tools: { pgDump: string; pgRestore: string }, dir: string,
  m: { month: AuditMonth; table: string; attached: boolean }): Promise<ArchivedMonth> {
  const file = path.resolve(dir, `audit-events-${monthText(m.month)}.dump`);
  if (existsSync(file)) throw new AuditArchiveRefused(`${file} already exists: move it away (it may be an earlier archive of ${monthText(m.month)}) and run again.`);
  if (m.attached) {
    const [{ unsealed }] = await db.sequelize.query<{ unsealed: number }>(`SELECT count(*)::int AS unsealed FROM "${m.table}" WHERE chain_seq IS NULL`, { type: QueryTypes.SELECT });
    if (unsealed > 0) throw new AuditArchiveRefused(`${unsealed} row(s) of ${monthText(m.month)} are not sealed into the chain yet: run again in a minute.`);
    // A short wait for the lock, so that a long reader does not hold every insert behind the detach.
    await db.sequelize.transaction(async (transaction) => {
      await db.sequelize.query(`SET LOCAL lock_timeout = '10s'`, { transaction });
      await db.sequelize.query(`ALTER TABLE audit_events DETACH PARTITION "${m.table}"`, { transaction });
    });
  }
  // The file restores into any database: without the triggers that name this database's function,
  // and without the id default that names its sequence (an archived month takes no new rows).
  const triggers = await db.sequelize.query<{ name: string }>(`SELECT tgname AS name FROM pg_trigger WHERE tgrelid = CAST(:table AS regclass) AND NOT tgisinternal`, {
    replacements: { table: `"${m.table}"` }, type: QueryTypes.SELECT,
  });
  for (const t of triggers) await db.sequelize.query(`DROP TRIGGER "${t.name}" ON "${m.table}"`);
  await db.sequelize.query(`ALTER TABLE "${m.table}" ALTER COLUMN id DROP DEFAULT`);
  const { summary, runs, firstHash, lastHash } = await summarise(db, m.table);
  await run(tools.pgDump, ['--format=custom', '--no-owner', '--no-privileges', `--table=public."${m.table}"`, `--file=${file}`], { env: libpqEnv(databaseUrl), maxBuffer: 16 * 1024 * 1024 });
  const { stdout: listing } = await run(tools.pgRestore, ['--list', file], { maxBuffer: 16 * 1024 * 1024 });
  if (!listing.includes(`TABLE DATA public ${m.table}`)) throw new AuditArchiveRefused(`pg_restore --list ${file} does not list the table's data: the month stays (detached, not dropped); run again.`);
  const sha256 = await sha256Of(file);
  const bytes = statSync(file).size;
  await db.sequelize.transaction(async (transaction) => {
    await db.sequelize.query(
      `INSERT INTO audit_archives (month, file_name, file_sha256, file_bytes, row_count, first_id, last_id, first_chain_seq, last_chain_seq, first_hash, last_hash, chain_runs)
       VALUES (CAST(:month AS date), :file, :sha256, :bytes, :rows, :firstId, :lastId, :firstSeq, :lastSeq, :firstHash, :lastHash, CAST(:runs AS jsonb))`,
      {
        replacements: {
          month: `${monthText(m.month)}-01`, file, sha256, bytes, rows: summary.rows, firstId: summary.first_id, lastId: summary.last_id,
          firstSeq: summary.first_seq, lastSeq: summary.last_seq, firstHash, lastHash, runs: JSON.stringify(runs),
        },
        transaction,
      },
    );
    await recordAudit(db, {
      ...auditActor(systemCaller()), action: AuditTrailAction.Archived,
      details: { month: monthText(m.month), file, sha256, rows: summary.rows, firstChainSeq: summary.first_seq === null ? null : Number(summary.first_seq), lastChainSeq: summary.last_seq === null ? null : Number(summary.last_seq) },
    }, transaction);
    await db.sequelize.query(`DROP TABLE "${m.table}"`, { transaction });
  });
  return {
    month: monthText(m.month), file, sha256, bytes, rows: summary.rows,
    firstChainSeq: summary.first_seq === null ? null : Number(summary.first_seq), lastChainSeq: summary.last_seq === null ? null : Number(summary.last_seq),
  };
}

/**
 * Archives every month before `before` into `dir` (see the file's comment). `onMonth` hears each
 * month as it is done (a run of several months can take minutes).
 */
export async function archiveAuditMonths(db: Db, options: { databaseUrl: string; before: AuditMonth; dir: string; onMonth?: (m: ArchivedMonth) => void }): Promise<ArchivedMonth[]> {
  const tools = await pgTools(db);
  mkdirSync(options.dir, { recursive: true });
  const months = await monthsToArchive(db, options.before);
  const done: ArchivedMonth[] = [];
  const archive = async (m: (typeof months)[number]) => {
    const archived = await archiveMonth(db, options.databaseUrl, tools, options.dir, m);
    options.onMonth?.(archived);
    done.push(archived);
  };
  // A month a stopped run detached is finished first: until then the chain misses its rows.
  for (const m of months.filter((x) => !x.attached)) await archive(m);
  const attached = months.filter((x) => x.attached);
  if (!attached.length) return done;
  const inDefault = await defaultRowsBefore(db, options.before);
  if (inDefault > 0) {
    throw new AuditArchiveRefused(`${inDefault} row(s) dated before ${monthText(options.before)} sit in the default partition audit_events_default (written for a month without a partition), and a month is archived whole: nothing was archived. Keep them, or archive an earlier month.`);
  }
  await sealAuditEvents(db, { wait: true });
  const check = await verifyAuditChain(db);
  if (check.broken) {
    throw new AuditArchiveRefused(`The audit chain is broken at row ${check.broken.id} (chain position ${check.broken.chainSeq}): ${check.broken.reason}. Nothing was archived: a broken chain is investigated, not archived.`);
  }
  for (const m of attached) await archive(m);
  return done;
}
