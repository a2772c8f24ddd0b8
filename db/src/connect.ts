/** One database connection: a Sequelize instance with every model. No global: callers pass the Db around. */
import pg from 'pg';
import { Sequelize } from 'sequelize';
import { initModels, type Models } from './models';

export interface Db {
  sequelize: Sequelize;
  models: Models;
  /** Closes the pool (call it in a `finally`, or scripts hang). */
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

export function connect(databaseUrl: string, opts: ConnectOptions = {}): Db {
  const sequelize = new Sequelize(databaseUrl, {
    dialect: 'postgres',
    logging: opts.logging ? (sql: string) => console.log(sql) : false,
    define: { underscored: true },
    pool: { max: opts.poolMax ?? 10, min: 0, idle: 10_000, acquire: 30_000 },
  });
  readInt8AsNumber(sequelize);
  const models = initModels(sequelize);
  return {
    sequelize,
    models,
    close: () => sequelize.close(),
  };
}
