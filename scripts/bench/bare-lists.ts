/**
 * Issue 32's list limit (`list-vs-bare-stack`): each list page's own SQL, as the product sends it,
 * replayed through `pg` behind a bare Express route (no session, no authorisation, no audit) in a
 * process of its own, so that a list is compared with what its queries alone allow in the same run.
 *
 * The SQL is captured from an API answering the page in this process: every statement pg is handed
 * while the request runs (Sequelize and the prepared pool both go through pg.Client#query), less the
 * statements of the session, authorisation, audit and job machinery, and transaction control.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PREPARED_SESSION_OPTIONS, SESSION_OPTIONS } from '@platform/db';

export interface CapturedQuery {
  text: string;
  values: unknown[];
  /** The prepared statement's name, where the product prepared it (planned once per connection): replayed the same way. */
  name?: string;
}

/**
 * What the limit leaves out: the session's row, a statement that only writes an audit row, jobs,
 * transaction control. (The caller's rights come from the API's auth cache, warm by the time a page
 * is captured.) A list's read audit is a data-modifying CTE of the list's own statement
 * (server/src/audit.ts auditInsertSql): that CTE is cut out, the rest of the statement kept.
 */
const NOT_THE_PAGE = /^\s*(BEGIN|START TRANSACTION|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|SET|LISTEN|UNLISTEN|SHOW|INSERT INTO audit_events)\b|"session"|\bsession\b|\boutbox\b|\bjob_runs\b/i;
const AUDIT_CTE = /(,\s*)?"?\w+"?\s+AS\s+(?:NOT\s+)?(?:MATERIALIZED\s+)?\(\s*INSERT\s+INTO\s+audit_events\b/i;

/** The statement without its audit CTE (`name AS (INSERT INTO audit_events …)`), or as it was. */
export function withoutAuditCte(text: string): string {
  const m = AUDIT_CTE.exec(text);
  if (!m) return text;
  let depth = 0;
  let end = text.indexOf('(', m.index + (m[1]?.length ?? 0));
  for (; end < text.length; end++) {
    if (text[end] === '(') depth++;
    else if (text[end] === ')' && --depth === 0) break;
  }
  if (m[1]) return text.slice(0, m.index) + text.slice(end + 1);
  // The first CTE: drop the comma after it instead (or the WITH, when it was the only one).
  const after = text.slice(end + 1);
  if (/^\s*,/.test(after)) return text.slice(0, m.index) + after.replace(/^\s*,/, '');
  return text.slice(0, m.index).replace(/WITH\s*$/i, '') + after;
}

/** The statement with its parameters renumbered to those it still uses (the audit CTE took some with it). */
function onlyUsedParameters({ text, values, name }: CapturedQuery): CapturedQuery {
  const used = [...new Set([...text.matchAll(/\$(\d+)\b/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
  const renumbered = new Map(used.map((n, i) => [n, i + 1]));
  return { text: text.replace(/\$(\d+)\b/g, (_, n: string) => `$${renumbered.get(Number(n))}`), values: used.map((n) => values[n - 1]), ...(name ? { name } : {}) };
}

/** Runs `during` and answers the page's statements pg was handed meanwhile (see NOT_THE_PAGE). */
export async function captureSql(during: () => Promise<void>): Promise<CapturedQuery[]> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const seen: CapturedQuery[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const [config, values] = args as [string | { text?: string; values?: unknown[]; name?: string } | undefined, unknown];
    const text = typeof config === 'string' ? config : config?.text;
    const bound = typeof config === 'string' || !config?.values ? values : config.values;
    const name = typeof config === 'string' ? undefined : config?.name;
    if (typeof text === 'string') seen.push({ text, values: Array.isArray(bound) ? bound : [], ...(name ? { name } : {}) });
    return original.apply(this, args);
  };
  try {
    await during();
  } finally {
    proto.query = original;
  }
  // A prepared statement keeps a name of its own: without its audit CTE it is another statement.
  return seen.filter((q) => !NOT_THE_PAGE.test(q.text))
    .map((q) => onlyUsedParameters({ ...q, text: withoutAuditCte(q.text), ...(q.name ? { name: `bare_${q.name}` } : {}) }));
}

/**
 * The bare stack: Express with one route per list, `GET /bare/<list>/<i>`, running page i's captured
 * statements (rotating over the pages captured) one after another on a pg pool of the product's size,
 * answering their rows as JSON. In a process of its own, as the API is.
 */
export async function startBareStack(pages: Record<string, CapturedQuery[][]>, databaseUrl: string, workDir: string, poolMax = 10): Promise<{ url: string; child: ChildProcess }> {
  const file = path.join(workDir, `bare-lists-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(pages));
  const code = `
    import express from 'express';
    import pg from 'pg';
    import { readFileSync } from 'node:fs';
    const pages = JSON.parse(readFileSync(${JSON.stringify(file)}, 'utf8'));
    // As the product's two pools: Sequelize's, and the prepared statements' (one generic plan each).
    const pool = new pg.Pool({ connectionString: ${JSON.stringify(databaseUrl)}, max: ${poolMax}, options: ${JSON.stringify(SESSION_OPTIONS)} });
    const prepared = new pg.Pool({ connectionString: ${JSON.stringify(databaseUrl)}, max: ${poolMax}, options: ${JSON.stringify(PREPARED_SESSION_OPTIONS)} });
    const app = express();
    app.disable('x-powered-by');
    app.get('/bare/:list/:i', async (req, res) => {
      const list = pages[req.params.list];
      if (!list) return res.status(404).end();
      const page = list[Number(req.params.i) % list.length];
      const out = [];
      for (const q of page) out.push((await (q.name ? prepared.query({ name: q.name, text: q.text, values: q.values }) : pool.query({ text: q.text, values: q.values }))).rows);
      res.set('Cache-Control', 'no-store').json(out);
    });
    const server = app.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: path.resolve(import.meta.dirname, '../../api'), stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      const m = /port (\d+)/.exec(String(d));
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (c) => reject(new Error(`the bare stack exited ${c}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}
