/** One database connection: a Sequelize instance with every model. No global: callers pass the Db around. */
import pg from 'pg';
import { Sequelize } from 'sequelize';
import { initModels, type Models } from './models';

export interface Db {
  sequelize: Sequelize;
  models: Models;
  /**
   * The pool the hot reads' prepared statements run on (prepared.ts), opened on first use. Its
   * connections keep one generic plan per statement (`plan_cache_mode = force_generic_plan`): left to
   * choose, PostgreSQL planned some lists afresh on every call (about 1 ms, more than running them).
   * Rows are parsed as Sequelize's own connections parse them (int8 as numbers).
   */
  preparedPool(): pg.Pool;
  /** Closes the pools (call it in a `finally`, or scripts hang). */
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Log every SQL statement to the console (off by default). */
  logging?: boolean;
  /** Largest number of pooled connections (default 10). */
  poolMax?: number;
}

const INT8_OID = 20;
const INT8_ARRAY_OID = 1016;

function int8ToNumber(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${value} does not fit in a JavaScript number`);
  return n;
}

/**
 * Every `id` is a bigserial; pg returns int8 as a string. This connection reads int8 (and int8[])
 * as numbers, through Sequelize's own per-instance type-parser map: no global pg setting changes.
 */
function readInt8AsNumber(sequelize: Sequelize): void {
  const manager = sequelize.connectionManager as unknown as { oidParserMap?: unknown };
  if (!(manager.oidParserMap instanceof Map)) {
    throw new Error('sequelize internals changed: cannot install the int8 parser (connectionManager.oidParserMap)');
  }
  const parsers = manager.oidParserMap as Map<number, (value: string) => unknown>;
  const getTypeParser = pg.types.getTypeParser as (oid: number, format: 'text') => (value: string) => unknown;
  const parseArray = getTypeParser(INT8_ARRAY_OID, 'text') as (value: string) => (string | null)[];
  parsers.set(INT8_OID, int8ToNumber);
  parsers.set(INT8_ARRAY_OID, (value) => parseArray(value).map((v) => (v === null ? null : int8ToNumber(v))));
}

/**
 * Every connection's settings:
 *  - no JIT compilation: our statements are short; a few whose estimated cost passes PostgreSQL's
 *    JIT threshold (an import's 10,000-barcode check, a large account's count) spent 20 ms
 *    compiling expressions to save less than that in running them;
 *  - random_page_cost 1.1 (PostgreSQL's default, 4, prices a read of an index's row as a disk seek):
 *    the working set is in memory, and at 4 an import's 10,000 samples by primary key were found
 *    by reading every sample In Queue of the database instead (125 ms against 14 ms).
 */
export const SESSION_OPTIONS = '-c jit=off -c random_page_cost=1.1';

export function connect(databaseUrl: string, opts: ConnectOptions = {}): Db {
  const sequelize = new Sequelize(databaseUrl, {
    dialect: 'postgres',
    logging: opts.logging ? (sql: string) => console.log(sql) : false,
    define: { underscored: true },
    dialectOptions: { options: SESSION_OPTIONS },
    pool: { max: opts.poolMax ?? 10, min: 0, idle: 10_000, acquire: 30_000 },
  });
  readInt8AsNumber(sequelize);
  const models = initModels(sequelize);
  let prepared: pg.Pool | null = null;
  return {
    sequelize,
    models,
    preparedPool: () => (prepared ??= openPreparedPool(sequelize, databaseUrl, opts.poolMax ?? 10)),
    close: async () => {
      await Promise.all([sequelize.close(), prepared?.end()]);
    },
  };
}

/** One generic plan per statement (see Db.preparedPool); UTC, as Sequelize's own connections have it. */
export const PREPARED_SESSION_OPTIONS = `${SESSION_OPTIONS} -c plan_cache_mode=force_generic_plan -c TimeZone=UTC`;

function openPreparedPool(sequelize: Sequelize, databaseUrl: string, max: number): pg.Pool {
  const manager = sequelize.connectionManager as unknown as { getTypeParser(oid: number, format?: string): (value: string) => unknown };
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    idleTimeoutMillis: 10_000,
    options: PREPARED_SESSION_OPTIONS,
    types: { getTypeParser: ((oid: number, format?: string) => manager.getTypeParser(oid, format)) as typeof pg.types.getTypeParser },
  });
  // An idle connection the server drops must not crash the process: the pool discards it.
  pool.on('error', () => undefined);
  return pool;
}
