/**
 * The lists' limit in the bench (scripts/bench/bare-lists.ts): what it captures of a page read is
 * the page's own SQL as the product sends it (a prepared statement stays prepared, under a name of
 * its own), without the read's audit row or transaction control, and it answers the same page.
 */
import { expect } from 'chai';
import pg from 'pg';
import { connect, type Db } from '@platform/db';
import { auditedPage } from '@platform/server';
import { captureSql, type CapturedQuery } from '../../scripts/bench/bare-lists';

describe('bench: a list page\'s own SQL, captured for the bare stack', () => {
  let db: Db;
  before(async () => {
    db = connect(process.env.DATABASE_URL!, { poolMax: 2 });
    // A first connection's own reads (Sequelize's types) come before any capture, as in the bench's warm-up call.
    await db.sequelize.query('SELECT 1');
  });
  after(() => db.close());

  const readPage = (after: number) => auditedPage<{ id: number }>(db, {
    select: 'SELECT g.id FROM generate_series(1, 30) AS g(id) WHERE g.id > :after ORDER BY g.id LIMIT :limit OFFSET :offset',
    fromWhere: 'FROM generate_series(1, 30) AS g(id) WHERE g.id > :after',
    replacements: { after, limit: 5, offset: 5 },
    audit: { actorKind: 'system', action: 'bench.capture_checked' },
    idsKey: 'ids',
  });

  it('keeps the page\'s prepared statement, named apart and without its audit CTE, and leaves out transaction control', async () => {
    let page: { rows: { id: number }[]; total: number } | null = null;
    const captured = await captureSql(async () => {
      page = await readPage(10);
      await db.sequelize.transaction((transaction) => db.sequelize.query('SELECT 2 AS two', { transaction }));
    });
    expect(page!.rows.map((r) => Number(r.id))).to.deep.equal([16, 17, 18, 19, 20]);
    expect(captured.map((q) => q.text.includes('audit_events'))).to.deep.equal([false, false]);
    const [read, plain] = captured as [CapturedQuery, CapturedQuery];
    expect(read.name).to.match(/^bare_p_[0-9a-f]+$/);
    expect(read.values).to.deep.equal([10, 5, 5]); // the audit's parameters went with its CTE
    expect([plain.text, plain.name]).to.deep.equal(['SELECT 2 AS two', undefined]);

    // Replayed alone it answers the same page and the same total, and writes no audit row.
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const audited = async () => Number((await client.query("SELECT count(*) AS n FROM audit_events WHERE action = 'bench.capture_checked'")).rows[0].n);
      const before = await audited();
      const { rows } = await client.query({ name: read.name, text: read.text, values: read.values });
      expect(rows.filter((r) => r.page_row !== null).map((r) => Number(r.id))).to.deep.equal([16, 17, 18, 19, 20]);
      expect(Number(rows[0].page_total)).to.equal(20);
      expect(await audited()).to.equal(before);
    } finally {
      await client.end();
    }
  });
});
