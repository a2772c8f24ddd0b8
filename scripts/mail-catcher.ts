/**
 * The local SMTP catcher used in dev and tests: accepts every message on 127.0.0.1 and stores it
 * in the caught_mail table, where tests (and admins, in the app) read it back. It never relays.
 * `acceptDelayMs` holds the answer to DATA for a while: tests use it to kill a worker mid-send.
 */
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';
import { batched } from '@platform/server/batched';

export interface MailCatcher {
  port: number;
  setAcceptDelay(ms: number): void;
  close(): Promise<void>;
}

const addresses = (a: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(a) ? a : a ? [a] : []).flatMap((x) => x.value.map((v) => v.address ?? '')).filter(Boolean);

/** A parsed message as caught_mail stores it. */
type CaughtRow = [messageId: string | null, from: string | null, to: string[], subject: string, text: string, html: string | null, raw: string];

/** Messages one INSERT stores at most. */
const ROWS_PER_INSERT = 200;

export async function startMailCatcher(options: { databaseUrl: string; port?: number; host?: string }): Promise<MailCatcher> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 2 });
  pool.on('error', () => undefined); // an idle connection PostgreSQL closed: the next message reconnects
  const store = storeInBatches(pool);
  let acceptDelayMs = 0;
  // A message counts as delivered only once we answer its DATA; a client gone before that delivered nothing.
  const closedSessions = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onClose(session) {
      closedSessions.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        try {
          if (acceptDelayMs) await new Promise((r) => setTimeout(r, acceptDelayMs));
          if (closedSessions.has(session.id)) return callback(new Error('client went away before delivery'));
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail = await simpleParser(raw);
          // Answered only once its row is committed: a message we said we accepted is always in the table.
          await store([mail.messageId ?? null, addresses(mail.from)[0] ?? null, addresses(mail.to), mail.subject ?? '', mail.text ?? '', typeof mail.html === 'string' ? mail.html : null, raw]);
          callback();
        } catch (err) {
          callback(err as Error);
        }
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port ?? 0,
    setAcceptDelay(ms) {
      acceptDelayMs = ms;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

/**
 * Stores the messages that arrive while the previous INSERT runs with one INSERT of their own
 * (many SMTP connections deliver at once during a campaign); each caller waits for its commit.
 * Only the batching module is loaded: the catcher must not start the whole server package.
 */
function storeInBatches(pool: pg.Pool): (row: CaughtRow) => Promise<void> {
  const column = <T>(rows: CaughtRow[], i: number) => rows.map((r) => r[i] as T);
  return batched<CaughtRow>(async (rows) => {
    await pool.query(
      `INSERT INTO caught_mail (message_id, from_address, to_addresses, subject, text_body, html_body, raw, received_at)
       SELECT m.message_id, m.from_address, ARRAY(SELECT jsonb_array_elements_text(m.to_addresses)), m.subject, m.text_body, m.html_body, m.raw, now()
         FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::text[], $5::text[], $6::text[], $7::text[])
           AS m(message_id, from_address, to_addresses, subject, text_body, html_body, raw)
       ON CONFLICT (message_id) WHERE message_id IS NOT NULL DO NOTHING`,
      [column(rows, 0), column(rows, 1), rows.map((r) => JSON.stringify(r[2])), column(rows, 3), column(rows, 4), column(rows, 5), column(rows, 6)],
    );
  }, ROWS_PER_INSERT);
}
