/**
 * Migrations: umzug 3 over the repository's `migrations/*.ts`, recorded in `schema_migrations`.
 * A migration file exports `up` and `down`, each `({ context }) => Promise<void>` where the
 * context is the Sequelize instance (raw SQL through `context.query(sql)`).
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug, type MigrationParams, type UmzugOptions } from 'umzug';

/** What every migration receives as `context`. */
export type MigrationContext = Sequelize;
/** The type of a migration file's `up` and `down`. */
export type Migration = (params: MigrationParams<MigrationContext>) => Promise<void>;

/** The folder of migration files (the repository's `migrations/`). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));
/** The table where umzug records the migrations that ran. */
export const MIGRATIONS_TABLE = 'schema_migrations';

interface MigrationModule {
  up: Migration;
  down: Migration;
}

async function load(path: string): Promise<MigrationModule> {
  const mod = (await import(pathToFileURL(path).href)) as Partial<MigrationModule>;
  if (typeof mod.up !== 'function' || typeof mod.down !== 'function') {
    throw new Error(`migration ${path} must export both up() and down()`);
  }
  return mod as MigrationModule;
}

export interface MigratorOptions {
  /** umzug's logger; silent unless given (pass `console` to print each step). */
  logger?: UmzugOptions<MigrationContext>['logger'];
}

/**
 * An umzug migrator for this database. Names are the file names without extension
 * (`20261121120000-accounts-and-users`); files run in name order.
 */
export function createMigrator(sequelize: Sequelize, opts: MigratorOptions = {}): Umzug<MigrationContext> {
  return new Umzug<MigrationContext>({
    migrations: {
      glob: ['*.ts', { cwd: MIGRATIONS_DIR, ignore: ['*.d.ts', '*.test.ts'] }],
      resolve: ({ name, path, context }) => {
        if (!path) throw new Error(`migration ${name} has no file`);
        const params = { name, path, context };
        return {
          name: name.replace(/\.[cm]?ts$/, ''),
          path,
          up: async () => (await load(path)).up(params),
          down: async () => (await load(path)).down(params),
        };
      },
    },
    context: sequelize,
    storage: new SequelizeStorage({ sequelize, tableName: MIGRATIONS_TABLE, modelName: 'SchemaMigration' }),
    logger: opts.logger,
  });
}
