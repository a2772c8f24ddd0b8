/**
 * `npm run audit:archive -- --before YYYY-MM [--dir DIR]`: archives every month of the audit trail
 * before that month on DATABASE_URL (server/src/audit-trail/archive.ts; docs/audit-trail.md): one
 * pg_dump custom-format file per month in DIR (default .data/audit-archive), recorded in
 * audit_archives, then the month's table dropped. Refuses (exit 1, saying why) a bad or too recent
 * month, a broken chain, or a missing pg_dump of the server's version.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { connect } from '@platform/db';
import { archiveAuditMonths, AuditArchiveRefused, loadConfig, monthText, parseArchiveBefore } from '@platform/server';

const usage = 'Usage: npm run audit:archive -- --before YYYY-MM [--dir DIR]';

async function main(): Promise<number> {
  let values: { before?: string; dir?: string };
  try {
    ({ values } = parseArgs({ options: { before: { type: 'string' }, dir: { type: 'string' } }, strict: true }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    return 1;
  }
  const config = loadConfig();
  const db = connect(config.databaseUrl, { poolMax: 2 });
  try {
    const before = parseArchiveBefore(values.before, new Date());
    const dir = path.resolve(values.dir ?? '.data/audit-archive');
    console.log(`Archiving the audit trail's months before ${monthText(before)} into ${dir}…`);
    const done = await archiveAuditMonths(db, {
      databaseUrl: config.databaseUrl, before, dir,
      onMonth: (m) => console.log(`Archived ${m.month}: ${m.rows.toLocaleString('en-US')} rows → ${m.file} (${(m.bytes / 1024 / 1024).toFixed(1)} MiB, sha256 ${m.sha256})${m.firstChainSeq !== null ? `; chain positions ${m.firstChainSeq} to ${m.lastChainSeq}` : ''}`),
    });
    console.log(done.length ? `${done.length} month(s) archived. Keep each file as docs/audit-trail.md says (six years at least).` : `Nothing to archive before ${monthText(before)}.`);
    return 0;
  } catch (err) {
    if (err instanceof AuditArchiveRefused) {
      console.error(`Not archived: ${err.message}`);
      return 1;
    }
    throw err;
  } finally {
    await db.close();
  }
}

process.exitCode = await main();
