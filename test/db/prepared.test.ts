/**
 * queryPrepared (db/src/prepared.ts): a statement's positional form is worked out once per shape and
 * reused, so what must change between calls does: the values (never the first call's), an array's
 * length (a statement of its own), a constant (written into the text), and a missing value is refused.
 */
import { expect } from 'chai';
import { connect, queryPrepared, type Db } from '@platform/db';

const ADMIN_URL = process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('queryPrepared', () => {
  let db: Db;
  before(() => {
    db = connect(ADMIN_URL, { poolMax: 2 });
  });
  after(() => db.close());

  const SQL = 'SELECT x FROM unnest(ARRAY[:ids]::int[]) AS x WHERE x <> :skip AND x <= :most ORDER BY x';
  const read = async (ids: number[], skip: number, most: number) =>
    (await queryPrepared<{ x: number }>(db, SQL, { ids, skip }, { most })).map((r) => r.x);

  it('answers each call with its own values, whatever the calls before it', async () => {
    expect(await read([1, 2, 3], 2, 10)).to.deep.equal([1, 3]);
    expect(await read([4, 5, 6], 5, 10)).to.deep.equal([4, 6]);
    expect(await read([7, 8], 0, 10)).to.deep.equal([7, 8]);
    expect(await read([1, 2, 3, 4, 5], 1, 10)).to.deep.equal([2, 3, 4, 5]);
    expect(await read([1, 2, 3], 9, 10)).to.deep.equal([1, 2, 3]);
  });

  it('writes each constant into its own statement', async () => {
    expect(await read([1, 2, 3], 0, 2)).to.deep.equal([1, 2]);
    expect(await read([1, 2, 3], 0, 1)).to.deep.equal([1]);
  });

  it('refuses a value that is missing', async () => {
    let error: unknown = null;
    await queryPrepared(db, SQL, { ids: [1], skip: undefined }, { most: 1 }).catch((e: unknown) => (error = e));
    expect(String(error)).to.contain('no value for :skip');
  });
});
