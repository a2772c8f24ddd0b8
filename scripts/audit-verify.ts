/**
 * `npm run audit:verify`: seals the audit rows still unsealed, then walks the whole hash chain of
 * the audit trail on DATABASE_URL (docs/audit-trail.md). Prints the chain's head (its id and hash:
 * keep it somewhere the database's administrators cannot write); exits 1 naming the first row
 * where the chain does not hold, and why. `-- --no-seal` checks without sealing first. Months
 * archived (`npm run audit:archive`) are stepped over by their recorded first and last hashes.
 */
import { connect } from '@platform/db';
import { loadConfig, sealAuditEvents, verifyAuditChain } from '@platform/server';

const db = connect(loadConfig().databaseUrl, { poolMax: 2 });
try {
  if (!process.argv.includes('--no-seal')) await sealAuditEvents(db, { wait: true });
  const check = await verifyAuditChain(db);
  if (check.broken) {
    console.error(`Audit trail BROKEN at row ${check.broken.id} (chain position ${check.broken.chainSeq}): ${check.broken.reason}.`);
    console.error(`${check.checked} row(s) before it hold.`);
    process.exitCode = 1;
  } else {
    console.log(`Audit trail verified: ${check.checked} sealed row(s) hold${check.unsealed ? `; ${check.unsealed} written since, not sealed yet` : ''}.`);
    if (check.archived.months.length) {
      console.log(`Archived: ${check.archived.rows} row(s) of ${check.archived.months.length} month(s) (${check.archived.months.join(', ')}), stepped over by their recorded first and last hashes.`);
    }
    if (check.head) console.log(`Head: row ${check.head.id}, chain position ${check.head.chainSeq}, hash ${check.head.hash}`);
  }
} finally {
  await db.close();
}
