/** Creating and dropping whole databases (the test harness makes one per run). */
import pg from 'pg';
import { identifier } from './sql';

async function withAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * CREATE DATABASE `name`, connected through `adminUrl` (a URL of an existing database, e.g. …/postgres);
 * with `template`, a copy of that database (nobody may be connected to it meanwhile).
 */
export async function createDatabase(adminUrl: string, name: string, { template }: { template?: string } = {}): Promise<void> {
  const copyOf = template ? ` TEMPLATE ${identifier(template)}` : '';
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${identifier(name)}${copyOf}`));
}

/** DROP DATABASE IF EXISTS `name` WITH (FORCE): ends the sessions still connected to it. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${identifier(name)} WITH (FORCE)`));
}

/** `url` with its database name replaced by `name` (keeps user, host, port and query). */
export function databaseUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(name)}`;
  return u.toString();
}
